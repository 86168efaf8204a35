"""The index of bench/results: what each file measures, the command and commit that made it, and whether the code
it measures has changed since.

    python bench/results_index.py           # -> bench/results/README.md (only a README it wrote is replaced)
    python bench/results_index.py --check   # exit 1 unless every results file states a clean commit

Read from each file's own title, command line and "at commit X" (``knowrl_io/provenance.py`` writes it at the top),
from ``CODE`` below (the repository paths whose code each results file measures) and from git: a file is *stale*
when ``git log <its commit>..HEAD -- <its code>`` lists a commit. A file that states no commit, or a commit with
"+changes" (the working tree differed from it), names no code one can check out: ``--check`` prints it, one line
each, and exits 1. Stale files pass ``--check``; the index lists them as stale. A data file (.json, .png, .html)
belongs to the run of its ``DATA_OF`` .md as that .md stood in the commit that last changed the data file, so it
takes that run's commit.
"""

from __future__ import annotations

import argparse
import fnmatch
import re
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from knowrl_io.job_output import check_results  # noqa: E402

RESULTS = ROOT / "bench" / "results"
_COMMAND = re.compile(r"`((?:python|CUDA_VISIBLE_DEVICES=\S+ python)[^`]*)`")
_MADE_AT = re.compile(r"\bat commit ([0-9a-f]{7,40}(?:\+changes)?)|\bEngine: commit `([0-9a-f]{7})[0-9a-f]*`")

