"""What a training run writes beside its checkpoints, checked before any model loads (hostile pass 59).

- ``logging.reward_log`` (a ``.jsonl`` name in ``output_dir``: ``reward_log.reward_log_problem``, at load) lies
  there by every route and is none of the run's inputs: naming the run's own data file (or ``../notes.jsonl``)
  moved that file aside and wrote the log in its place, exit 0.
"""

from __future__ import annotations

import os
from pathlib import Path

from knowrl.config import ConfigError, TrainConfig
from knowrl.output_dir import run_inputs
from knowrl.reward_log import rank_log
from knowrl_io.job_output import same_file


def check_outputs(config: TrainConfig, world: int) -> None:
    """The run's outputs outside its checkpoints, before any model loads: the reward log (one per rank under
    several processes). Raises ``ConfigError``."""
    check_reward_log(config, world)


def check_reward_log(config: TrainConfig, world: int) -> None:
    """Each rank's reward log lies in ``output_dir`` by every route (a link out of it is refused: a resume rewrites
    the log through it), is a plain file or nothing, and is none of the run's inputs. Raises ``ConfigError``."""
    out = Path(config.output_dir)
    inside = os.path.realpath(out)
    for path in [rank_log(out / config.logging.reward_log, rank, world) for rank in range(world)]:
        real = os.path.realpath(path)
        if not real.startswith(inside.rstrip(os.sep) + os.sep):
            raise ConfigError(f"logging.reward_log {path} leads out of output_dir {out} (to {real}); give a name in it")
        if path.exists() and not path.is_file():
            raise ConfigError(f"logging.reward_log {path} is not a plain file (a folder, a device or a pipe)")
        for key, value in run_inputs(config):
            if same_file(path, Path(value)):
                raise ConfigError(
                    f"logging.reward_log {path} is {key} {value}, which the run reads; give the log another name"
                )
