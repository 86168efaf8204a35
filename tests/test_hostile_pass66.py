"""Hostile pass 66's findings (issue #74), as variants of its cases (the pass's own calls stay out of the tests): a
negative ``seed`` was numpy's error after the config loaded; a kinship question answered with the parent the passage
names in another clause was not contradicted; a claim giving a role to what the passage sets aside (", not the
female") or to the part it discards was supported; a right answer with its person's full given name, a film with its
cast, or a transliteration with an apostrophe was refused. Every assertion but the guards failed on bb82539
(pass 66's K15, the CI page of two suites, held on reading: its checker missed the table's "1" failed)."""

from __future__ import annotations

import pytest

from knowrl.config import ConfigError, load_train_config
from reward_engine.offline import facts
from tests.helpers import REPO, grade_tables

SMOKE = REPO / "configs" / "smoke.yaml"


@pytest.mark.parametrize("seed", ["-1", str(2**32)])
def test_a_seed_numpy_cannot_take_is_refused_naming_the_key(seed: str) -> None:
    with pytest.raises(ConfigError, match="seed"):
        load_train_config(SMOKE, [f"seed={seed}"])
    assert load_train_config(SMOKE, [f"seed={2**32 - 1}"]).seed == 2**32 - 1  # guard


ARTEMIS = ["Artemis is a daughter of Zeus, and her mother is Leto. She was born on Delos with her brother Apollo."]


def test_the_parent_of_another_clause_does_not_answer_the_asked_kinship() -> None:
    asked = "Who is the mother of Artemis?"
    assert facts.answer_contradicted(asked, "Zeus.", ARTEMIS)
    assert not facts.answer_contradicted(asked, "Leto.", ARTEMIS)  # guard


PENGUINS = ["In emperor penguins it is the male, not the female, that incubates the egg through the winter."]
VANILLA = ["Vanilla is extracted from the pods of the flat-leaved vanilla orchid; the leaves are not used."]


def test_a_role_the_passage_sets_aside_or_a_part_it_discards_is_not_supported() -> None:
    assert not facts.supported("The female emperor penguin incubates the egg through the winter.", PENGUINS)
    assert facts.supported("The male emperor penguin incubates the egg through the winter.", PENGUINS)  # guard
    assert not facts.supported("Vanilla is extracted from the leaves of the vanilla orchid.", VANILLA)
    assert facts.supported("Vanilla is extracted from the pods of the vanilla orchid.", VANILLA)  # guard


CARTER = "Who was the 39th president of the United States?"
JAWS = "Which 1975 film is about a great white shark terrorising Amity Island?"
test_a_wrong_answer_is_incorrect, test_a_right_answer_is_correct = grade_tables(
    [
        ("William Smith.", "Will Smith", "Who played the Fresh Prince of Bel-Air?"),  # "Will" is a name of its own
        ("Jaws, starring Roy Scheider, and Alien.", "Jaws", JAWS),
    ],
    [
        ("James Earl Carter, the Georgia peanut farmer, served from 1977 to 1981.", "Jimmy Carter", CARTER),
        ("Sir Robert Geldof.", "Bob Geldof", "Who organised Live Aid in 1985?"),
        ("Jaws, directed by Steven Spielberg and starring Roy Scheider.", "Jaws", JAWS),
        ("Ta'izz.", "Taizz", "Which Yemeni city lies below Mount Sabir?"),
    ],
)