# The code a results file measures: the bench script, the packages and configs its numbers depend on (read from
# each script's imports and from what the command runs). A repository file named in the file's command (a config,
# a judge set) is added to these by ``code_paths``. Groups first, then one entry per results file (fnmatch names).
_OFFLINE_REWARD = (  # the reward engine as a training run calls it in-process (offline grader, decomposer, verifier)
    "reward_engine/engine.py",
    "reward_engine/config.py",
    "reward_engine/semantics.py",
    "reward_engine/completion.py",
    "reward_engine/labels.py",
    "reward_engine/plan.py",
    "reward_engine/samples.py",
    "reward_engine/stage_calls.py",
    "reward_engine/knowledge.py",
    "reward_engine/trl_rewards.py",
    "reward_engine/trl_step.py",
    "reward_engine/offline/",
    "reward_engine/rules/",
    "reward_engine/stages/",
)
_TRAINING = ("knowrl/", *_OFFLINE_REWARD, "retrieval/")  # knowrl.train / GRPO / SFT / evaluation, demo KB (BM25)
_JUDGE_GRADE = (  # one grade through a real judge: client, prompts, the two-call grader, guard, offline rules, aliases
    "bench/judge_set.py",
    "reward_engine/config.py",
    "reward_engine/labels.py",
    "reward_engine/knowledge.py",
    "reward_engine/judge/",
    "reward_engine/prompts/",
    "reward_engine/offline/",
    "reward_engine/stages/grade.py",
    "reward_engine/stages/grade_guard.py",
    "reward_engine/stages/lead_names.py",
    "reward_engine/stages/llm_stage.py",
    "retrieval/kb.py",
    "judges/local.py",
    "configs/reward_local_judge.yaml",
)
_DECODE = (
    "knowrl/decode.py",
    "knowrl/vllm_decode.py",
    "knowrl/vllm_cpu.py",
    "knowrl/evaluate.py",
    "knowrl/data.py",
    "knowrl/models.py",
)
CODE: dict[str, tuple[str, ...]] = {
    "ceiling.md": (
        "bench/ceiling.py",
        "knowrl/effect/",
        *_DECODE,
        "reward_engine/offline/",  # the probe's answers are graded by the strict and the offline grader
    ),
    "ci.md": (  # .ci/run on a fresh clone: the whole test suite
        ".ci/run",
        "bench/ci_summary.py",
        "setup.py",
        "pytest.ini",
        "tests/",
        "knowrl/",
        "knowrl_io/",
        "reward_engine/",
        "retrieval/",
        "judges/",
    ),
    "conformance.md": (
        "bench/conformance.py",
        "bench/conformance_data.py",
        "bench/conformance_judge.py",
        "reward_engine/",
        "judges/scripted.py",
        "judges/tiny_nli.py",
        "judges/local.py",
        "configs/knowrl_grpo.yaml",
    ),
    "demo.md": (*_TRAINING, "reward_engine/inspect.py", "reward_engine/inspect_page.html"),
    "effect.md": ("bench/effect.py", *_TRAINING, "configs/selective.yaml"),  # the margin design (default config)
    "effect-levers.md": ("bench/effect.py", *_TRAINING, "configs/selective.yaml"),  # levers on the trap, one seed
    "effect-levers-t12.md": ("bench/effect.py", *_TRAINING, "configs/selective.yaml"),  # temperature lever, one seed
    "effect-levers-t035.md": ("bench/effect.py", *_TRAINING, "configs/selective.yaml"),  # smaller abstain reward
    "effect-gpu.md": ("bench/effect.py", *_TRAINING, "configs/demo.yaml"),  # the gradient design, then the default
    "effect-gpu-selective.md": ("bench/effect.py", *_TRAINING, "configs/selective.yaml"),  # truthrl on a lent H200
    "effect-min-correct-1.md": ("bench/effect.py", *_TRAINING, "configs/demo.yaml"),
    "eval_decode.md": (
        "bench/eval_decode.py",
        *_DECODE,
        "knowrl/effect/boundary.py",
        "knowrl/effect/question_families.py",
    ),
    "gpu_faiss.md": ("bench/gpu_faiss.py", "retrieval/dense.py", "retrieval/embedder.py", "retrieval/kb.py"),
    "gpu.md": (
        "bench/gpu.py",
        "bench/gpu_attention_nan.py",
        "bench/gpu_sft_nan.py",
        *_TRAINING,
        "configs/smoke.yaml",
        "configs/demo.yaml",
    ),
    "gpu-h100-shape.md": ("bench/gpu.py", *_TRAINING, "configs/smoke.yaml"),
    "inspector.md": ("bench/inspector_scale.py", "reward_engine/inspect.py", "reward_engine/inspect_page.html"),
    "judge_heldout*.md": _JUDGE_GRADE,
    "real_judge.md": (
        "bench/real_judge.py",
        *_JUDGE_GRADE,
        "reward_engine/",  # section 2 grades through the score job; section 3 is the red team through the engine
        "knowrl/evaluate.py",
        "knowrl/effect/demo_data.py",
        "retrieval/",
        "bench/data/judge_set.jsonl",
        "tests/redteam/v1.yaml",
    ),
    "redteam_judge.md": (
        "bench/real_judge.py",
        "reward_engine/",
        "retrieval/",
        "judges/local.py",
        "configs/reward_local_judge.yaml",
        "tests/redteam/v1.yaml",
    ),
    "reliability.md": (
        "bench/reliability.py",
        "bench/hostile.py",
        "bench/hostile_files.py",
        "reward_engine/",
        "retrieval/",
        "knowrl/",
        "judges/test_server.py",
        "configs/smoke.yaml",
    ),
    "retrieval.md": ("bench/retrieval_quality.py", "retrieval/", "knowrl_io/paths.py"),
    "reward_throughput.md": (
        "bench/reward_throughput.py",
        "bench/conformance.py",  # the row of KnowRL's own reward code
        "reward_engine/",
        "retrieval/",
        "judges/test_server.py",
        "judges/ports.py",
    ),
    "scale.md": ("bench/scale.py", "reward_engine/", "judges/redis_local.py", "judges/test_server.py"),
    "sft-levers.md": (
        "bench/sft_levers.py",
        "bench/effect.py",  # loaded by sft_levers for the cold start and the held-out evaluation
        "knowrl/",
        "reward_engine/offline/",
        "configs/demo.yaml",
    ),
    "train_step*.md": ("bench/train_step.py", *_TRAINING, "configs/demo.yaml", "configs/selective.yaml"),
}
GROUPS = {  # shown by name in the index (the paths under "Code groups")
    "*training*": _TRAINING,
    "*judge grade*": _JUDGE_GRADE,
    "*offline reward*": _OFFLINE_REWARD,
    "*decoding*": _DECODE,
}
DATA_OF = {  # a data file -> the .md of its run
    "demo-rewards.html": "demo.md",
    "demo_reward_curve.png": "demo.md",
    "effect.json": "effect.md",
    "effect-levers.json": "effect-levers.md",
    "effect-gpu-selective.json": "effect-gpu-selective.md",
    "effect-levers-t12.json": "effect-levers-t12.md",
    "effect-levers-t035.json": "effect-levers-t035.md",
    "reliability.json": "reliability.md",
    "retrieval.png": "retrieval.md",
    "reward_throughput.png": "reward_throughput.md",
}
# Files kept as history (no clean commit recorded, no current claim) live in docs/history/results/, outside the index.
HISTORICAL: dict[str, str] = {}


