"""Look at what the reward did: ``python -m reward_engine.inspect ROWS.jsonl [--input IN] [--kb KB] -o report.html``.

ROWS is a training run's ``rewards.jsonl`` or a score job's output (``--input``: the file it scored, joined by
line, for the questions and completions). One self-contained HTML file comes out (no network, no CDN: it opens
from a downloads folder): a summary (labels, a reward histogram, the mean reward per training step) and every
row with its question, gold, answer, grade, reward terms and claims, each claim with its verdict and, with
``--kb``, the text of the evidence passages it was checked against. Filters by label, reward range and rows that
look gamed; search by text. Row text is data, never markup: it is embedded as JSON and written with
``textContent``, so a completion holding ``<script>`` runs nothing.

The output is owned as a score job's is (``knowrl_io.job_output.check_page``): never ROWS, ``--input``,
``--kb`` or the input ROWS were scored from (its ``.job.json`` record names it), nor a symbolic or hard link to
one of them; never a directory, FIFO or device (``/dev/null``); an existing file is replaced only when it is
empty or a page this command wrote (the ``generator`` mark in its head) of the same ROWS file (the ``knowrl-rows``
mark beside it names ROWS' real path: a rerun refreshes its report; the page of other rows is another report);
any other file only with ``--overwrite``. A refusal is one line naming the path, exit 2. The page is written to a
temporary file and renamed over the output: a link at the output is replaced, never written through, and a crash
leaves no half page.
"""

from __future__ import annotations

import html
import json
import os
import re
import sqlite3
import sys
from pathlib import Path
from typing import Any, Iterable

from knowrl_io.args import Parser, interrupted
from knowrl_io.job_output import OutputError, check_page, read_head, sidecar, through_own_link, write_atomically
from knowrl_io.jsonl import finite
from knowrl_io.once import Once
from knowrl_io.records import iter_records
from retrieval.source import KnowledgeSource
from reward_engine.completion import completion_text, parse
from reward_engine.samples import fact_score_of

MAX_EVIDENCE_CHARS = 1_500  # per passage in the report: enough to read the claim's context
JOB = "reward_engine.inspect"
MARK = b'<meta name="generator" content="knowrl reward_engine.inspect">'  # in the page's head: a page we wrote
ROWS_META = re.compile(rb'<meta name="knowrl-rows" content="([^"]*)">')  # which ROWS file the page shows
HEAD_BYTES = 1 << 16  # where ROWS_META is looked for: an escaped path of 4,096 bytes fits many times
PLACEHOLDER = re.compile(r"__(TITLE_JSON|PASSAGES_JSON|ROWS_JSON|ROWS_FILE)__")


def gamed(row: dict[str, Any]) -> list[str]:
    """Why a row looks like a reward hack (empty when it does not): many claims and no answer, an answer
    tiny beside long reasoning, the same claim more than once.

    >>> gamed({"claims": [{"text": "A b c."}] * 6, "answer": None, "reasoning": "x"})
    ['6 claims, no answer', 'repeated claims']
    """
    reasons = []
    claims = [c.get("text", "") for c in row.get("claims") or [] if isinstance(c, dict)]
    if len(claims) >= 5 and not row.get("answer"):
        reasons.append(f"{len(claims)} claims, no answer")
    answer, reasoning = row.get("answer") or "", row.get("reasoning") or ""
    if answer and len(reasoning) >= 1_000 and len(reasoning) > 100 * len(answer):
        reasons.append("answer tiny beside long reasoning")
    if len({c.strip().lower() for c in claims}) < len(claims):
        reasons.append("repeated claims")
    return reasons


