"""Hostile pass 59's grader and fact-check findings (issue #74), each a variant of the pass's case (the pass's own
calls stay out of the tests): the gold put after the other option to "which came first", a move read backwards by
Binary RAR, a gold with the name its bearer went by in brackets, names without Turkish or Nordic letters, and a decade
a passage's year lies in. Every assertion but the guards failed on bc3ecef."""

from __future__ import annotations

import pytest

from reward_engine.offline import facts
from tests.helpers import grade_tables

WRONG_PAID = [
    ("Toy Story came after A Bug's Life.", "Toy Story", "Which came first, Toy Story or A Bug's Life?"),
    ("Haydn was born later than Handel.", "Haydn", "Who was born first, Haydn or Handel?"),
    ("The Game Boy, after the Sega Game Gear.", "Game Boy", "Which came first, the Game Boy or the Sega Game Gear?"),
    ("The Wii U was released before the Nintendo Switch.", "Wii U", "Which came last, the Wii U or the Switch?"),
    ("Clara.", "Clara (Clarissa) Bow", "Who starred in the silent film It?"),
]

RIGHT_PAID = [
    ("Toy Story came first.", "Toy Story", "Which came first, Toy Story or A Bug's Life?"),
    ("Toy Story, a few years before A Bug's Life.", "Toy Story", "Which came first, Toy Story or A Bug's Life?"),
    ("Handel was born after Bach, in 1685.", "Handel", "Who was born first, Haydn or Handel?"),
    ("Clarissa Bow.", "Clara (Clarissa) Bow", "Who starred in the silent film It?"),
    ("Clara Bow.", "Clara (Clarissa) Bow", "Who starred in the silent film It?"),
    ("Bow.", "Clara (Clarissa) Bow", "Who starred in the silent film It?"),
]


test_a_wrong_answer_is_incorrect, test_a_right_answer_is_correct = grade_tables(WRONG_PAID, RIGHT_PAID)


MOVE = ["In 1997, the club moved from Roker Park to the Stadium of Light in Sunderland."]
ASKED = "Which ground did Sunderland move to in 1997?"


def test_the_end_a_move_left_is_contradicted_where_its_destination_is_asked() -> None:
    assert facts.answer_contradicted(ASKED, "Roker Park.", MOVE)
    assert facts.answer_contradicted(ASKED, "From the Stadium of Light to Roker Park.", MOVE)
    assert not facts.answer_contradicted(ASKED, "The Stadium of Light.", MOVE)


def test_a_move_turned_round_is_not_supported() -> None:
    assert not facts.supported("Sunderland moved from the Stadium of Light to Roker Park.", MOVE)
    assert facts.supported("Sunderland moved from Roker Park to the Stadium of Light.", MOVE)


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        ("Recep Tayyip Erdogan was born in Istanbul.", "Recep Tayyip Erdoğan was born in Kasımpaşa, Istanbul."),
        ("Bjork Gudmundsdottir was born in Reykjavik.", "Björk Guðmundsdóttir was born in Reykjavík."),
        ("Soren Kierkegaard was born in Copenhagen.", "Søren Kierkegaard was born in Copenhagen in 1813."),
        ("Erwin Schrödinger won the Nobel Prize in 1933.", "Erwin Schroedinger won the Nobel Prize in 1933."),
    ],
)
def test_a_name_without_its_marks_is_the_evidence_s_name(claim: str, passage: str) -> None:
    assert facts.supported(claim, [passage])


def test_a_year_supports_its_decade_and_no_other() -> None:
    said = ["Charles Dickens's Oliver Twist was first published in 1838."]
    assert facts.supported("Oliver Twist was first published in the 1830s.", said)
    assert not facts.supported("Oliver Twist was first published in the 1840s.", said)
    assert not facts.supported("Oliver Twist was first published in the early 1830s.", said)


# the landing review of this session's rules: right answers they first failed, and the wrong ones they still catch
LANDING_RIGHT = [
    ("Germany beat Brazil 7-1.", "Germany", "Which team beat Brazil 7-1 in 2014?"),
    ("Harold was defeated by William the Conqueror.", "William the Conqueror", "Who defeated Harold at Hastings?"),
    ("Foreman lost to Muhammad Ali.", "Muhammad Ali", "Whom did Foreman lose to in 1974?"),
    ("Usain Bolt, Jamaica.", "Usain Bolt", "Who won the men's 100m at the 2008 Olympics?"),
    ("Mozart, Austria.", "Mozart", "Who composed The Magic Flute?"),
    ("Argentina, in Mexico.", "Argentina", "Who won the 1986 World Cup?"),
    ("He was King of France.", "France", "Which country did Louis XIV rule?"),
    ("In the Palace of Versailles.", "Versailles", "Where was the Treaty of Versailles signed?"),
    (
        "Washington, D.C., not to be confused with Washington State.",
        "Washington, D.C.",
        "What is the capital of the United States?",
    ),
    ("Columbia (not the District of Columbia).", "Columbia", "What is the capital of South Carolina?"),
    (
        "George Washington, after whom Washington State is named.",
        "George Washington",
        "Who was the first president of the United States?",
    ),
    ("Andrew Johnson, who came after Lincoln.", "Andrew Johnson", "Who was the first president after Lincoln?"),
]
LANDING_WRONG = [
    ("Ali was knocked out by George Foreman.", "George Foreman", "Who lost the Rumble in the Jungle in 1974?"),
    ("The Tower of London.", "London", "Which city is the British Museum in?"),
    ("Washington State.", "George Washington", "Who was the first president of the United States?"),
]


test_the_landing_review_s_wrong_answers_stay_wrong, test_the_landing_review_s_right_answers_stay_right = grade_tables(
    LANDING_WRONG, LANDING_RIGHT
)


def test_pairs_stop_at_the_next_clause_and_wins_keep_their_prize() -> None:
    assert not facts.contradicted("Germany beat Spain.", ["Spain beat Italy, and Germany lost to Argentina."])
    assert not facts.contradicted("Bush won the 2000 election over Gore.", ["Gore won the popular vote over Bush."])
    assert not facts.contradicted("The road runs from Boston to New York.", ["The road runs from New York to Boston."])