def made_at_text(text: str) -> str:
    """The commit a results file's text says it measured (in its first 25 lines), or ''."""
    found = _MADE_AT.search("\n".join(text.splitlines()[:25]))
    return (found.group(1) or found.group(2)) if found else ""


def made_at(path: Path) -> str:
    """The commit a results file says it measured (``knowrl_io/provenance.py`` writes it at the top), or ''."""
    if path.suffix != ".md":
        return ""
    return made_at_text(path.read_text(encoding="utf-8"))


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], capture_output=True, text=True, cwd=root, check=False)


def last_change(path: Path, root: Path = ROOT) -> tuple[str, str]:
    """(short commit, date) of the last commit that changed ``path``; ("uncommitted", "") when none has."""
    out = _git(root, "log", "-1", "--format=%h %cs", "--", str(path.relative_to(root))).stdout.split()
    return (out[0], out[1]) if len(out) == 2 else ("uncommitted", "")


def describe(path: Path) -> tuple[str, str]:
    """(title, command) of a results file: its first heading and the first ``python ...`` in its first lines."""
    if path.suffix != ".md":
        return ("a figure" if path.suffix == ".png" else "data") + " (see the .md of the same run)", ""
    head = path.read_text(encoding="utf-8").splitlines()[:12]
    title = next((line.lstrip("# ").strip() for line in head if line.startswith("#")), path.stem)
    command = next((m.group(1) for line in head for m in [_COMMAND.search(line)] if m), "")
    if not command:  # a command in a code block (conformance.md: install and checkout lines before it)
        command = next((line.strip() for line in head if line.startswith("python ")), "")
    return re.sub(r":\s*`[^`]*`", "", title), command


def declared(name: str, code: Mapping[str, tuple[str, ...]]) -> tuple[str, ...] | None:
    """The paths ``code`` declares for a results .md (exact name first, then fnmatch patterns); None if none."""
    if name in code:
        return code[name]
    return next((paths for pattern, paths in code.items() if fnmatch.fnmatchcase(name, pattern)), None)


def code_paths(name: str, command: str, code: Mapping[str, tuple[str, ...]], root: Path = ROOT) -> list[str]:
    """The declared paths of a results .md plus each repository file its command names (configs, judge sets,
    the script), results files left out; [] when nothing is declared."""
    paths = declared(name, code)
    if paths is None:
        return []
    named = []
    for token in command.split():
        token = token.split("=", 1)[-1] if token.startswith("--") and "=" in token else token
        if token.startswith(("-", "/")) or token.startswith("bench/results/"):
            continue
        if (root / token).is_file():
            named.append(token)
    return list(dict.fromkeys([*paths, *named]))


class Entry:
    """One results file as the index and --check see it (a plain class: the tests load this script by path,
    outside ``sys.modules``, where a dataclass cannot resolve its annotations)."""

    def __init__(
        self,
        name: str,
        title: str,
        command: str,
        measured: str,
        source: str,
        code: list[str],
        last: tuple[str, str],
        historical: str = "",
    ) -> None:
        self.name, self.title, self.command = name, title, command
        self.measured = measured  # the commit it states ('' when none), '+changes' kept
        self.source = source  # where ``measured`` was read: 'itself' or 'effect.md at 62e350d'
        self.code = code
        self.last = last
        self.historical = historical
        self.since: list[str] | None = None  # commits that changed ``code`` after ``measured``, oldest first
        self.problem = ""  # why --check fails it ('' when it passes)
        self.unclean = False  # the problem is the commit: none stated, or '+changes'


