"""Every relative link in the README and docs/ points at a file that exists (the Jobs pages moved to docs/)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_relative_links_resolve():
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    broken = []
    for page in pages:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if "://" in target:
                continue
            if not (page.parent / target).exists():
                broken.append(f"{page.relative_to(ROOT)} -> {target}")
    assert len(pages) > 10
    assert not broken, broken


def test_the_results_index_lists_every_results_file():
    """bench/results/README.md (``python bench/results_index.py``) names every file beside it."""
    results = ROOT / "bench" / "results"
    index = (results / "README.md").read_text(encoding="utf-8")
    missing = [
        p.name for p in results.iterdir() if p.is_file() and p.name != "README.md" and f"]({p.name})" not in index
    ]
    assert not missing, f"not in bench/results/README.md (run python bench/results_index.py): {missing}"


def test_a_results_file_states_the_commit_it_measured(tmp_path):
    """knowrl_io/provenance.py writes the commit at a results file's top; the index reads it back from there."""
    import importlib.util

    from knowrl_io import provenance

    spec = importlib.util.spec_from_file_location("results_index", ROOT / "bench" / "results_index.py")
    index = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(index)
    assert re.fullmatch(r"[0-9a-f]{7,40}(\+changes)?", provenance.commit())
    assert provenance.commit(tmp_path) == "unknown"  # not a git checkout
    page = tmp_path / "x.md"
    page.write_text("# X\n\nWritten by `python bench/x.py` at commit 9e43e75+changes (3 s).\n")
    assert index.made_at(page) == "9e43e75+changes"
    page.write_text("# X\n\nCommand: `python bench/x.py`.\n")
    assert index.made_at(page) == ""
    # conformance.md's form: the command in a code block after install lines, the engine's full commit further down
    page.write_text(
        "# Conformance\n\n```\npip install -e .[conformance]\npython -m bench.conformance --knowrl /k\n```\n\n"
        + "text\n" * 10
        + "- Engine: commit `6c0ca35acb1ba55362f34ef03428a861f0a39a8b`.\n"
    )
    assert index.made_at(page) == "6c0ca35"
    assert index.describe(page) == ("Conformance", "python -m bench.conformance --knowrl /k")
