"""Run KnowRL's released reward code (a checkout of zjunlp/KnowRL) on conformance batches: the oracle.

    python -m bench.knowrl_oracle JOB.json

Runs in its own process (bench/conformance.py starts it): their modules read their environment at
import time, print freely and write logs under the working directory. Nothing of theirs is copied
here; their code is imported from the checkout and run as TRL runs it (``format_reward_func`` and
``CombinedScorer().combined_reward_func`` once per batch, keyword columns ``best_answer``, ``title``,
``question`` beside ``prompts`` and ``completions``). What is changed around it, and why:

- ``zhipuai`` and ``api_client_manager`` are stub modules (imported at module level, never used with
  ``USE_API_MANAGER_FOR_LLM_EVAL=false`` and an OpenAI-compatible base URL);
- NLTK's ``punkt`` is an empty placeholder folder under ``NLTK_DATA`` (their check catches the wrong
  exception when it is missing; the NLI path never splits sentences);
- ``Retrieval.load_encoder`` loads the engine's local sentence-transformers model on CPU instead of
  ``sentence-transformers/gtr-t5-large`` with ``.cuda()`` (a hub download and a GPU);
- the NLI model name resolves, through ``HF_HUB_CACHE``, to the tiny local model (judges.tiny_nli).

Recorded beside the two rewards, without changing them: the grader's reward per row, the fact score
per row, FActScore's decisions (claims and verdicts) and every entailment probability computed.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import time
import types
from pathlib import Path
from typing import Any


def _stub_modules() -> None:
    zhipuai = types.ModuleType("zhipuai")
    zhipuai.ZhipuAI = type("ZhipuAI", (), {"__init__": lambda self, *a, **k: None})  # type: ignore[attr-defined]
    manager = types.ModuleType("api_client_manager")

    class ApiClientManager:
        @classmethod
        def get_instance(cls) -> "ApiClientManager":
            return cls()

    manager.ApiClientManager = ApiClientManager  # type: ignore[attr-defined]
    sys.modules.setdefault("zhipuai", zhipuai)
    sys.modules.setdefault("api_client_manager", manager)


def _environment(job: dict[str, Any], workdir: Path) -> None:
    punkt = workdir / "nltk_data" / "tokenizers" / "punkt"
    punkt.mkdir(parents=True, exist_ok=True)
    os.environ.update(
        {
            "NLTK_DATA": str(punkt.parent.parent),
            "USE_API_MANAGER_FOR_LLM_EVAL": "false",
            "OPENAI_API_BASE_JUDGE": job["server_url"],
            "OPENAI_API_KEY_JUDGE": "scripted",
            "LLM_EVAL_MODEL": "scripted",
            "OPENAI_BASE_URL_FACTSCORE": job["server_url"],
            "OPENAI_API_KEY_FACTSCORE": "scripted",
            "FACTSCORE_MODEL": "scripted",
            "FACTSCORE_DB_PATH": job["kb"],
            "HF_HUB_CACHE": job["hub_cache"],
            "HF_HUB_OFFLINE": "1",
            "TRANSFORMERS_OFFLINE": "1",
        }
    )


class _Recorder:
    """Wraps their functions to keep what they computed (values only; the calls go through unchanged)."""

    def __init__(self) -> None:
        self.grades: list[float] = []
        self.facts: list[float] = []
        self.decisions: list[Any] = []
        self.probs: list[float] = []

    def install(self, combined: Any, factscorer: Any, embedder: str) -> None:
        rec = self
        grade_fn = combined.llm_eval_reward_func

        def llm_eval_reward_func(*args: Any, **kwargs: Any) -> list[float]:
            out = grade_fn(*args, **kwargs)
            rec.grades = list(out)
            return out

        combined.llm_eval_reward_func = llm_eval_reward_func
        fact_eval = combined.CombinedScorer._factuality_eval

        def _factuality_eval(self: Any, *args: Any, **kwargs: Any) -> list[float]:
            rec.decisions = []
            out = fact_eval(self, *args, **kwargs)
            rec.facts = list(out)
            return out

        combined.CombinedScorer._factuality_eval = _factuality_eval
        scorer = factscorer.FactScorer
        get_score = scorer.get_score

        def get_score_recorded(self: Any, *args: Any, **kwargs: Any) -> Any:
            out = get_score(self, *args, **kwargs)
            rec.decisions = out if isinstance(out, list) else [out]
            return out

        scorer.get_score = get_score_recorded
        nli = scorer._is_fact_supported_by_text_nli_optimized

        def nli_recorded(self: Any, *args: Any, **kwargs: Any) -> Any:
            out = nli(self, *args, **kwargs)
            rec.probs.append(float(out[1]))
            return out

        scorer._is_fact_supported_by_text_nli_optimized = nli_recorded

        def load_encoder(self: Any) -> None:
            if self.encoder is None:
                from sentence_transformers import SentenceTransformer

                self.encoder = SentenceTransformer(embedder, device="cpu").eval()

        factscorer.Retrieval.load_encoder = load_encoder


def _decisions(result: Any) -> dict[str, Any]:
    if not isinstance(result, dict):
        return {}
    rows = (result.get("decisions") or [[]])[0] or []
    return {
        "n_facts": int(result.get("num_facts_per_response", 0)),
        "claims": [d["atom"] for d in rows],
        "supported": [bool(d["is_supported"]) for d in rows],
    }


def run(job: dict[str, Any]) -> dict[str, Any]:
    workdir = Path(job["workdir"])
    workdir.mkdir(parents=True, exist_ok=True)
    os.chdir(workdir)  # their reward logs go to ./reward_outputs/
    _stub_modules()
    _environment(job, workdir)
    sys.path.insert(0, str(Path(job["checkout"]) / "train"))
    log = io.StringIO()
    with contextlib.redirect_stdout(log):
        from reward_function import combined_reward, format_reward
        from reward_function.FActScore.factscore import factscorer

        recorder = _Recorder()
        recorder.install(combined_reward, factscorer, job["embedder"])
        scorer = combined_reward.CombinedScorer()
        out, seconds = [], []
        for batch in job["batches"]:
            columns = {
                "prompts": [r["prompt"] for r in batch],
                "completions": [r["completion"] for r in batch],
                "best_answer": [r["best_answer"] for r in batch],
                "title": [r["title"] for r in batch],
                "question": [r["question"] for r in batch],
            }
            started = time.perf_counter()
            formats = format_reward.format_reward_func(**columns)
            combined = scorer.combined_reward_func(**columns)
            seconds.append(time.perf_counter() - started)  # one TRL step's reward calls (imports excluded)
            decisions = recorder.decisions if len(recorder.decisions) == len(batch) else [None] * len(batch)
            for i, row in enumerate(batch):
                out.append(
                    {
                        "id": row["id"],
                        "format": float(formats[i]),
                        "combined": float(combined[i]),
                        "grade": float(recorder.grades[i]),
                        "fact": float(recorder.facts[i]),
                        **_decisions(decisions[i]),
                    }
                )
    Path(job["log"]).write_text(log.getvalue(), encoding="utf-8")
    return {"rows": out, "nli_probs": recorder.probs, "batch_seconds": seconds}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    job = json.loads(Path(args[0]).read_text(encoding="utf-8"))
    result = run(job)
    Path(job["out"]).write_text(json.dumps(result), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
