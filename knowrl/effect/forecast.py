"""What a reward asks of a policy, read from a boundary probe before any GPU hour is spent.

    python -m knowrl.effect.forecast configs/data/boundary-smollm2-k8.json --preset truthrl
    python -m knowrl.effect.forecast PROBE --preset threshold --threshold-t 0.75 --data runs/demo/data --json

A reward that pays ``right`` / ``abstain`` / ``wrong`` makes answering pay, in expectation, only where the
policy is right with p above (abstain - wrong) / (right - wrong) (``reward_engine.semantics.answer_bar``).
From a probe (k sampled answers per question, ``knowrl.effect.boundary``) each question gets p(right): a
posterior mean under a Beta prior fitted to its family's counts (empirical Bayes), so 0 of 8 on an easy family
is not read as certainty. The reward's optimum answers exactly where p clears the bar; GRPO drives a policy
towards it. What it prints per set (training and held-out questions):

- ``abstain_share``: the optimum's share of "I don't know" (a warning above 80 % of the training questions:
  the reward asks for abstention on nearly everything);
- ``f_optimum``: its SimpleQA F (harmonic mean of correct and correct-given-attempted, in expectation);
- ``f_base``: F of answering everything as the probed policy does;
- ``f_oracle``: F of the best cut on p (answer the most likely questions, abstain on the rest): the most any
  reward can show on this set with this policy's knowledge;
- ``expected_reward``: the optimum's mean reward per completion, in the preset's units (format term included,
  fact score taken as 0).

Questions about things that do not exist have p = 0: abstaining is right there.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from knowrl_io.once import Once

WARN_ABSTAIN_SHARE = 0.8
MIN_FAMILY = 20  # fewer probed questions than this: the family borrows the pooled prior
SPLITS = ("train", "heldout")  # the two files of a run's data folder (--data)


@dataclass(frozen=True)
class Prior:
    """A Beta(a, b) prior over p(right)."""

    a: float
    b: float

    def posterior_mean(self, correct: int, k: int) -> float:
        """E[p | correct of k], the shrunk estimate.

        >>> round(Prior(1.0, 1.0).posterior_mean(0, 8), 3), round(Prior(1.0, 1.0).posterior_mean(8, 8), 3)
        (0.1, 0.9)
        """
        return (correct + self.a) / (k + self.a + self.b)


def fit_prior(counts: Sequence[int], k: int | Sequence[int]) -> Prior:
    """Beta-binomial prior by the method of moments: the mean share right, and how much more the shares vary
    than k draws of one p would (their overdispersion) sets how strongly the prior pulls.

    >>> p = fit_prior([0, 0, 0, 8, 8, 8], 8)   # all-or-nothing: a weak prior, posteriors near the raw share
    >>> round(p.posterior_mean(0, 8), 3), round(p.posterior_mean(8, 8), 3)
    (0.056, 0.944)
    >>> p = fit_prior([3, 4, 5, 4, 4, 4], 8)   # one p for all: a strong prior at 1/2
    >>> round(p.posterior_mean(0, 8), 2)
    0.43
    """
    ns = [k] * len(counts) if isinstance(k, int) else list(k)  # draws per question (a policy's attempts vary)
    kept = [(c, n) for c, n in zip(counts, ns) if n >= 1]
    if not kept:
        return Prior(1.0, 1.0)
    shares = [c / n for c, n in kept]
    n_mean = sum(n for _, n in kept) / len(kept)
    mu = sum(shares) / len(shares)
    mu = min(max(mu, 1e-3), 1 - 1e-3)
    var = sum((s - mu) ** 2 for s in shares) / max(1, len(shares) - 1)
    rho = ((var * n_mean / (mu * (1 - mu))) - 1) / (n_mean - 1) if n_mean > 1 else 0.5
    rho = min(max(rho, 0.02), 0.5)  # 1/(a+b+1): the prior is worth at least one sample, at most 49
    strength = 1 / rho - 1
    return Prior(mu * strength, (1 - mu) * strength)


def posteriors(draws: Mapping[str, tuple[int, int]], family: Mapping[str, str]) -> dict[str, float]:
    """Per question (qid -> (right, drawn)), the posterior mean p(right) under its family's prior (the pooled one
    for a family of fewer than ``MIN_FAMILY`` questions)."""
    by_family: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for qid, got in draws.items():
        by_family[family.get(qid, "?")].append(got)

    def prior(got: list[tuple[int, int]]) -> Prior:
        return fit_prior([c for c, _ in got], [n for _, n in got])

    pooled = prior([got for gots in by_family.values() for got in gots])
    priors = {f: prior(g) if len(g) >= MIN_FAMILY else pooled for f, g in by_family.items()}
    return {qid: priors[family.get(qid, "?")].posterior_mean(c, n) for qid, (c, n) in draws.items()}


def p_right(probe: Mapping[str, Mapping[str, Any]], family: Mapping[str, str], k: int) -> dict[str, float]:
    """Per probed question (qid -> {"correct": int}), the posterior mean p(right) under its family's prior."""
    return posteriors({qid: (int(got["correct"]), k) for qid, got in probe.items()}, family)