def _objects(path: Path) -> list[dict[str, Any]]:
    """ROWS' objects, read as every input is (``knowrl_io.records``): a line of any length is one row, and a
    line that cannot be read (a torn last line, a 5,000-digit number, deep nesting) is skipped with a warning
    naming it, not the report; a file with no row to read at all (gzip'd, not JSONL) is a ``ValueError`` (hostile
    pass 64: "0 rows -> report.html", exit 0)."""
    rows, skipped = [], []
    for record in iter_records(path):
        (rows if isinstance(record.value, dict) else skipped).append(record)
    if skipped:
        first = skipped[0]
        why = first.error or f"a JSON {type(first.value).__name__}, not an object"
        if not rows:
            raise ValueError(f"{path}: no row reads as a JSON object (line {first.where}: {why}); is it JSONL?")
        print(
            f"warning: {path}: {len(skipped)} row(s) skipped, unreadable (first: line {first.where}: {why})",
            file=sys.stderr,
        )
    return [r.value for r in rows]


def _inputs_by_line(path: Path | None, digests: dict[int, str] | None = None) -> dict[int, dict[str, Any]]:
    """The input's rows by line; ``digests`` gets each line's record digest (to check the scores were made from
    these rows)."""
    if path is None:
        return {}
    found: dict[int, dict[str, Any]] = {}
    for r in iter_records(path):
        if isinstance(r.value, dict):
            found[r.line] = r.value
            if digests is not None:
                digests[r.line] = r.digest
    return found


def stale_rows(rows: Iterable[dict[str, Any]], digests: dict[int, str]) -> list[int]:
    """Lines whose input row is not the one these scores were made from (a score row records its input's digest):
    an edited input, or another file (hostile pass 7: the page showed "Lyon" beside CORRECT)."""
    return [
        r["line"]
        for r in rows
        if isinstance(r.get("line"), int) and r.get("input_digest") and digests.get(r["line"]) != r["input_digest"]
    ]


class PassageTexts:
    """Passages by id from a KB file, read-only, with no embedding model: all the report needs."""

    def __init__(self, path: Path) -> None:
        from retrieval.schema import connect

        self.conn = connect(path, readonly=True)

    def get_passages(self, ids: list[int]) -> dict[int, Any]:
        from retrieval.kb import Passage

        found: dict[int, Any] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for pid, title, text in self.conn.execute(
                f"SELECT id, title, text FROM passages WHERE id IN ({marks})", chunk
            ):
                found[pid] = Passage(pid, title, text)
        return found

    def close(self) -> None:
        self.conn.close()


def report_rows(rows: Iterable[dict[str, Any]], inputs: dict[int, dict[str, Any]]) -> list[dict]:
    """The rows as the page shows them: fields joined from the input, the answer parsed."""
    out = []
    for n, row in enumerate(rows, start=1):
        source = inputs.get(row.get("line")) if isinstance(row.get("line"), int) else None
        merged = {**(source or {}), **row}
        text = completion_text(merged.get("completion"))
        parsed = parse(text) if text else None
        shown = {
            "n": n,
            "id": merged.get("id"),
            "step": merged.get("step"),
            "question": merged.get("question"),
            "gold": merged.get("answers"),
            "completion": text,
            "answer": parsed.answer if parsed else None,
            "reasoning": parsed.think if parsed else "",
            "label": merged.get("label"),
            "status": merged.get("status"),
            "reward": merged.get("total", merged.get("reward")),
            "format": merged.get("format"),
            "correctness": merged.get("correctness"),
            "fact_score": fact_score_of(merged),  # inside correctness already (older rows: "factuality")
            "error": merged.get("error"),
            "claims": [c for c in merged.get("claims") or [] if isinstance(c, dict)],
        }
        shown["gamed"] = gamed(shown)
        del shown["reasoning"]  # read by gamed(); the completion holds it
        out.append(shown)
    return out


