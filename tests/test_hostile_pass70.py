"""Hostile pass 70's findings (issue #74), as variants of its cases (the pass's own calls stay out of the tests).
Its 10 job cases held; of 20 reward cases 10 failed. Mended here: a wrong name put forward first in the answering
clause, beside detail the passage binds to the question (or split at an initial), was not contradicted; "X was
his pupil, not his teacher" did not deny the answer; a claim's superlative that a passage ranks "third-highest"
was supported; the question's own figure in a model's name was read as a value; an initialism the passage spells
out was another name; "Joan of Arc led" was read as "Arc"; "I believe it was X, though it may have been Y" put
nothing forward. Every assertion but the guards failed on 598ce93, the commit the pass ran at."""

from __future__ import annotations

from reward_engine.offline import facts
from tests.helpers import grade_tables

MEDUSA = [
    "In Greek mythology the hero Perseus slew the Gorgon Medusa, using a mirrored shield given to him by Athena. "
    "Theseus, another Greek hero, slew the Minotaur in Crete."
]
VOSTOK = [
    "Vostok 1 was designed by Sergei P. Korolev's bureau. In April 1961 Yuri Gagarin flew Vostok 1 around the "
    "Earth, the first human spaceflight."
]


def test_the_name_a_clause_puts_first_is_its_answer() -> None:
    asked = "Which Greek hero slew Medusa?"
    assert facts.answer_contradicted(asked, "Theseus slew Medusa with a mirrored shield from Athena.", MEDUSA)
    assert not facts.answer_contradicted(asked, "Perseus slew Medusa with a mirrored shield from Athena.", MEDUSA)
    wrong = "Sergei P. Korolev flew Vostok 1 in 1961; Yuri Gagarin trained for it."
    assert facts.answer_contradicted("Who flew Vostok 1 in 1961?", wrong, VOSTOK)


ACADEMY = [
    "Aristotle studied at Plato's Academy in Athens, with Plato as his teacher. Aristotle later taught Alexander the "
    "Great."
]
PEAKS = [
    "Mount Everest is the highest mountain in the world. Kangchenjunga is the third-highest mountain in the world, "
    "on the border of Nepal and India."
]


def test_a_role_denied_and_a_rank_left_out_are_not_paid() -> None:
    asked = "Who was Aristotle's teacher?"
    wrong = "Actually it was the other way round: Plato was Aristotle's pupil at the Academy, not his teacher."
    assert facts.answer_contradicted(asked, wrong, ACADEMY)
    assert not facts.answer_contradicted(asked, "Plato was his teacher, not his pupil.", ACADEMY)  # guard
    assert not facts.supported("The Kangchenjunga massif is the highest mountain in the world.", PEAKS)
    assert facts.supported("Kangchenjunga is the third-highest mountain in the world.", PEAKS)  # guard


STARRY = [
    "The Starry Night was painted by Vincent van Gogh in 1889. Paul Gauguin painted Vision after the Sermon in 1888."
]


def test_names_said_otherwise_and_a_hedged_first_answer() -> None:
    hubble = [
        "The Hubble Space Telescope was launched in 1990 by the National Aeronautics and Space Administration from "
        "the Kennedy Space Center."
    ]
    asked = "Which agency launched the Hubble Space Telescope?"
    assert not facts.answer_contradicted(asked, "NASA, from the Kennedy Space Center.", hubble)
    orleans = ["The French army at Orléans was led by Joan of Arc in 1429."]
    assert facts.supported("Joan of Arc led the French army at Orléans in 1429.", orleans)
    asked = "Who painted The Starry Night?"
    assert facts.answer_contradicted(asked, "I believe it was Paul Gauguin, though it may have been van Gogh.", STARRY)
    assert not facts.answer_contradicted(asked, "I think it is Vincent van Gogh, but I am not certain.", STARRY)


test_another_figure_is_incorrect, test_a_figure_beside_the_question_s_version_is_correct = grade_tables(
    [("Windows 3.1 has a minimum memory of 4 MB.", "1 MB", "How much memory did Windows 3.1 need at least?")],
    [
        ("Windows 3.1 has a minimum memory of 1 MB.", "1 MB", "How much memory did Windows 3.1 need at least?"),
        ("Ubuntu 22.04 has a kernel of version 5.15.", "5.15", "Which kernel version does Ubuntu 22.04 ship?"),
    ],
)