def commits_since(commit: str, paths: list[str], root: Path = ROOT) -> list[str] | None:
    """``git log commit..HEAD -- paths`` oldest first as "hash subject"; None when ``commit`` is not an ancestor
    of HEAD (unknown here, or on another branch)."""
    if _git(root, "merge-base", "--is-ancestor", commit, "HEAD").returncode != 0:
        return None
    out = _git(root, "log", "--reverse", "--format=%h %s", f"{commit}..HEAD", "--", *paths)
    return [line for line in out.stdout.splitlines() if line.strip()]


def _data_run(path: Path, root: Path) -> tuple[str, str, str, str]:
    """(measured, source, command, md name) of a data file: its run's .md as committed with the data file (the
    working tree's .md when the data file is new or changed since its last commit)."""
    md = DATA_OF.get(path.name, "")
    if not md:
        return "", "", "", ""
    rel = str(path.relative_to(root))
    commit, _ = last_change(path, root)
    dirty = _git(root, "status", "--porcelain", "--", rel).stdout.strip()
    md_rel = str((path.parent / md).relative_to(root))
    if commit == "uncommitted" or dirty:
        text = (path.parent / md).read_text(encoding="utf-8") if (path.parent / md).exists() else ""
        source = f"{md} (working tree)"
    else:
        text = _git(root, "show", f"{commit}:{md_rel}").stdout
        source = f"{md} at {commit}"
    command = next((m.group(1) for m in [_COMMAND.search("\n".join(text.splitlines()[:12]))] if m), "")
    return made_at_text(text), source, command, md


def entries(
    root: Path = ROOT, code: Mapping[str, tuple[str, ...]] = CODE, historical: Mapping[str, str] = HISTORICAL
) -> list[Entry]:
    """Every file in ``root``/bench/results but its README, with its commit, its code and what git says of both."""
    results = root / "bench" / "results"
    out = []
    for path in sorted(p for p in results.iterdir() if p.is_file() and p.name != "README.md"):
        title, command = describe(path)
        if path.suffix == ".md":
            measured, source, run_command, md = made_at(path), "itself", command, path.name
        else:
            measured, source, run_command, md = _data_run(path, root)
        entry = Entry(
            name=path.name,
            title=title,
            command=command,
            measured=measured,
            source=source,
            code=code_paths(md, run_command, code, root) if md else [],
            last=last_change(path, root),
            historical=historical.get(path.name, ""),
        )
        if path.suffix != ".md" and not md:
            entry.problem = "a data file with no .md of its run (add it to DATA_OF)"
        elif not measured:
            entry.unclean = True
            entry.problem = "states no commit" + (f" ({source})" if source != "itself" else "")
        elif measured.endswith("+changes"):
            entry.unclean = True
            entry.problem = f"measured at {measured}: the working tree differed from that commit" + (
                f" ({source})" if source != "itself" else ""
            )
        elif not entry.code:
            entry.problem = f"no code declared for {md} (add it to CODE in bench/results_index.py)"
        else:
            entry.since = commits_since(measured, entry.code, root)
            if entry.since is None:
                entry.problem = f"commit {measured} is not in this checkout's history (not an ancestor of HEAD)"
        out.append(entry)
    return out


def _status(entry: Entry) -> str:
    if entry.problem:
        return "**no clean commit**" if entry.unclean else f"**?** {entry.problem}"
    if entry.since:
        first = entry.since[0].split()[0]
        return f"**stale**: {len(entry.since)} commit{'s' if len(entry.since) > 1 else ''} since (first {first})"
    return "current"


def shown_code(paths: list[str]) -> str:
    """``paths`` for the index: each whole group of ``GROUPS`` by its name, the rest as code spans."""
    items: list[str] = list(paths)
    for name, group in sorted(GROUPS.items(), key=lambda kv: -len(kv[1])):
        if group and all(p in items for p in group):
            at = items.index(group[0])
            items = [p for p in items if p not in group]
            items.insert(at, name)
    return ", ".join(p if p in GROUPS else f"`{p}`" for p in items) if items else "(not declared)"


