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