def p_right_of_rows(
    rows: Sequence[Mapping[str, Any]], probe: Mapping[str, Mapping[str, Any]], k: int
) -> dict[str, float]:
    """``p_right`` with each question's family from its row's ``template`` (else its qid's prefix)."""
    family = {qid: qid.split(":")[0] for qid in probe}
    family.update({r["qid"]: r.get("template") or "?" for r in rows})
    return p_right(probe, family, k)


def policy_p_right(rows: Sequence[Mapping[str, Any]], counts: Sequence[Sequence[int]]) -> dict[str, float]:
    """Per answerable row, p(right | it answers) of the policy whose sampled outcomes per row are ``counts``
    (CORRECT, INCORRECT, ABSTAINED, MALFORMED: ``knowrl.stats.OUTCOMES``): the posterior mean of its attempts'
    accuracy under its family's prior (fitted to the attempts' shares; a row never attempted gets the prior's
    mean). Why not the base's probe: GRPO samples the policy it trains, in the answer format, and the policy
    after a cold start may know less (or abstain more) than the base answering bare; what answering pays is
    what its own attempts earn.

    >>> rows = [{"qid": q, "template": "f"} for q in "abc"]
    >>> ps = policy_p_right(rows, [[4, 0, 0, 0], [0, 4, 0, 0], [0, 0, 4, 0]])
    >>> round(ps["a"], 2) > 0.5 > round(ps["b"], 2), round(ps["c"], 2)
    (True, 0.5)
    """
    right = {r["qid"]: (int(c[0]), int(c[0]) + int(c[1])) for r, c in zip(rows, counts) if r.get("answerable", True)}
    return posteriors(right, {r["qid"]: r.get("template") or "?" for r in rows})


def simpleqa_f(correct: float, attempted: float) -> float:
    """SimpleQA's F: the harmonic mean of correct (over all questions) and correct given attempted.

    >>> round(simpleqa_f(0.2, 1.0), 3), round(simpleqa_f(0.2, 0.25), 3), simpleqa_f(0.0, 0.0)
    (0.2, 0.32, 0.0)
    """
    if attempted <= 0 or correct <= 0:
        return 0.0
    given = correct / attempted
    return 2 * correct * given / (correct + given)


@dataclass(frozen=True)
class SetForecast:
    questions: int
    answer_bar: float
    abstain_share: float
    correct: float
    incorrect: float
    f_optimum: float
    f_base: float
    f_oracle: float
    oracle_answers: float  # the share of questions the oracle's cut answers
    expected_reward: float
    expected_reward_answer_all: float
    expected_reward_abstain_all: float


def optimum_actions(ps: Sequence[float], pay: Mapping[str, float]) -> list[bool]:
    """True where answering earns more than abstaining in expectation (ties abstain)."""
    return [p * pay["right"] + (1 - p) * pay["wrong"] > pay["abstain"] + 1e-12 for p in ps]


def forecast_set(ps: Sequence[float], pay: Mapping[str, float], bar: float) -> SetForecast:
    """The forecast for one set of questions with p(right) ``ps`` under payoffs ``pay``."""
    n = len(ps)
    if n == 0:
        return SetForecast(0, bar, *([0.0] * 10))
    answer = optimum_actions(ps, pay)
    attempted = sum(answer) / n
    correct = sum(p for p, a in zip(ps, answer) if a) / n
    reward = sum(p * pay["right"] + (1 - p) * pay["wrong"] if a else pay["abstain"] for p, a in zip(ps, answer)) / n
    ranked = sorted(ps, reverse=True)
    best_f, best_m, running = 0.0, 0, 0.0
    for m, p in enumerate(ranked, 1):
        running += p
        f = simpleqa_f(running / n, m / n)
        if f > best_f:
            best_f, best_m = f, m
    mean_p = sum(ps) / n
    return SetForecast(
        questions=n,
        answer_bar=bar,
        abstain_share=1 - attempted,
        correct=correct,
        incorrect=attempted - correct,
        f_optimum=simpleqa_f(correct, attempted),
        f_base=simpleqa_f(mean_p, 1.0),
        f_oracle=best_f,
        oracle_answers=best_m / n,
        expected_reward=reward,
        expected_reward_answer_all=mean_p * pay["right"] + (1 - mean_p) * pay["wrong"],
        expected_reward_abstain_all=pay["abstain"],
    )