def index(
    root: Path = ROOT, code: Mapping[str, tuple[str, ...]] = CODE, historical: Mapping[str, str] = HISTORICAL
) -> str:
    """bench/results/README.md's text."""
    found = entries(root, code, historical)
    lines = [
        "# bench/results",
        "",
        "Written by `bench/results_index.py`: a rerun replaces this page, and it refuses a README it did not write.",
        "",
        "Every results file, what it measures, the command at its top, the commit it says it measured ('+changes':"
        " the tree differed from that commit), the code it measures (`CODE` in `bench/results_index.py`, plus the"
        " repository files its command names) and, from git, whether that code changed after that commit"
        " (*stale*: `git log <commit>..HEAD -- <code>` lists a commit; any change counts, a docstring's too, so a"
        " stale file's figures may or may not have moved) and the last commit that changed the file."
        " Made by `python bench/results_index.py`; `python bench/results_index.py --check` fails on every file"
        " without a clean commit. A data file (.json, .png, .html) takes the commit of its run's .md as committed"
        " with it. Each number in these files is what that command gave on this project's 2-core CPU machine"
        " unless the file says otherwise (gpu.md, gpu_faiss.md, effect-gpu.md, effect-gpu-selective.md: a lent GPU).",
        "",
        "| file | what it measures | command | measured at | code it measures | since then | last changed |",
        "|---|---|---|---|---|---|---|",
    ]
    for e in found:
        shown = f"`{e.command}`" if e.command else ""
        measured = e.measured or "(not stated)"
        if e.source != "itself":
            measured += f" (from {e.source})"
        code = shown_code(e.code)
        status = _status(e) + (" *(historical, proposed)*" if e.historical else "")
        lines.append(
            f"| [{e.name}]({e.name}) | {e.title} | {shown} | {measured} | {code} | {status} | {e.last[1]} {e.last[0]} |"
        )
    stale = [e for e in found if e.since]
    failing = [e for e in found if e.problem]
    historical = [e for e in found if e.historical]
    lines += ["", f"## Stale: {len(stale)} of {len(found)} files", ""]
    lines += [
        f"- {e.name} (at {e.measured}): {len(e.since)} later commit{'s change' if len(e.since) > 1 else ' changes'}"
        f" its code; the first: {e.since[0]}"
        for e in stale
    ] or ["None."]
    lines += ["", f"## No clean commit (`--check` fails): {len(failing)} files", ""]
    lines += [f"- {e.name}: {e.problem}" for e in failing] or ["None."]
    lines += [
        "",
        f"## Historical (proposed): {len(historical)} files",
        "",
        "Kept for the history they record; no current claim in README.md or docs/ rests on them (each line says"
        " where they are named). Proposed, not acted on: each still fails `--check` until it is regenerated or"
        " removed.",
        "",
    ]
    lines += [f"- {e.name}: {e.historical}" for e in historical] or ["None."]
    lines += ["", "## Code groups", ""]
    lines += [f"- {name}: " + ", ".join(f"`{p}`" for p in group) for name, group in GROUPS.items()]
    return "\n".join(lines) + "\n"


def check(
    root: Path = ROOT, code: Mapping[str, tuple[str, ...]] = CODE, historical: Mapping[str, str] = HISTORICAL
) -> int:
    """Print each results file without a clean commit, one line each; 1 if any, else 0 (stale files pass)."""
    found = entries(root, code, historical)
    failing = [e for e in found if e.problem]
    for e in failing:
        print(f"bench/results/{e.name}: {e.problem}" + (" [historical, proposed]" if e.historical else ""))
    stale = sum(1 for e in found if e.since)
    print(
        f"{len(failing)} of {len(found)} results files without a clean commit; {stale} stale (allowed)",
        file=sys.stderr,
    )
    return 1 if failing else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 unless every results file states a clean commit")
    parser.add_argument("--root", type=Path, default=ROOT, help="the repository (default: this one)")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    if not (root / "bench" / "results").is_dir():  # a traceback before (hostile pass 58)
        print(f"error: --root {args.root} has no bench/results folder; give a repository that has one", file=sys.stderr)
        return 2
    if args.check:  # read-only: no page is checked or written
        return check(root)
    page = root / "bench" / "results" / "README.md"
    check_results(args, __file__, [("--root", page)])  # never the user's own README (hostile pass 58)
    page.write_text(index(root), encoding="utf-8")
    print(page.read_text(encoding="utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
