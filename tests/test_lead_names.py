"""The gold's other names read from the first sentence of its page (stages.lead_names), and the grader that
takes them over a small judge's INCORRECT (``grader_aliases: kb``): a real SQLite KB, the real test judge."""

from __future__ import annotations

import sqlite3

import pytest

from judges.test_server import JudgeServer, ServerConfig
from reward_engine.config import parse_reward_config
from reward_engine.engine import RewardEngine, Sample
from reward_engine.stages.lead_names import LeadNames, lead_names

# first sentences written for these tests (the shape of an encyclopaedia's, not any one's text)
LEADS = {
    "Beijing": "Beijing, previously romanized as Peking, is the capital city of China. It has 21 million people.",
    "Mark Twain": "Samuel Langhorne Clemens (30 November 1835 - 21 April 1910), known by the pen name Mark Twain, "
    "was an American writer and humorist.",
    "Tungsten": "Tungsten, or wolfram, is a chemical element with the symbol W.",
    "Denali": "Denali (/dəˈnɑːli/), federally designated as Mount McKinley, is the highest peak in North America.",
    "Myanmar": "Myanmar, officially the Republic of the Union of Myanmar and also referred to as Burma, is a "
    "country in Southeast Asia.",
    "Canberra": "Canberra, the capital city of Australia, is a planned city near Sydney and Melbourne.",
    "Mumbai": "Mumbai (Marathi: Mumbaī; also known as Bombay, its official name until 1995) is a city in India.",
    "Hergé": "Georges Prosper Remi, known by the pen name Hergé, from the French pronunciation of his initials RG, "
    "was a Belgian cartoonist.",
    "Notes": "A list of things. Nothing here is a first sentence with a verb for a long while " + "x " * 300,
}


@pytest.mark.parametrize(
    ("title", "names"),
    [
        ("Beijing", ("Beijing", "Peking")),
        ("Mark Twain", ("Samuel Langhorne Clemens", "Mark Twain")),  # the dates are no name
        ("Tungsten", ("Tungsten", "wolfram")),  # a cue ("or") lets a lower-case name in
        ("Denali", ("Denali", "Mount McKinley")),  # the pronunciation is no name
        ("Myanmar", ("Myanmar", "the Republic of the Union of Myanmar", "Burma")),
        ("Canberra", ("Canberra",)),  # a description is no name, and what follows the verb never counts
        ("Mumbai", ("Mumbai", "Mumbaī", "Bombay")),  # a language label is a cue; "its official name ..." is not
        ("Hergé", ("Georges Prosper Remi", "Hergé")),
        ("Notes", ()),  # no verb within reach: no subject, no names
    ],
)
def test_the_first_sentence_names_the_subject_before_its_verb(title: str, names: tuple[str, ...]) -> None:
    assert lead_names(LEADS[title]) == names


def _kb(tmp_path) -> str:
    """A FActScore-layout KB: documents(title, text), passages joined by the separator."""
    path = tmp_path / "kb.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE documents (title TEXT PRIMARY KEY, text TEXT)")
        conn.executemany(
            "INSERT INTO documents VALUES (?, ?)",
            [(t, lead + "####SPECIAL####SEPARATOR####A later passage naming Shanghai.") for t, lead in LEADS.items()],
        )
    return str(path)


def test_an_alias_is_a_name_the_golds_own_page_gives(tmp_path) -> None:
    from retrieval.kb import KnowledgeBase

    kb = KnowledgeBase(_kb(tmp_path), embedder=object())
    names = LeadNames(lambda: kb)
    question = "What is the capital of China?"
    assert names.is_alias("Peking", "Beijing", question) and names.is_alias("peking.", "Beijing", question)
    assert not names.is_alias("Shanghai", "Beijing", question)  # on the page, but not in its first sentence
    assert not names.is_alias("China", "Beijing", question)  # after the verb
    assert not names.is_alias("Australia", "Canberra", "What is the capital of Australia?")
    assert not names.is_alias("Peking", "Nanjing", question)  # no page: no names
    assert names.is_alias("Mount McKinley", "Denali", "What is the highest peak in North America?")
    assert names.names.cache_info().misses == 4  # one page read per gold


def test_a_missing_kb_leaves_the_judges_grade(tmp_path) -> None:
    from retrieval.kb import KnowledgeBase

    names = LeadNames(lambda: KnowledgeBase(tmp_path / "missing.db", embedder=object()))
    assert not names.is_alias("Peking", "Beijing", "What is the capital of China?")


def _config(url: str, kb: str, aliases: str, grader_calls: str) -> object:
    return parse_reward_config(
        {
            "grader": "llm",
            "grader_calls": grader_calls,
            "grader_aliases": aliases,
            "judge": {"endpoints": [{"base_url": url, "model": "test"}], "backoff_initial_s": 0.01, "timeout_s": 5},
            "factuality": {"enabled": False, "kb_path": kb},
        }
    )


@pytest.mark.parametrize("grader_calls", ["one", "two"])
@pytest.mark.parametrize("aliases", ["off", "kb"])
async def test_the_grader_takes_the_golds_page_over_the_judge(tmp_path, aliases: str, grader_calls: str) -> None:
    """The test judge compares like a small one that does not know Peking is Beijing: INCORRECT. With
    ``grader_aliases: kb`` the page's first sentence settles it; a wrong name or a list of guesses stays wrong."""
    srv = JudgeServer(ServerConfig())
    await srv.start()
    try:
        q = "What is the capital of China?"
        answers = ["Peking", "Shanghai", "Peking or Shanghai", "I don't know."]
        rows = [Sample(q, f"<think>x</think><answer>{a}</answer>", "Beijing") for a in answers]
        async with RewardEngine(_config(srv.url, _kb(tmp_path), aliases, grader_calls)) as engine:
            labels = [r.label for r in await engine.score(rows)]
        calls = srv.stats.by_kind["grader"]
    finally:
        await srv.stop()
    first = "CORRECT" if aliases == "kb" else "INCORRECT"
    assert labels == [first, "INCORRECT", "INCORRECT", "NOT_ATTEMPTED"]
    if grader_calls == "two":  # four readings; comparisons for the spans no rule settles (an alias needs none)
        assert calls == 4 + (2 if aliases == "kb" else 3)


def test_aliases_need_a_knowledge_base() -> None:
    with pytest.raises(ValueError, match="grader_aliases 'kb'"):
        parse_reward_config({"grader_aliases": "kb", "factuality": {"enabled": False}})
