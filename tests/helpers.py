"""A small hand-written corpus for knowledge-base tests (our own text, no licensed data)."""

from __future__ import annotations

import json
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

CORPUS = [
    ("Paris", "Paris is the capital and largest city of France. The city lies on the river Seine. "
              "The Eiffel Tower was completed in 1889 for the World's Fair."),
    ("Mount Everest", "Mount Everest is the highest mountain above sea level. It stands in the Himalayas "
                      "on the border between Nepal and China. Its summit is 8,849 metres high."),
    ("Python (programming language)", "Python is a general-purpose programming language. Guido van Rossum "
                                      "first released it in 1991. Its design emphasises readable code."),
    ("Amazon River", "The Amazon River flows through South America. It carries more water than any other "
                     "river on Earth. Its basin covers much of Brazil."),
    ("Marie Curie", "Marie Curie was a physicist and chemist who studied radioactivity. She won the Nobel Prize "
                    "in Physics in 1903 and the Nobel Prize in Chemistry in 1911."),
    ("Great Barrier Reef", "The Great Barrier Reef is the largest coral reef system in the world. It lies off the "
                           "coast of Queensland, Australia."),
    ("Photosynthesis", "Photosynthesis is the process by which green plants turn light energy into chemical "
                       "energy. It releases oxygen and stores energy in sugars."),
    ("Tokyo", "Tokyo is the capital of Japan. The Greater Tokyo Area is the most populous metropolitan area "
              "in the world."),
    ("Jupiter", "Jupiter is the fifth planet from the Sun and the largest in the Solar System. It is a gas "
                "giant with a Great Red Spot, a storm larger than Earth."),
    ("Mozart", "Wolfgang Amadeus Mozart was a composer of the Classical period born in Salzburg in 1756. He "
               "wrote more than 600 works, including The Magic Flute."),
]


def write_jsonl(path: Path, rows: list[dict] | None = None) -> Path:
    rows = rows if rows is not None else [{"title": t, "text": x} for t, x in CORPUS]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


async def server_stats(server) -> dict:
    """The test judge server's /stats, over real HTTP."""
    import aiohttp

    async with aiohttp.ClientSession() as session:
        async with session.get(server.url.replace("/v1", "/stats")) as resp:
            return await resp.json()


def hanging_check(predicted: str, gold: str, timeout_s: int) -> bool:
    """A verifier that never returns for the answer 'hang' (for the pool's timeout tests)."""
    import time

    if predicted == "hang":
        time.sleep(3600)
    return predicted.strip() == gold.strip()


def hanging_scorer(task: str, answer, entry_json: str) -> float:
    """A reasoning-gym scorer that never returns for the answer 'hang'."""
    import time

    if answer == "hang":
        time.sleep(3600)
    from knowrl.tasks.rg_reward import score_entry

    return score_entry(task, answer, entry_json)


@contextmanager
def busy_cores(n: int) -> Iterator[None]:
    """``n`` processes spinning on the CPU for the duration (a training step's load), killed on exit."""
    procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]
    try:
        yield
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()