def forecast(
    sets: Mapping[str, Iterable[Mapping[str, Any]]],
    probe: Mapping[str, Mapping[str, Any]],
    k: int,
    sem: Any,
    ps: Mapping[str, float] | None = None,
) -> dict[str, dict[str, float]]:
    """Per named set of RL rows (``qid``, ``answerable``, ``template``): the forecast under semantics ``sem``. A
    row about something that does not exist has p 0; an answerable row the probe lacks is left out (counted).
    ``ps``: p(right) per qid from elsewhere (``policy_p_right``) instead of the probe's."""
    from reward_engine.semantics import answer_bar, payoffs

    pay, bar = payoffs(sem), answer_bar(sem)
    rows = {name: list(r) for name, r in sets.items()}
    if ps is None:
        ps = p_right_of_rows([r for rs in rows.values() for r in rs], probe, k)
    out: dict[str, dict[str, float]] = {}
    for name, rs in rows.items():
        got = [
            0.0 if not r.get("answerable", True) else ps[r["qid"]]
            for r in rs
            if r["qid"] in ps or not r.get("answerable", True)
        ]
        out[name] = {**asdict(forecast_set(got, pay, bar)), "unprobed": len(rs) - len(got)}  # answerable, not probed
    return out


def warning(result: Mapping[str, Mapping[str, float]], share: float = WARN_ABSTAIN_SHARE) -> str | None:
    """A line for the user when the reward's optimum abstains on more than ``share`` of the training questions."""
    train = result.get("train")
    if not train or train["abstain_share"] <= share:
        return None
    return (
        f"warning: this reward's optimum says \"I don't know\" to {train['abstain_share']:.0%} of the training "
        f"questions (answering pays only where p(right) > {train['answer_bar']:.2f}); GRPO will drive the policy "
        "towards abstaining on nearly everything. Pick a preset with a lower bar (truthrl: 0.50, threshold with a "
        "smaller threshold_t) or questions the policy knows better."
    )


