"""One knowledge base, one lock, however its path is spelt (the landing review of pass 63): ``KB.lock`` was named
after the path as written, so a build through a link to the KB took another lock than a training run holding the
KB's own, and the two wrote at once. The wait below failed on 600c82b."""

from __future__ import annotations

import threading
from pathlib import Path

from retrieval.build import main as build_main
from tests.helpers import documents, jsonl, lock_held_elsewhere

ROWS = [{"title": "Paris", "text": "Paris is the capital and largest city of France."}]


def test_a_build_through_a_link_waits_for_the_lock_on_the_kb_itself(tmp_path: Path) -> None:
    kb, alias = tmp_path / "kb.db", tmp_path / "alias.db"
    docs = jsonl(tmp_path / "docs.jsonl", ROWS)
    assert build_main(["--input", str(docs), "--db", str(kb), "--no-dense", "--no-progress"]) == 0
    alias.symlink_to(kb)
    done: list[int] = []
    with lock_held_elsewhere(Path(str(kb) + ".lock")):
        argv = ["--input", str(docs), "--db", str(alias), "--no-dense", "--no-progress"]
        builder = threading.Thread(target=lambda: done.append(build_main(argv)))
        builder.start()
        builder.join(5)
        assert builder.is_alive() and not done, "the build through the link did not wait for the KB's lock"
    builder.join(120)
    assert done == [0] and documents(kb) == {"Paris": ROWS[0]["text"]}
