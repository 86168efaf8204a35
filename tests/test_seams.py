"""The seams' contracts hold as the docs say (issue #75, points 2-4): a knowledge source's paths resolve against the
config as ``kb_path`` does and the source is checked once at start-up by every job (serve, verl, training); every
stage factory gets the knowledge opener the registry promises; scored rows say what they hold (``fact_score`` is
inside ``correctness``, None where not computed) in every adapter.

Everything here runs offline on a JSONL source served in BM25 only: no model, no judge."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from retrieval.kb import Hit, Passage, SearchResult, split_titles
from reward_engine.config import load_reward_config, parse_reward_config
from reward_engine.engine import RewardEngine, RewardResult, Sample
from reward_engine.job import JobCheckError, check_knowledge
from reward_engine.stages.registry import StageContext, register
from reward_engine.stages.verify import OfflineVerifier
from tests.helpers import write_jsonl

ROOT = Path(__file__).resolve().parents[1]
SOURCE = "tests.test_seams:JsonlSource"
DOCS = [
    {"title": "Paris", "text": "Paris is the capital and largest city of France. The Eiffel Tower is in Paris."},
    {"title": "Lyon", "text": "Lyon is a city in France on the Rhone. Lyon is the third largest city of France."},
]
QUESTION = "What is the capital of France?"
RIGHT = Sample(QUESTION, "<think>Paris is the capital of France.</think><answer>Paris</answer>", "Paris", "Paris")
WRONG = Sample(
    QUESTION,
    "<think>Lyon is a city in France on the Rhone. Lyon is the capital of France.</think><answer>Lyon</answer>",
    "Paris",
    "Paris",
)


class JsonlSource:
    """A knowledge source over a JSONL of {title, text}, BM25 only, as a newcomer writes one from the docs."""

    opened: list[str] = []  # the paths the factory was called with, in order

    def __init__(self, path: str, url: str | None = None) -> None:
        JsonlSource.opened.append(path)
        lines = Path(path).read_text(encoding="utf-8").splitlines()  # relative: the working directory's
        self.passages = [Passage(i, r["title"], r["text"]) for i, r in enumerate(map(json.loads, lines), 1)]
        self.closed = False

    version = property(lambda self: "jsonl-1")
    modes = property(lambda self: ("bm25",))

    def search(self, query, titles=None, k=5, mode="hybrid", query_vector=None):
        wanted = split_titles(titles)
        pool = [p for p in self.passages if p.title in wanted] or self.passages
        words = set(query.lower().split())
        ranked = sorted(pool, key=lambda p: -len(words & set(p.text.lower().split())))[:k]
        return SearchResult([Hit(p, 1.0, {"bm25": n}) for n, p in enumerate(ranked, 1)], mode, "global")

    def title_passages(self, titles, limit):
        found = [p for p in self.passages if p.title in split_titles(titles)]
        return found if 0 < len(found) <= limit else None

    def encode_queries(self, queries):
        return [None] * len(queries)

    def title_passage_ids(self, titles):
        found = [t for t in titles if any(p.title == t for p in self.passages)]
        return [p.id for p in self.passages if p.title in found], found, [t for t in titles if t not in found]

    def get_passages(self, ids):
        return {p.id: p for p in self.passages if p.id in set(ids)}

    def close(self) -> None:
        self.closed = True


def write_config(folder: Path, **factuality: Any) -> Path:
    """``folder/reward.yaml`` reading ``folder/docs/kb.jsonl`` through the JSONL source, by a relative path."""
    (folder / "docs").mkdir(parents=True, exist_ok=True)
    (folder / "docs" / "kb.jsonl").write_text("".join(json.dumps(d) + "\n" for d in DOCS), encoding="utf-8")
    section = {"source": SOURCE, "source_options": {"path": "docs/kb.jsonl"}, "retrieval_mode": "bm25", **factuality}
    path = folder / "reward.yaml"
    path.write_text(json.dumps({"grader": "offline", "factuality": section}))
    return path


@pytest.fixture
def elsewhere(tmp_path, monkeypatch) -> Path:
    """The config lives in ``tmp_path/configs``; the process runs from ``tmp_path/run``, as a job launched from
    another folder (or a verl worker) does."""
    run = tmp_path / "run"
    run.mkdir()
    monkeypatch.chdir(run)
    return tmp_path / "configs"


# -- point 2: source paths resolve like kb_path; the source is checked once at start-up ----------------------------
def test_source_option_paths_resolve_against_the_config_folder_as_kb_path_does(elsewhere) -> None:
    path = write_config(elsewhere, source_options={"path": "docs/kb.jsonl", "url": "http://kb-host:8300"})
    config = load_reward_config(path)
    options = config.factuality.source_options
    assert options["path"] == str((elsewhere / "docs" / "kb.jsonl").resolve())  # not the working directory's
    assert options["url"] == "http://kb-host:8300"  # not a path option: as written
    found = check_knowledge(config)  # opens: the file is found from another working directory
    assert isinstance(found.source, JsonlSource) and found.version.startswith("jsonl-1+files:")  # its file too
    found.source.close()
    # a mapping without a config file (no folder to resolve against) keeps relative paths relative, as kb_path
    raw = parse_reward_config({"factuality": {"source": SOURCE, "source_options": {"index_dir": "idx", "k": 3}}})
    assert raw.factuality.source_options == {"index_dir": "idx", "k": 3}


def test_serve_checks_the_source_before_listening(elsewhere, monkeypatch, capsys) -> None:
    from reward_engine import serve

    served: list[Any] = []

    async def no_serving(app, host, port, banner):  # never listen in a test: what would have been served
        served.append(app)

    monkeypatch.setattr(serve, "serve_forever", no_serving)
    missing = write_config(elsewhere, source_options={"path": "docs/gone.jsonl"})
    assert serve.main(["--config", str(missing)]) == 2 and not served
    line = capsys.readouterr().err.strip()
    assert len(line.splitlines()) == 1 and f"factuality.source '{SOURCE}' cannot be opened" in line, line
    assert "FileNotFoundError" in line

    hybrid = write_config(elsewhere, retrieval_mode="hybrid")  # the source serves bm25 only
    assert serve.main(["--config", str(hybrid)]) == 2 and not served
    line = capsys.readouterr().err.strip()
    assert "factuality.retrieval_mode 'hybrid'" in line and "['bm25']" in line and "--no-dense" not in line, line

    opened = len(JsonlSource.opened)
    assert serve.main(["--config", str(write_config(elsewhere))]) == 0 and len(served) == 1
    assert len(JsonlSource.opened) == opened + 1  # once, before the first request


def test_verl_checks_the_source_when_a_worker_builds_its_engine_and_reads_paths_from_the_config(elsewhere) -> None:
    from reward_engine import verl

    verl._engine_for.cache_clear()
    missing = write_config(elsewhere, source_options={"path": "docs/gone.jsonl"})
    with pytest.raises(JobCheckError, match=r"factuality.source .* cannot be opened.*FileNotFoundError"):
        verl.compute_score(["qa"], ["<answer>Paris</answer>"], ["Paris"], [{"question": QUESTION}], config=str(missing))
    with pytest.raises(ValueError, match=r"reward_kwargs.config: no reward config at .*working directory"):
        verl.compute_score(["qa"], ["x"], ["Paris"], config="configs/reward.yaml")  # relative to the worker's cwd

    path = write_config(elsewhere)
    scores = verl.compute_score(
        data_sources=["qa", "qa"],
        solution_strs=[RIGHT.completion, WRONG.completion],
        ground_truths=["Paris", "Paris"],
        extra_infos=[{"question": QUESTION, "title": "Paris"}] * 2,
        config=str(path),
    )
    resolved = str(path.resolve())
    engine = verl._engine_for(resolved, verl._stamp(resolved))  # the worker's cached engine, keyed by its config
    assert isinstance(engine.kb, JsonlSource)  # the source checked at start-up is the one the engine reads
    engine.close()
    verl._engine_for.cache_clear()
    keys = {"score", "format", "correctness", "fact_score", "fact_scored", "unscored"}
    assert all(set(s) == keys for s in scores)  # verl appends every key per response: none may be missing
    assert all(isinstance(v, float) and math.isfinite(v) for s in scores for v in s.values())  # no None for verl
    right, wrong = scores
    assert right["fact_scored"] == 0.0 and right["fact_score"] == 0.0  # not computed: the flag says so
    assert wrong["fact_scored"] == 1.0
    assert wrong["correctness"] == pytest.approx(-1.0 + wrong["fact_score"])  # inside correctness already
    assert wrong["score"] == pytest.approx(wrong["format"] + wrong["correctness"])


def test_training_checks_the_source_before_the_policy_loads(elsewhere, monkeypatch) -> None:
    from knowrl import grpo
    from knowrl.config import ConfigError, TrainConfig

    def loaded_first(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the policy loaded before the knowledge source was checked")

    monkeypatch.setattr(grpo, "load_policy", loaded_first)
    data = ROOT / "configs" / "data" / "smoke_rl.jsonl"  # train reads its data first (pass 57): it must exist
    run = {"model": {"name_or_path": "tiny"}, "data": {"train": str(data)}, "output_dir": str(elsewhere / "run")}
    config = TrainConfig.model_validate(run)
    config.reward = load_reward_config(write_config(elsewhere, source_options={"path": "docs/gone.jsonl"}))
    with pytest.raises(ConfigError, match=r"^reward\.factuality\.source .* cannot be opened"):
        grpo.train(config)
    config.reward = load_reward_config(write_config(elsewhere, retrieval_mode="hybrid"))
    with pytest.raises(ConfigError, match=r"^reward\.factuality\.retrieval_mode 'hybrid'.*\['bm25'\]"):
        grpo.train(config)


async def test_a_source_without_the_mode_says_so_per_row_without_build_advice(tmp_path) -> None:
    """What a row says when no start-up check ran (the engine used directly): the source's modes and the configured
    mode, not "built with --no-dense ... retrieval.build --from-db" (wrong for a custom source)."""
    config = load_reward_config(write_config(tmp_path, retrieval_mode="hybrid"))
    source = JsonlSource(str(tmp_path / "docs" / "kb.jsonl"))
    async with RewardEngine(config, kb=source) as engine:
        (result,) = await engine.score([WRONG])
    assert result.status == "error" and result.total is None
    assert "factuality.retrieval_mode 'hybrid'" in result.error and "serves only ['bm25']" in result.error
    assert "--no-dense" not in result.error and "retrieval.build" not in result.error


# -- point 3: every factory gets what the registry promises ----------------------------------------------------------
RECEIVED: dict[str, StageContext] = {}


@register("verifier", "seams-knowing-verifier")
def _knowing_verifier(ctx: StageContext) -> OfflineVerifier:
    assert callable(ctx.knowledge), "a verifier factory got no knowledge opener"
    RECEIVED["verifier"] = ctx
    return OfflineVerifier()


@register("decomposer", "seams-knowing-decomposer")
def _knowing_decomposer(ctx: StageContext) -> Any:
    from reward_engine.stages.decompose import OfflineDecomposer

    assert callable(ctx.knowledge), "a decomposer factory got no knowledge opener"
    RECEIVED["decomposer"] = ctx
    return OfflineDecomposer()


async def test_every_stage_factory_receives_the_knowledge_opener(tmp_path) -> None:
    config = load_reward_config(write_config(tmp_path))
    config = config.model_copy(update={"verifier": "seams-knowing-verifier", "decomposer": "seams-knowing-decomposer"})
    source = JsonlSource(str(tmp_path / "docs" / "kb.jsonl"))
    RECEIVED.clear()
    async with RewardEngine(config, kb=source) as engine:
        (result,) = await engine.score([WRONG])
    assert set(RECEIVED) == {"verifier", "decomposer"}
    for kind, ctx in RECEIVED.items():
        assert ctx.knowledge() is source, kind  # the run's source, the one the engine retrieves from
        assert ctx.config is config and ctx.templates is not None
    assert result.status == "ok" and result.fact_score is not None


# -- point 4: rows say what they hold ---------------------------------------------------------------------------------
def test_a_result_row_holds_fact_score_inside_correctness_never_beside_it() -> None:
    row = RewardResult(total=0.1, format=1.0, correctness=-0.9, fact_score=0.1, label="INCORRECT").to_dict()
    assert "fact_score" in row and "factuality" not in row  # one name per quantity: nothing to add up twice
    assert row["total"] == pytest.approx(row["format"] + row["correctness"])
    legacy = RewardResult()
    legacy.factuality = 0.5  # the old attribute name still reads and writes the one value
    assert legacy.fact_score == 0.5 and legacy.to_dict()["fact_score"] == 0.5


async def test_score_rows_carry_fact_score_and_null_where_not_computed(tmp_path) -> None:
    from reward_engine.score import score_file

    src = tmp_path / "in.jsonl"
    rows = [
        {"id": "right", "question": QUESTION, "completion": RIGHT.completion, "answers": "Paris", "title": "Paris"},
        {"id": "wrong", "question": QUESTION, "completion": WRONG.completion, "answers": "Paris", "title": "Paris"},
    ]
    write_jsonl(src, rows)
    config = load_reward_config(write_config(tmp_path))
    out = tmp_path / "scored.jsonl"
    summary = await score_file(src, out, config, progress=False, kb=JsonlSource(str(tmp_path / "docs" / "kb.jsonl")))
    right, wrong = (json.loads(line) for line in out.read_text().splitlines())
    assert "factuality" not in right and "factuality" not in wrong
    assert right["fact_score"] is None and right["label"] == "CORRECT"  # a right answer has no fact score
    assert wrong["label"] == "INCORRECT" and isinstance(wrong["fact_score"], float)
    assert wrong["correctness"] == pytest.approx(-1.0 + wrong["fact_score"])
    assert wrong["reward"] == pytest.approx(wrong["format"] + wrong["correctness"])
    assert summary["mean"]["fact_score"] == pytest.approx(wrong["fact_score"])  # over the rows that have one
    assert "factuality" not in summary["mean"]


async def test_a_wrong_answer_without_factuality_has_no_fact_score() -> None:
    config = parse_reward_config({"factuality": {"enabled": False}})
    async with RewardEngine(config) as engine:
        (wrong,) = await engine.score([WRONG])
    assert wrong.label == "INCORRECT" and wrong.correctness == -1.0 and wrong.fact_score is None  # not 0.0


def test_the_http_server_says_which_fact_scores_were_computed() -> None:
    from reward_engine.serve import reply_of

    scored = RewardResult(total=0.1, format=1.0, correctness=-0.9, fact_score=0.1, label="INCORRECT")
    zero = RewardResult(total=0.0, format=1.0, correctness=-1.0, fact_score=0.0, label="INCORRECT")
    right = RewardResult(total=3.0, format=1.0, correctness=2.0, label="CORRECT")
    logs = reply_of([scored, zero, right], unscored=0.0)["extra_logs"]
    assert "factuality" not in logs
    assert logs["fact_score"] == [0.1, 0.0, 0.0] and logs["fact_scored"] == [1.0, 1.0, 0.0]
    assert all(isinstance(v, float) for values in logs.values() for v in values)  # OpenRLHF makes tensors of them


def test_the_reward_log_and_its_readers_agree_on_fact_score(tmp_path) -> None:
    from knowrl.effect.training_signal import training_signal
    from knowrl.reward_log import RewardLog
    from reward_engine.inspect import report_rows

    wrong = RewardResult(total=0.25, format=1.0, correctness=-0.75, fact_score=0.25, label="INCORRECT")
    right = RewardResult(total=3.0, format=1.0, correctness=2.0, label="CORRECT")
    new = tmp_path / "rewards.jsonl"
    log = RewardLog(new)
    log(0, [WRONG, RIGHT], [wrong, right])
    log.close()
    rows = [json.loads(line) for line in new.read_text().splitlines()]
    assert [r["fact_score"] for r in rows] == [0.25, None] and all("factuality" not in r for r in rows)
    old = tmp_path / "old.jsonl"  # a log written before the rename
    old.write_text("".join(json.dumps({**r, "factuality": r.pop("fact_score")}) + "\n" for r in rows))
    for path in (new, old):
        signal = training_signal(path, fact_weight=1.0, group=2)
        assert signal["fact_score_incorrect"] == pytest.approx(0.25), path.name
        shown = report_rows((json.loads(line) for line in path.read_text().splitlines()), {})
        assert [r["fact_score"] for r in shown] == [0.25, None], path.name


def test_the_docs_name_the_row_keys_as_the_rows_do() -> None:
    engine = (ROOT / "docs" / "reward-engine.md").read_text(encoding="utf-8")
    score = (ROOT / "docs" / "score-model-outputs.md").read_text(encoding="utf-8")
    for page in (engine, score):
        assert "`fact_score`" in page and "already inside `correctness`" in page
        assert "grader label" not in page  # the key is `label`, and it is not always the grader's
    assert "source_options" in engine and "against the config file's folder" in engine
    assert "async def verify(" in engine and "async def verdicts(" in engine  # a verifier plugin's signature
