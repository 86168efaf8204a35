"""``logging.report_to``, checked when the config loads: the trackers transformers' trainer reports to. A name
transformers does not know, or one whose package is not installed here, failed only when the trainer built its
callbacks, after the model had loaded (hostile pass 59: ``[tensorboard]`` without tensorboard a RuntimeError
traceback, ``[bogus]`` "bogus is not supported" at exit 2)."""

from __future__ import annotations

# transformers.integrations' availability helper for each integration: what its callback checks when it is built
AVAILABLE = {
    "azure_ml": "is_azureml_available",
    "comet_ml": "is_comet_available",
    "mlflow": "is_mlflow_available",
    "neptune": "is_neptune_available",
    "tensorboard": "is_tensorboard_available",
    "trackio": "is_trackio_available",
    "wandb": "is_wandb_available",
    "codecarbon": "is_codecarbon_available",
    "clearml": "is_clearml_available",
    "dagshub": "is_dagshub_available",
    "flyte": "is_flyte_deck_standard_available",
    "dvclive": "is_dvclive_available",
    "swanlab": "is_swanlab_available",
    "kubeflow": "is_kubeflow_available",
}
ALONE = ("all", "none")  # transformers' words for every installed integration / none, read only on their own


def report_to_problem(values: list[str]) -> str | None:
    """Why ``logging.report_to`` cannot be reported to here (one line naming the key), or None: each value one of
    transformers' integrations (``all`` or ``none`` only on their own) whose package transformers finds. Nothing
    named (or ``none`` alone) asks nothing: transformers' integrations are imported only for a name to check (every
    config load paid for them, hostile pass 60)."""
    if not values or values == ["none"]:
        return None
    from transformers.integrations import integration_utils as hub

    known = list(hub.INTEGRATION_TO_CALLBACK)
    for name in values:
        if name in ALONE:
            if len(values) > 1:
                return f"logging.report_to: {name} stands alone (transformers reads it only as the whole list)"
            continue
        if name not in known:
            choices = ", ".join([*known, *ALONE])
            return f"logging.report_to: {name!r} is not one of transformers' integrations ({choices})"
        helper = getattr(hub, AVAILABLE.get(name, ""), None)
        if helper is not None and not helper():
            return (
                f"logging.report_to: {name} is not available here (transformers' {helper.__name__}() is false: its "
                f"package is not installed or not set up); install it, or remove {name} from logging.report_to"
            )
    return None
