"""Hostile pass 41 (issue #74): 40 cases written before they were run, on 90 of KnowRL's released RL questions and
golds (seed 41041), run against 34e3272: no data loss, no stale result and no silent partial failure (8 jobs: a
gzip input to `score` and `evaluate`, paths with spaces, a leading dash and non-ASCII folders, an output on tmpfs
with its input edited between runs, an in-place rebuild with another `--max-tokens`, a UTF-16 input over an existing
KB, BOM and CRLF inputs to `warm`, a truncated job record); 8 findings.

Closed here (each assertion failed on 34e3272):
- wrong answers paid right: a common-noun gold taken back ("The banker. Actually, the lawyer."); another name doing
  the asked deed ("Robert Allen wrote the lyrics; Al Stillman wrote the music.");
- knowrl-robust paid one claim restated with attribution ("as everyone knows", "It is a well-documented fact that",
  "According to the records", "Film critics agree that") as several claims: 100x the control's reward;
- `supported` held a part credited to another name ("Al Stillman wrote the music" against "music by Robert Allen and
  lyrics by Al Stillman");
- `contradicted` missed "The Eiffel Tower was not completed in 1889." against "completed in 1889";
- "Electrokinesis: she can create and control lightning." was INCORRECT for the power "electrokinetic".

- "A Category 4 when it hit Dominica; it had been a Category 5 earlier that day." was CORRECT for Category 5: the
  gold's label with another number, in a clause saying the question's own "when ..." word for word, now competes (a
  first rule, any clause sharing a word with the question, was taken back: review 43 found 17 right answers it
  refused, other storms, seasons and missions beside the gold).

Left (in the issue's note): "The Smithsonian has 19
museums, 17 of which are in Washington." is INCORRECT for seventeen (the part and the whole read as two counts);
F4's own passage, the date in a second sentence under "It", is not read (no coreference).
"""

from __future__ import annotations

import pytest

from reward_engine.offline import facts
from reward_engine.offline.grader import Label, grade
from reward_engine.stages.claims import distinct

BET = "Who wins the bet in the short story The Bet?"


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("The banker, or so it seems until the end: really it is the lawyer who wins.", Label.INCORRECT),
        ("It seems the banker, but really it is the lawyer.", Label.INCORRECT),
        ("The banker at first glance; in truth, the lawyer.", Label.INCORRECT),
        ("The banker. Actually, the lawyer.", Label.INCORRECT),
        ("The banker, the older man.", Label.CORRECT),
        ("It seems the lawyer, but really it is the banker.", Label.CORRECT),
        ("The banker, not the lawyer.", Label.CORRECT),
        ("The banker. In fact, the banker wins by default.", Label.CORRECT),
    ],
)
def test_a_common_noun_gold_taken_back(answer: str, label: Label) -> None:
    assert grade(answer, "banker", BET) is label


@pytest.mark.parametrize(
    ("answer", "gold", "question", "label"),
    [
        ("Robert Allen wrote the lyrics; Al Stillman wrote the music.", "Al Stillman", "lyrics", Label.INCORRECT),
        ("Al Stillman wrote the lyrics; Robert Allen wrote the music.", "Al Stillman", "lyrics", Label.CORRECT),
        ("Al Stillman. Robert Allen wrote the music.", "Al Stillman", "lyrics", Label.CORRECT),
        (
            "Not sure. Matthew Broderick voiced Simba, and maybe James Earl Jones voiced his father.",
            "James Earl Jones",
            "Who voiced Simba's father in The Lion King?",
            Label.CORRECT,
        ),
        (
            "Puyi, though some say Yuan Shikai was the last emperor.",
            "Puyi",
            "Who was the last emperor of China?",
            Label.CORRECT,
        ),
    ],
)
def test_another_name_doing_the_asked_deed(answer: str, gold: str, question: str, label: Label) -> None:
    question = "Who wrote the lyrics to Moments to Remember?" if question == "lyrics" else question
    assert grade(answer, gold, question) is label


CLAIM = "Richard Harris played Dumbledore in the first two Harry Potter films"


def test_a_claim_vouched_for_in_other_words_is_one_claim() -> None:
    vouched = [
        f"As is well known, {CLAIM}.",
        f"{CLAIM}, as everyone knows.",
        f"It is a well-documented fact that {CLAIM}.",
        "Richard Harris, famously, played Dumbledore in the first two Harry Potter films.",
        f"As historians note, {CLAIM}.",
        f"According to the records, {CLAIM}.",
        f"Film critics agree that {CLAIM}.",
        f"{CLAIM}, as the histories all relate.",
        f"It is widely reported that {CLAIM}.",
        f"Sources confirm that {CLAIM}.",
        f"{CLAIM}, according to most accounts.",
    ]
    assert len(distinct([f"{CLAIM}.", *vouched])) == 1
    assert len(distinct(vouched)) == 1


