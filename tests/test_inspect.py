"""``python -m reward_engine.inspect``: one self-contained HTML file; row text is data, never markup."""

from __future__ import annotations

import json
import re
import subprocess
import sys

from reward_engine.inspect import gamed, render, report_rows
from tests.helpers import write_jsonl

HOSTILE = (
    '<think>x</think><answer></script><script>document.title="pwned"</script><img src=x onerror=alert(1)></answer>'
)


def _rows_from(html: str, part: str = "rows") -> list[dict]:
    embedded = re.search(rf'<script id="data-{part}" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(embedded.group(1))


def test_a_hostile_completion_stays_data(tmp_path):
    rows = report_rows([{"step": 0, "question": "Q?", "answers": "A", "completion": HOSTILE, "total": 0.0}], {})
    html = render(rows, "rewards.jsonl")
    assert html.count("</script>") == 4  # the page's own four script elements, nothing from the row
    assert "onerror=alert" not in html.split('id="data-rows"')[0]
    assert _rows_from(html)[0]["completion"] == HOSTILE  # the text survives, escaped, byte for byte
    assert not re.search(r"(?:src|href)\s*=\s*[\"']?(?:https?:)?//", html), "no external reference"


def test_gamed_rows_are_flagged_and_the_cli_joins_a_score_output_with_its_input(tmp_path, kb_path):
    src, out, html = tmp_path / "in.jsonl", tmp_path / "out.jsonl", tmp_path / "r.html"
    src.write_text(json.dumps({"question": "Capital of France?", "answers": "Paris", "completion": "<think>"}) + "\n")
    claim = {"text": "Paris is the capital of France.", "supported": True, "evidence_ids": [1], "on_topic": True}
    out.write_text(json.dumps({"line": 1, "reward": -2.0, "label": None, "claims": [claim] * 6}) + "\n")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "reward_engine.inspect",
            str(out),
            "--input",
            str(src),
            "--kb",
            str(kb_path),
            "-o",
            str(html),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    (row,) = _rows_from(html.read_text())
    assert row["question"] == "Capital of France?" and row["gamed"] == ["6 claims, no answer", "repeated claims"]
    assert row["claims"][0]["evidence_ids"] == [1]
    passages = _rows_from(html.read_text(), "passages")  # each cited passage once, however many claims cite it
    assert list(passages) == ["1"] and passages["1"]["text"]
    assert html.read_text().count(passages["1"]["text"][:80]) == 1
    assert gamed({"claims": [], "answer": "Paris", "reasoning": "word " * 300}) == ["answer tiny beside long reasoning"]


# -- in a real browser: Debian's chromium, driven headless by Playwright ---------------------------------------
def _browser():
    import os
    import shutil

    import pytest

    required = os.environ.get("KNOWRL_REQUIRE_BROWSER") == "1"  # .ci/run sets it: the test must run there
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        expect = sync_playwright = None
    if (chromium is None or sync_playwright is None) and not required:
        pytest.skip("no chromium or playwright: apt-get install chromium; pip install -e '.[dev]'")
    return chromium, sync_playwright, expect


def test_the_report_in_a_real_browser_filters_searches_shows_evidence_and_runs_no_row_script(tmp_path, kb_path):
    chromium, sync_playwright, expect = _browser()
    claim = {"text": "Paris is the capital of France.", "supported": True, "evidence_ids": [1], "on_topic": True}
    rows = [
        {
            "step": 0,
            "question": "Capital of France?",
            "answers": "Paris",
            "total": 3.0,
            "label": "CORRECT",
            "completion": "<think>Paris is the capital of France.</think><answer>Paris</answer>",
            "claims": [claim],
        },
        {
            "step": 0,
            "question": "Capital of Japan?",
            "answers": "Tokyo",
            "total": 0.0,
            "label": "INCORRECT",
            "completion": HOSTILE,
            "claims": [],
        },
        {
            "step": 1,
            "question": "Capital of Peru?",
            "answers": "Lima",
            "total": -1.9,
            "label": None,
            "completion": "<think>Peru.",
            "claims": [{**claim, "text": f"Claim number {i} here."} for i in range(6)],
        },
    ]
    src, html = tmp_path / "rewards.jsonl", tmp_path / "report.html"
    write_jsonl(src, rows)
    done = subprocess.run(
        [sys.executable, "-m", "reward_engine.inspect", str(src), "--kb", str(kb_path), "-o", str(html)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page()
        dialogs = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.goto(html.as_uri())
        count = page.locator("#count")
        expect(count).to_have_text(re.compile("^3 matching"))
        page.select_option("#f-label", "INCORRECT")
        expect(count).to_have_text(re.compile("^1 matching"))
        page.select_option("#f-label", "")
        page.fill("#f-text", "peru")
        expect(count).to_have_text(re.compile("^1 matching"))
        page.fill("#f-text", "")
        page.check("#f-gamed")
        expect(count).to_have_text(re.compile("^1 matching"))
        assert "6 claims, no answer" in page.inner_text("#rows")
        page.uncheck("#f-gamed")
        page.fill("#f-min", "2")
        expect(count).to_have_text(re.compile("^1 matching"))
        rows_box = page.locator("#rows")
        # a row fills on the details "toggle" event, which fires after the click returns: wait for it
        page.locator("details.row summary").first.click()  # the CORRECT row: its claim and evidence passage
        expect(rows_box).to_contain_text("[supported] Paris is the capital of France.")
        expect(rows_box).to_contain_text("evidence 1 (")
        page.fill("#f-min", "")
        page.locator("details.row summary").nth(1).click()  # the hostile row, opened: still only text
        expect(rows_box).to_contain_text('document.title="pwned"')
        assert page.title() == "knowrl reward inspector" and not dialogs
        assert page.locator("#rows img").count() == 0
        browser.close()
