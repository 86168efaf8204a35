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
    # what a reviewer found read as names before the rules were tightened, in sentences of the same shape
    "United Nations": "The United Nations (UN) is an intergovernmental organisation.",
    "Zipper": "A zipper (US), zip (UK) or zip fastener is a device for binding two edges.",
    "Fall of Constantinople": "Constantinople, the capital of the Byzantine Empire, fell to the Ottoman Empire "
    "on 29 May 1453. It was the end of the empire.",
    "Billy Wilder": "Billy Wilder was an Austrian-born American filmmaker.",
    "Room": "In a building or a ship, a room is any space enclosed by walls.",
    "Titanium dioxide": "Titanium dioxide, also known as titanium(IV) oxide or titania, is an inorganic compound.",
    "Nerva-Antonine dynasty": "The Nerva-Antonine dynasty ruled from 96 to 192. The emperors Trajan and Hadrian "
    "were among them.",
    "John Smith": "John Smith (born 1950 in London, England) is a writer.",
    "Belly dance": "Belly dance, also known as a dance of the East, is a dance.",
    "Romance languages": "The Romance languages, also called Latin or Neo-Latin languages, are languages that "
    "evolved from Latin.",
    # set 13: "and" before an adverb and a cue starts another name ("... and alternatively spelled ...")
    "Noradrenaline": "Noradrenaline, also called norepinephrine and alternatively spelled noradrenalin, is a "
    "neurotransmitter.",
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
        ("United Nations", ("The United Nations", "UN")),  # an uncued bracket only as the head's initialism
        ("Zipper", ()),  # a description opens it ("A zipper"); "(UK)" is no name of it
        ("Fall of Constantinople", ()),  # the words before the first verb end in a clause and a sentence end
        ("Billy Wilder", ("Billy Wilder",)),  # a capitalised "-ly" word is a name, not an adverb cue
        ("Room", ()),  # an opening setting: nothing read
        ("Titanium dioxide", ("Titanium dioxide", "titanium(IV) oxide", "titania")),  # brackets inside a name
        ("Nerva-Antonine dynasty", ()),  # "192. The ...": the sentence ended before the verb
        ("John Smith", ("John Smith",)),  # "in London", "England": a place, uncued
        ("Belly dance", ("Belly dance",)),  # "a dance of the East": a description
        # "Latin or Neo-Latin languages": the noun after "or" is shared ("Latin" alone names another thing)
        ("Romance languages", ("The Romance languages", "Latin languages", "Neo-Latin languages")),
        ("Noradrenaline", ("Noradrenaline", "norepinephrine", "noradrenalin")),
    ],
)
def test_the_first_sentence_names_the_subject_before_its_verb(title: str, names: tuple[str, ...]) -> None:
    assert lead_names(LEADS[title]) == names


def _kb(tmp_path, indexed: bool = False) -> str:
    """A FActScore-layout KB (documents(title, text), passages joined by the separator, each in <s>...</s> as
    FActScore writes them), or the same documents indexed into passages by ``retrieval.build``."""
    path = tmp_path / ("indexed.db" if indexed else "kb.db")
    later = "<s>A later passage naming Shanghai.</s>"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE documents (title TEXT PRIMARY KEY, text TEXT)")
        conn.executemany(
            "INSERT INTO documents VALUES (?, ?)",
            [(t, f"<s>{lead}</s>####SPECIAL####SEPARATOR####{later}") for t, lead in LEADS.items()],
        )
    if indexed:
        from retrieval.build import build

        build(path, progress=False, dense_index=False)  # passages and FTS5 from the documents, no embedding
    return str(path)


@pytest.mark.parametrize("indexed", [False, True])
def test_an_alias_is_a_name_the_golds_own_page_gives(tmp_path, indexed: bool) -> None:
    from retrieval.kb import KnowledgeBase

    kb = KnowledgeBase(_kb(tmp_path, indexed), embedder=object())
    assert kb.indexed is indexed
    names = LeadNames(lambda: kb)
    assert names.is_alias("Peking", "Beijing") and names.is_alias("Peking, I think.", "Beijing")
    assert names.is_alias("Samuel Langhorne Clemens", "Mark Twain")  # the <s> markers are not part of the head
    assert not names.is_alias("Shanghai", "Beijing")  # on the page, but not in its first sentence
    assert not names.is_alias("China", "Beijing")  # after the verb
    assert not names.is_alias("Peking or Shanghai", "Beijing")  # a list of guesses
    assert not names.is_alias("They called it Peking, but it is Shanghai.", "Beijing")  # not one name only
    assert not names.is_alias("Australia", "Canberra")
    assert not names.is_alias("Peking", "Nanjing")  # no page: no names
    assert names.is_alias("Mount McKinley", "Denali") and names.is_alias("UN", "United Nations")


def test_a_missing_kb_leaves_the_judges_grade(tmp_path, caplog) -> None:
    from retrieval.kb import KnowledgeBase

    opened = []

    def open_missing() -> KnowledgeBase:
        opened.append(1)
        return KnowledgeBase(tmp_path / "missing.db", embedder=object())

    names = LeadNames(open_missing)
    assert not names.is_alias("Peking", "Beijing") and not names.is_alias("Ceylon", "Sri Lanka")
    assert len(opened) == 1 and "cannot open the knowledge source" in caplog.text  # once, said once


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
            aliases_counted = engine.grader.guard_counts["alias"]
        calls = srv.stats.by_kind["grader"]
    finally:
        await srv.stop()
    first = "CORRECT" if aliases == "kb" else "INCORRECT"
    assert labels == [first, "INCORRECT", "INCORRECT", "NOT_ATTEMPTED"]
    assert aliases_counted == (1 if aliases == "kb" and grader_calls == "one" else 0)  # two calls: before comparing
    if grader_calls == "two":  # four readings; comparisons for the spans no rule settles (an alias needs none)
        assert calls == 4 + (2 if aliases == "kb" else 3)


def test_aliases_need_a_knowledge_base() -> None:
    with pytest.raises(ValueError, match="grader_aliases 'kb'"):
        parse_reward_config({"grader_aliases": "kb", "factuality": {"enabled": False}})