@pytest.mark.parametrize(
    "claims",
    [
        [f"{CLAIM}.", "Richard Harris played Dumbledore in 2001."],  # a year is a new fact
        [f"{CLAIM}.", "Richard Harris did not play Dumbledore in the first two Harry Potter films."],
        ["Michael Gambon played Dumbledore in the Half-Blood Prince.", "Michael Gambon played Dumbledore in Goblet."],
    ],
)
def test_distinct_facts_stay_distinct(claims: list[str]) -> None:
    assert len(distinct(claims)) == 2


SONG = ['"Moments to Remember" is a popular song with music by Robert Allen and lyrics by Al Stillman, published 1955.']


@pytest.mark.parametrize(
    ("claim", "held"),
    [
        ("Al Stillman wrote both the lyrics and the music of Moments to Remember.", False),
        ("Al Stillman wrote the music of Moments to Remember.", False),
        ("Robert Allen wrote the lyrics of Moments to Remember.", False),
        ("Moments to Remember has music by Al Stillman.", False),
        ("Al Stillman wrote the lyrics of Moments to Remember.", True),
        ("Robert Allen wrote the music of Moments to Remember.", True),
        ("Moments to Remember has lyrics by Al Stillman.", True),
    ],
)
def test_a_part_credited_to_another_name_is_not_supported(claim: str, held: bool) -> None:
    assert facts.supported(claim, SONG) is held


def test_a_part_several_names_share_is_credited_to_each() -> None:
    shared = ["Moments to Remember has music by Robert Allen and Al Stillman, and lyrics by Al Stillman."]
    assert facts.supported("Al Stillman wrote the music of Moments to Remember.", shared)
    assert not facts.supported("Robert Allen wrote the lyrics of Moments to Remember.", shared)


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("He plays Boromir, the son of Denethor who travels with Aragorn.", Label.INCORRECT),
        ("He plays Isildur, the ancestor of Aragorn.", Label.INCORRECT),
        ("He plays Faramir, the brother of Boromir, and a friend of Aragorn.", Label.INCORRECT),
        ("He plays Aragorn, the heir of Isildur.", Label.CORRECT),
        ("He plays Strider, the ranger later revealed as Aragorn.", Label.CORRECT),
    ],
)
def test_the_gold_only_in_a_description_of_another_name(answer: str, label: Label) -> None:
    """Review 42 of pass 40's rules: wrong answers the grader paid before and after them."""
    assert grade(answer, "Aragorn", "Who does Viggo Mortensen play in Lord of the Rings?") is label


@pytest.mark.parametrize(
    ("claim", "passage", "contradicted"),
    [
        ("The Eiffel Tower was not completed in 1889.", "The Eiffel Tower was completed in 1889.", True),
        ("The Eiffel Tower was not completed in 1887.", "The Eiffel Tower was completed in 1889.", False),
        (
            "Law & Order: Special Victims Unit did not premiere on September 20, 1999.",
            "Law & Order: Special Victims Unit premiered on NBC on September 20, 1999.",
            True,
        ),
    ],
)
def test_a_negated_claim_with_the_passages_own_value(claim: str, passage: str, contradicted: bool) -> None:
    """F4: a negation of a dated statement was no contradiction (and denying another year was one)."""
    assert facts.contradicted(claim, [passage]) is contradicted


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("Electrokinesis: she can create and control lightning.", Label.CORRECT),
        ("Electrokinesis.", Label.CORRECT),
        ("She is electrokinetic.", Label.CORRECT),
        ("Pyrokinesis: she can create and control fire.", Label.INCORRECT),
        ("Electrokinesis: she can create lightning, or maybe fire.", Label.INCORRECT),
    ],
)
def test_the_noun_of_a_tic_gold(answer: str, label: Label) -> None:
    """G18: the power named by its noun was paid wrong, and a clause on it after "she can" read as a list."""
    assert grade(answer, "electrokinetic", "What power does Mare have in Red Queen?") is label


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("A Category 4 when it hit Dominica; it had been a Category 5 earlier that day.", Label.INCORRECT),
        ("Category 5 when it hit Dominica; it weakened to a Category 4 afterwards.", Label.CORRECT),
        ("Category 5 (it was upgraded from Category 4 just before it hit Dominica).", Label.CORRECT),
        ("Category 5; Hurricane Hugo was a Category 4 when it passed near Dominica.", Label.CORRECT),
        ("Category 5. Hurricane Dean hit Dominica as a Category 1 in 2007.", Label.CORRECT),
    ],
)
def test_the_golds_label_with_another_number_for_the_asked_when(answer: str, label: Label) -> None:
    assert grade(answer, "Category 5", "What category was Hurricane David when it hit Dominica?") is label


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("2010 - no wait, I mean 2011.", Label.INCORRECT),
        ("2010, I mean 2011.", Label.INCORRECT),
        ("2011, I mean 2010.", Label.CORRECT),
        ("2010. I mean it.", Label.CORRECT),
    ],
)
def test_a_year_corrected_with_i_mean(answer: str, label: Label) -> None:
    """Hostile pass 42's G2 (run after this file's mends): the number after "I mean" had no words, read as emphasis."""
    assert grade(answer, "2010", "When did Steve Harvey begin hosting Family Feud?") is label
