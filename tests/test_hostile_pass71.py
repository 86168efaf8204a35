"""Hostile pass 71 (issue #74), run at b66e5ce, the last code of session g: its 10 job cases held; of its 20 reward
cases 11 failed, and one class is mended here: a statement naming another for the asked deed ("It was designed by
the Australian architect Peter Hall") was not contradicted where the question names a thing ending in "e" (its
names were compared in another form than the passages', so no sentence answered) or where the other's sentence
holds the question's thing only as the passage's topic and does not do the deed. As variants of its cases; the
assertions but the guards failed on b66e5ce."""

from __future__ import annotations

from reward_engine.offline import facts

BRIDGE = [
    "The Brooklyn Bridge was designed by the German-born engineer John A. Roebling. After he died in 1869, the towers "
    "were completed by a crew led by the American engineer Wilhelm Hildenbrand."
]
GISELLE = [
    "Giselle is a ballet composed by Adolphe Adam in 1841. Its libretto was written by Theophile Gautier, who also "
    "wrote poetry."
]


def test_a_name_whose_sentence_does_not_do_the_asked_deed_is_contradicted() -> None:
    asked = "Who designed the Brooklyn Bridge?"
    assert facts.answer_contradicted(asked, "It was designed by the American engineer Wilhelm Hildenbrand.", BRIDGE)
    assert not facts.answer_contradicted(asked, "It was designed by John A. Roebling.", BRIDGE)  # guard
    asked = "Who composed the ballet Giselle?"
    assert facts.answer_contradicted(asked, "Giselle was composed by Theophile Gautier in 1841.", GISELLE)
    assert not facts.answer_contradicted(asked, "Giselle was composed by Adolphe Adam in 1841.", GISELLE)  # guard