def evidence_texts(rows: list[dict[str, Any]], kb: "PassageTexts | KnowledgeSource") -> dict[int, dict[str, str]]:
    """Each evidence passage the rows' claims cite, once (id -> title and text): GRPO's generations of one
    prompt cite the same passages, and a copy per claim made a 20,000-row page hundreds of megabytes."""
    ids = sorted({i for r in rows for c in r["claims"] for i in c.get("evidence_ids") or [] if isinstance(i, int)})
    found = kb.get_passages(ids) if ids else {}
    return {i: {"title": p.title, "text": p.text[:MAX_EVIDENCE_CHARS]} for i, p in found.items()}


def _embed(data: Any) -> str:
    """JSON safe inside a <script> element: no '<' (so no '</script>'), no line separators."""
    text = json.dumps(finite(data), ensure_ascii=False, allow_nan=False)
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def rows_identity(rows_path: Path) -> str:
    """Which ROWS file a page shows, as its head records it: the file's real path (a link names the file it
    links to), the identity a rerun is compared by."""
    return os.path.realpath(rows_path)


def render(
    rows: list[dict[str, Any]], title: str, passages: dict[int, dict[str, str]] | None = None, rows_file: str = ""
) -> str:
    """The page; ``rows_file`` (``rows_identity``) goes in its head, so a rerun knows whether it is the same
    report. One pass over the template: a value holding a placeholder's name (a file called
    ``__ROWS_JSON__.jsonl``) is never substituted again."""
    page = (Path(__file__).parent / "inspect_page.html").read_text(encoding="utf-8")
    values = {
        "TITLE_JSON": _embed(title),
        "PASSAGES_JSON": _embed(passages or {}),
        "ROWS_JSON": _embed(rows),
        "ROWS_FILE": html.escape(json.dumps(rows_file), quote=True),  # ASCII: any path, any byte
    }
    return PLACEHOLDER.sub(lambda m: values[m.group(1)], page)


def write_page(rows_path: Path, output: Path, kb_path: Path | None = None, inputs: Path | None = None) -> int:
    """The report of ``rows_path`` as one HTML file (evidence text from ``kb_path`` when given); rows written."""
    digests: dict[int, str] = {}
    by_line = _inputs_by_line(inputs, digests)
    scored = _objects(rows_path)
    if inputs is not None:
        stale = stale_rows(scored, digests)
        if stale:
            print(
                f"warning: --input {inputs}: {len(stale)} row(s) are not the rows these scores were made from "
                f"(first: line {stale[0]}; edited since, or another file); the page shows them as they are now",
                file=sys.stderr,
            )
    rows = report_rows(scored, by_line)
    passages = None
    if kb_path is not None:
        _warn_if_other_knowledge(rows_path, kb_path)
        kb = PassageTexts(kb_path)
        try:
            passages = evidence_texts(rows, kb)
        finally:
            kb.close()
    page = render(rows, rows_path.name, passages, rows_identity(rows_path))
    write_atomically(output, page.encode("utf-8"), follow_link=through_own_link(output, MARK))
    return len(rows)


