"""bench/reward_throughput.py's naive baseline asks the judge what the engine asks: it must read its grades
(a grader reply it could not parse once made it skip factuality and look 4x faster than it is)."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_bench():
    spec = importlib.util.spec_from_file_location("throughput_bench", ROOT / "bench" / "reward_throughput.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def test_naive_gather_grades_then_checks_the_wrong_answers_facts(server, kb):
    from reward_engine.engine import Sample

    bench = load_bench()
    right = Sample(
        "What is the capital of France?",
        "<think>Paris lies on the Seine.</think><answer>Paris</answer>",
        "Paris",
        "Paris",
    )
    wrong = Sample(
        "What is the capital of France?",
        "<think>France's capital lies on the Seine. The Eiffel Tower was completed in 1889.</think>"
        "<answer>Lyon</answer>",
        "Paris",
        "Paris",
    )
    refusal = Sample("What is the capital of France?", bench.REFUSAL, "Paris", "Paris")
    timing = await bench.naive_gather(server.url, kb, [[right, wrong, refusal, wrong]])
    # 4 grades, then a decomposition and a verification for each of the 2 INCORRECT answers
    assert timing["requests"] == 4 + 2 + 2
    assert timing["completions"] == 4 and timing["steps"] == 1


def test_check_flags_a_row_slower_beyond_its_noise_and_not_one_within_it(tmp_path):
    """``--check`` compares speed-ups over the serial pattern (so a slower machine moves nothing) and flags a row
    only when the change exceeds its own p95/p50 spread or 15 %."""
    bench = load_bench()
    head = "| set-up | latency | steps | step p50 s | step p95 s | vs serial | completions/s | calls |\n|---|\n"

    def table(path, serial, cold, warm):
        path.write_text(
            "# Reward throughput\n\nGenerated at commit abc1234.\n\n"
            + head
            + f"| serial, KnowRL's call pattern | fixed | 1 | {serial} | {serial} | 1x | 1 | 2 |\n"
            + f"| engine fused, cold cache | fixed | 3 | {cold} | {cold * 1.05:.3f} | 91x | 150 | 1.03 |\n"
            + f"| engine fused, warm cache (same process) | fixed | 3 | {warm} | {warm * 1.1:.3f} | 875x | 1425 | 0 |\n"
        )
        return path

    committed = table(tmp_path / "old.md", 39.0, 0.427, 0.045)
    # a machine twice as slow: every time doubles, serial too; then the warm step alone doubles again
    fresh = table(tmp_path / "new.md", 78.0, 0.854, 0.180)
    report, slower = bench.check(committed, fresh)
    assert slower == ["engine fused, warm cache (same process) / fixed"]
    assert "| engine fused, cold cache | fixed | 0.427 s | 0.854 s | 91x -> 91x (+0%) | 15% | same" in report


def test_knowrls_own_code_is_reported_beside_the_engine_only_when_it_ran():
    """With --knowrl the ratio is against their code timed in this run; without it the anchor is labelled external."""
    theirs = {"commit": "f75b0bb", "steps": 2, "step_p50_s": 40.0, "requests": 256, "calls_per_completion": 2.0}
    rt = load_bench()
    beside = " ".join(rt.knowrl_lines({"knowrl_code": {**theirs, "facts": 0}}, {"step_p50_s": 0.4}))
    assert "**100x**" in beside and "f75b0bb" in beside and "External" not in beside
    alone = " ".join(rt.knowrl_lines({}, {"step_p50_s": 0.4}))
    assert alone.startswith("External, not measured by this bench") and "100x" not in alone


async def test_the_transport_floor_sends_one_round_a_step_and_times_all_but_the_first(server):
    bench = load_bench()
    timing = await bench.transport_floor(server.url, 3, 2)
    assert timing["steps"] == 2 and timing["requests"] == 6  # 3 rounds sent, the connection-opening one not timed
    assert timing["step_p50_s"] > 0 and server.stats.requests == 9
