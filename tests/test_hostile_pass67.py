"""Hostile pass 67's findings (issue #74), as variants of its cases (the pass's own calls stay out of the tests): its
12 job cases held; of its 18 reward cases, a role swap after a preposition and an article ("by the alpha cells"), a
flow turned round ("out of A and into B"), a relation reversed across a coordination, and a bare name for who did a
deed the passage gives to others in the passive were paid; a figure converted to another unit, a name in full for
its initialism gold, and a name's own initials or its country's possessive beside it were refused. Every assertion
but the guards failed on 7899b67; a Wade-Giles "Tzu" for the gold's pinyin "zi" is read since. Left: "AIDS" for
Acquired immunodeficiency syndrome (letters from inside words) is still refused."""

from __future__ import annotations

from reward_engine.offline import facts
from tests.helpers import grade_tables

HAEMOGLOBIN = ["Haemoglobin is an iron-containing protein carried by the red cells of the blood."]
NILE = ["The White Nile flows out of Lake Victoria and into Lake Kyoga in Uganda."]
SOCRATES = ["Socrates was a philosopher of Athens and the teacher of Plato."]


def test_a_slot_after_a_preposition_and_an_article_is_read() -> None:
    assert not facts.supported("Haemoglobin is carried by the white cells of the blood.", HAEMOGLOBIN)
    assert facts.supported("Haemoglobin is carried by the red cells of the blood.", HAEMOGLOBIN)  # guard


def test_a_flow_turned_round_is_not_supported() -> None:
    assert not facts.supported("The White Nile flows out of Lake Kyoga into Lake Victoria.", NILE)
    assert facts.supported("The White Nile flows out of Lake Victoria into Lake Kyoga.", NILE)  # guard


def test_a_relation_reversed_across_a_coordination_is_not_supported() -> None:
    assert not facts.supported("Plato was the teacher of Socrates.", SOCRATES)
    assert facts.supported("Socrates was the teacher of Plato.", SOCRATES)  # guard


VOSTOK = [
    "Vostok 1 was designed by Sergei Korolev's bureau OKB-1, and Yuri Gagarin flew it on 12 April 1961 as the "
    "first human in space."
]


def test_a_bare_name_for_a_deed_the_passage_gives_others_is_contradicted() -> None:
    asked = "Who designed Vostok 1?"
    assert facts.answer_contradicted(asked, "Yuri Gagarin.", VOSTOK)
    assert not facts.answer_contradicted(asked, "Sergei Korolev.", VOSTOK)  # guard
    assert not facts.answer_contradicted("Who flew Vostok 1?", "Yuri Gagarin.", VOSTOK)  # guard


ETNA = ["Mount Etna rises to about 3,357 metres above sea level on the east coast of Sicily."]


def test_a_figure_in_another_unit_is_supported_and_a_wrong_one_is_not() -> None:
    assert facts.supported("Mount Etna rises to about 11,014 feet above sea level.", ETNA)
    assert not facts.supported("Mount Etna rises to about 12,014 feet above sea level.", ETNA)  # guard


AIRBUS = ["The A380 was designed and built by Airbus, the European aircraft maker, in Toulouse."]


def test_a_name_s_own_initials_and_its_country_s_possessive_name_nothing_else() -> None:
    asked = "Which company built the A380?"
    assert not facts.answer_contradicted(asked, "Europe's Airbus.", AIRBUS)
    assert facts.answer_contradicted(asked, "America's Boeing.", AIRBUS)  # guard
    blue = ["Deep Blue was a chess computer built by International Business Machines in New York."]
    assert not facts.answer_contradicted("Who built Deep Blue?", "International Business Machines (IBM).", blue)
    assert facts.answer_contradicted("Who built Deep Blue?", "International Business Machines (HP).", blue)  # guard


test_a_wrong_answer_is_incorrect, test_a_right_answer_is_correct = grade_tables(
    [
        ("The World Trade Organization.", "WHO", "Which UN agency leads on global public health?"),
        ("Chuang Tzu.", "Sunzi", "Who wrote The Art of War?"),
    ],
    [
        ("The World Health Organization, based in Geneva.", "WHO", "Which UN agency leads on global public health?"),
        ("It was built for the IOC.", "International Olympic Committee", "Who awards the Olympic Games?"),
        ("It is credited to the general Sun Tzu.", "Sunzi", "Who wrote The Art of War?"),
    ],
)