def _warn_if_other_knowledge(rows_path: Path, kb_path: Path) -> None:
    """Passages are looked up by id, and a rebuilt KB reuses ids: a KB whose content is not the one the rows were
    scored against (its ``.job.json`` record says which) would show other text as the evidence (hostile pass 8)."""
    try:
        meta = json.loads(sidecar(rows_path).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return
    scored = meta.get("knowledge") if isinstance(meta, dict) else None
    if not isinstance(scored, str):
        return
    from retrieval.kb import content_version

    try:
        now = content_version(kb_path)
    except Exception:  # noqa: BLE001 - not a KB: the page's own reading of it says so
        return
    if now != scored:
        print(
            f"warning: --kb {kb_path} is not the knowledge base these rows were scored against (content {now}, "
            f"scored against {scored}): rebuilt since, or another KB; the evidence text shown may not be what was "
            "checked",
            file=sys.stderr,
        )


def scored_input(rows_path: Path) -> Path | None:
    """The input a score job's output was made from, as its ``.job.json`` record names it (None: no record)."""
    try:
        meta = json.loads(sidecar(rows_path).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    found = meta.get("input") if isinstance(meta, dict) else None
    return Path(found) if isinstance(found, str) and found not in ("", "-") else None


def check_output(
    output: Path, rows_path: Path, kb_path: Path | None = None, inputs: Path | None = None, overwrite: bool = False
) -> None:
    """Refuse (``OutputError``, one line) an output that is an input, a special file, or someone else's file."""
    from retrieval.dense import index_paths

    # the KB's dense index and manifest too: "-o kb.faiss --overwrite" wrote the page over the index (hostile pass 49)
    index_files = list(index_paths(kb_path)) if kb_path is not None else []
    sources = [rows_path, inputs, kb_path, *index_files, scored_input(rows_path)]
    for source in (rows_path, inputs):  # a score job's record beside its output: its resume depends on it
        record = None if source is None else sidecar(source)
        if record is not None and output.exists() and record.exists() and os.path.samefile(record, output):
            raise OutputError(f"--output {output} is the job record of {source}; write the report to another file")
    check_page(output, sources, JOB, MARK, "the report", overwrite)
    if not overwrite:
        _check_same_rows(output, rows_path)


def _check_same_rows(output: Path, rows_path: Path) -> None:
    """A page this command wrote is replaced by a rerun on the same ROWS only: the page of other rows is another
    report (issue #74: an output from another input is refused unless asked to replace; ``inspect a.jsonl -o
    r.html`` then ``inspect b.jsonl -o r.html`` replaced a's page). A page that names no rows (written before
    pages named them) cannot be told apart either. ``check_page`` has checked the output is a regular file."""
    head = read_head(output, HEAD_BYTES, "--output", "which rows it shows")
    if MARK not in head:
        return  # empty: nothing to lose
    found = ROWS_META.search(head)
    try:
        shown = json.loads(html.unescape(found.group(1).decode("ascii"))) if found else None
    except (ValueError, UnicodeDecodeError):
        shown = None
    if shown == rows_identity(rows_path):
        return
    if isinstance(shown, str) and shown:
        what = f"the rows of {shown if shown.isprintable() else ascii(shown)}"  # one line, whatever the name
    else:
        what = "rows it does not name"
    raise OutputError(
        f"--output {output} is the page of {what}, not of {rows_path}; pass --overwrite to replace it, or choose "
        "another --output"
    )


def main(argv: list[str] | None = None) -> int:
    parser = Parser(prog="python -m reward_engine.inspect", description=__doc__.split("\n\n")[0])
    parser.add_argument("rows", type=Path, help="rewards.jsonl of a training run, or a score job's output")
    parser.add_argument(
        "--input", type=Path, action=Once, help="the file a score job scored (questions and completions)"
    )
    parser.add_argument("--kb", type=Path, action=Once, help="the knowledge base, to show each claim's evidence text")
    parser.add_argument("-o", "--output", type=Path, action=Once, required=True, help="the HTML file to write")
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="replace an existing --output that is not this command's page of these ROWS",
    )
    args = parser.parse_args(argv)
    for path in (args.rows, args.input, args.kb):
        if path is not None and not path.is_file():
            parser.error(f"file not found (or not a file): {path}")
    try:
        check_output(args.output, args.rows, args.kb, args.input, args.overwrite)
        count = write_page(args.rows, args.output, args.kb, args.input)
    except (OutputError, ValueError) as exc:  # an output it must not write; not a knowledge base
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C while the page was written: a traceback before (hostile pass 53)
        return interrupted(f"{args.output} is as it was (the page is replaced whole, or not at all)")
    except sqlite3.Error as exc:  # a documents-only KB (FActScore's format) has no passages to show evidence from
        print(
            f"error: --kb {args.kb}: no passages to read evidence from ({exc}); derive them with "
            f"python -m retrieval.build --from-db {args.kb} --no-dense",
            file=sys.stderr,
        )
        return 2
    print(f"{count} rows -> {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