def render(result: Mapping[str, Mapping[str, float]], preset: str) -> str:
    """The forecast as a small table (what ``knowrl.train`` prints before GRPO)."""
    lines = [
        f"Reward forecast ({preset}): answering pays where p(right) > {next(iter(result.values()))['answer_bar']:.2f}",
        "",
        "| set | questions | optimum abstains | optimum F | optimum incorrect | base F | oracle F | expected reward |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, r in result.items():
        lines.append(
            f"| {name} | {r['questions']} | {r['abstain_share']:.1%} | {r['f_optimum']:.3f} | {r['incorrect']:.3f} "
            f"| {r['f_base']:.3f} | {r['f_oracle']:.3f} | {r['expected_reward']:+.3f} |"
        )
    left = unprobed_line(result)
    note = warning(result)
    return "\n".join(lines + ([left] if left else []) + ([note] if note else []))


def unprobed_line(result: Mapping[str, Mapping[str, float]]) -> str | None:
    """How many rows per set the probe never asked, left out of the table (a table of only such rows read as a
    forecast of 0 questions, with no word: hostile pass 55); None when every row was forecast."""
    left = {name: int(r.get("unprobed", 0)) for name, r in result.items()}
    if not any(left.values()):
        return None
    counts = ", ".join(f"{name} {n}" for name, n in left.items() if n)
    return f"left out: rows whose qid the probe never asked ({counts}); the table reads only the probed ones"


def read_rows(path: Path) -> list[dict[str, Any]]:
    """RL rows of a JSONL file (a run's train.jsonl / heldout.jsonl)."""
    from knowrl_io.records import iter_records

    rows = []
    for record in iter_records(path):
        if record.error is not None:
            raise ValueError(f"{path}:{record.where}: {record.error}")
        rows.append(record.value)
    return rows


def read_data(folder: Path) -> dict[str, list[dict[str, Any]]]:
    """``--data``'s train.jsonl and heldout.jsonl, every row a JSON object with the ``qid`` its probe keys questions
    by; else a ``ValueError`` naming the flag and the file (plain KnowRL rows were a ``KeyError: 'qid'`` traceback,
    a folder without heldout.jsonl an ``InputError`` one: hostile pass 55)."""
    sets = {}
    for name in SPLITS:
        path = folder / f"{name}.jsonl"
        if not path.is_file():
            holds = " and ".join(f"{n}.jsonl" for n in SPLITS)
            raise ValueError(f"--data {folder}: no {path.name} in it (a run's data folder holds {holds})")
        try:
            rows = read_rows(path)
        except ValueError as exc:  # knowrl_io's InputError included
            raise ValueError(f"--data {exc}") from None
        bad = next(
            (i for i, r in enumerate(rows, 1) if not isinstance(r, dict) or not isinstance(r.get("qid"), str)), 0
        )
        if bad:
            raise ValueError(
                f"--data {path}: row {bad} has no 'qid' (the probe's question id): the forecast reads a probed "
                "design's rows (<output_dir>/data of a run with pipeline.demo_design margin or gradient), not plain "
                "KnowRL rows"
            )
        sets[name] = rows
    return sets


def nothing_forecast(result: Mapping[str, Mapping[str, float]], data: Path | None, probe: Path) -> str | None:
    """Why a set has nothing to forecast (no row, or none the probe asked), naming it (``--data``'s file when
    given); None when each set has a question."""
    for name, r in result.items():
        if not r["questions"]:
            where = f"--data {data / f'{name}.jsonl'}" if data is not None else f"{probe} ({name} set)"
            why = f"none of its {r['unprobed']} rows has a qid the probe asked" if r["unprobed"] else "it has no row"
            return f"{where}: nothing to forecast on {name}: {why}"
    return None


def range_problem(args: Any) -> str | None:
    """A flag out of range, named, before anything is read: ``--threshold-t`` was a pydantic block of lines."""
    t = args.threshold_t
    if t is not None and not 0 < t < 1:
        return f"--threshold-t must be between 0 and 1 (both excluded), got {t}"
    return None


def read_probe(path: Path) -> tuple[dict[str, Any], int]:
    """(qid -> {"correct": ...}, k) of a probe file; a ``ValueError`` naming it when it is not one, when it drew no
    answer per question (``k`` 0 read as every question never right, exit 0: hostile pass 55), or when a question's
    right count is not one of 0..k."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        probe, k = data["probe"], int(data["k"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path}: not a probe file ({exc})") from None
    if k < 1:
        raise ValueError(f"{path}: k is {k}: the probe drew no answer per question (probe again with --k 1 or more)")
    if not isinstance(probe, dict):
        raise ValueError(f"{path}: not a probe file ('probe' is not an object of questions)")
    bad = next((q for q, got in probe.items() if not _count_of(got, k)), None)
    if bad is not None:
        raise ValueError(f"{path}: question {bad}: 'correct' is not a count from 0 to k {k}")
    return probe, k


def _count_of(got: Any, k: int) -> bool:
    correct = got.get("correct") if isinstance(got, dict) else None
    return isinstance(correct, int) and not isinstance(correct, bool) and 0 <= correct <= k


def main(argv: Sequence[str] | None = None) -> int:
    """Print what a reward preset's optimum does on a probed set, before training."""
    from knowrl_io.args import Parser
    from reward_engine.semantics import semantics

    parser = Parser(prog="python -m knowrl.effect.forecast", description=main.__doc__)
    parser.add_argument("probe", type=Path, help="a probe file (python -m knowrl.effect.probe_candidates)")
    parser.add_argument("--preset", default="knowrl", help="reward preset (reward_engine.semantics.PRESETS)")
    parser.add_argument("--threshold-t", type=float, help="preset threshold: the confidence target t, in (0, 1)")
    parser.add_argument(
        "--data",
        type=Path,
        action=Once,
        help="a run's data folder (train.jsonl, heldout.jsonl; rows with the probe's qid); default: the "
        "effect study's margin design drawn from the probe",
    )
    parser.add_argument("--seed", type=int, default=0, help="without --data: the seed whose training draw is read")
    parser.add_argument("--json", action="store_true", help='{"train": {...}, "heldout": {...}}')
    args = parser.parse_args(argv)
    problem = range_problem(args)
    if problem:
        parser.error(problem)
    try:
        probe, k = read_probe(args.probe)
        sets = read_data(args.data) if args.data is not None else None
    except ValueError as exc:
        parser.error(str(exc))
    overrides = {} if args.threshold_t is None else {"threshold_t": args.threshold_t}
    try:
        sem = semantics(args.preset, **overrides)
    except ValueError as exc:
        parser.error(str(exc))
    if sets is None:
        from knowrl.effect.margin import study_rows

        sets = study_rows(probe, k, seed=args.seed)
    result = forecast(sets, probe, k, sem)
    problem = nothing_forecast(result, args.data, args.probe)
    if problem:
        parser.error(problem)
    print(json.dumps(result, indent=2) if args.json else render(result, args.preset))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
