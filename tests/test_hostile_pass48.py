"""Hostile pass 48 (seed 48048, run at 77e017b, issue #74): 30 cases written before they were run; 22 held, no data
loss and no stale result among the jobs (an output's file system out of inodes, renamed ids, two --overwrite runs at
once, a cache shared across presets, a string "false" in a config, an object input, an ASCII locale, a leftover dense
index). Each assertion here failed on 77e017b. Closed:

- wrong answers paid: "Third runner-up." CORRECT for third place (fourth place; "Second runner-up." was INCORRECT);
  ``supported`` held "Andy Garcia and Sofia Coppola played Mary Corleone and Vincent Mancini, respectively." against
  the passage that gives Mary to Sofia Coppola, and "California produces more rice than Arkansas." against "Arkansas
  produces more rice than California." (a comparison by a verb was not read); Binary RAR paid "California." where
  the answering sentence ranks it "followed by" after Arkansas, the largest producer;
- right answers paid wrong: '```python\\nanswer = "Gary Oldman"\\n```' (the fence's tag read as a name), "Spiderman"
  for Spider-Man;
- a stale file: a ``--no-dense`` rebuild with other text left the old dense index beside the KB, and hybrid scoring
  then blamed "an interrupted build": the rebuild now removes an index that no longer describes the text.

Review 48 (132 cases, fe6c447 against 674daca) found 17 regressions of the first forms, all mended: a gold that is
itself "1st runner-up" no longer matched, a runner-up in a detail ("they had been runner-up the year before") read
as the answer, "Harvard was more selective than Yale." read "was" as the verb (supported by the opposite), "before"
read as a ranking word, a second-largest question read as the largest's, a rice sentence answering a population
question, two assignments in a fence read as one, a joined hyphenated word inside a longer answer ("Bride of
Reanimator"). Closed beside it: the passive ("Vincent Mancini was played by Sofia Coppola", also "respectively") is
read in the active, so the doer checks apply.

Left (in the issue's note): G3 "Andy Garcia and Sofia Coppola played Vincent and Mary, respectively." INCORRECT for
Sofia Coppola (the grader does not pair names with roles), G1 "15, in his sixteenth year." INCORRECT for fifteen, F2
``supported`` compares no converted units ("3,776 metres" against "12,388 ft"), F4's negated comparison against a
superlative ("Arkansas does not produce more rice than California." is not contradicted by "Arkansas is the largest
producer ..., followed by California"), G12 "Spidey." (a nickname), "Eight consonants; five vowels." for eight.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from retrieval import dense
from retrieval.build import build
from retrieval.sources import Document
from reward_engine.offline import facts
from reward_engine.offline.grader import Label, grade

PLACE = "What place did Fifth Harmony get on The X Factor?"


@pytest.mark.parametrize(
    ("answer", "gold", "label"),
    [
        ("Third runner-up.", "third place", Label.INCORRECT),
        ("Second runner-up.", "third place", Label.CORRECT),
        ("The runner-up.", "second place", Label.CORRECT),
        ("Runner-up.", "third place", Label.INCORRECT),
        ("Third place.", "third place", Label.CORRECT),
    ],
)
def test_a_runner_up_is_the_place_after(answer: str, gold: str, label: Label) -> None:
    assert grade(answer, gold, PLACE) is label


def test_names_paired_with_roles_respectively() -> None:
    passage = ["In The Godfather Part III, Sofia Coppola played Mary Corleone and Andy Garcia played Vincent Mancini."]
    swapped = "Andy Garcia and Sofia Coppola played Mary Corleone and Vincent Mancini, respectively."
    assert not facts.supported(swapped, passage)
    assert facts.supported(
        "Andy Garcia and Sofia Coppola played Vincent Mancini and Mary Corleone, respectively.", passage
    )


def test_a_comparison_by_a_verb() -> None:
    said = ["Arkansas produces more rice than California."]
    assert not facts.supported("California produces more rice than Arkansas.", said)
    assert facts.supported("Arkansas produces more rice than California.", said)
    assert facts.supported("California produced less rice than Arkansas.", said)
    assert facts.contradicted("Arkansas does not produce more rice than California.", said)


def test_binary_rar_a_name_ranked_after_the_largest() -> None:
    ranked = ["Arkansas is the largest producer of rice in the United States, followed by California and Louisiana."]
    asked = "Which state is the largest producer of rice in the United States?"
    assert facts.answer_contradicted(asked, "California.", ranked)
    assert facts.answer_contradicted(asked, "Louisiana.", ranked)
    assert not facts.answer_contradicted(asked, "Arkansas.", ranked)


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ('```python\nanswer = "Gary Oldman"\n```', Label.CORRECT),
        ("```text\nGary Oldman\n```", Label.CORRECT),
        ('```python\nanswer = "Tom Hardy"\n```', Label.INCORRECT),
    ],
)
def test_an_answer_in_a_tagged_code_fence(answer: str, label: Label) -> None:
    assert grade(answer, "Gary Oldman", "Who played Commissioner Gordon in The Dark Knight?") is label


def test_a_hyphenated_name_written_joined() -> None:
    assert grade("Spiderman.", "Spider-Man", "Which hero is Peter Parker?") is Label.CORRECT
    assert grade("Ant Man.", "Ant-Man", "Which hero is Scott Lang?") is Label.CORRECT
    assert grade("Spider-Woman.", "Spider-Man", "Which hero is Peter Parker?") is Label.INCORRECT


def test_a_no_dense_rebuild_removes_the_index_of_the_old_text(
    tmp_path: Path, embedder, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "kb.db"
    build(db, [Document("Paris", "Paris is the capital of France.")], progress=False, embedder=embedder)
    index, manifest = dense.index_paths(db)
    assert index.exists() and manifest.exists()
    build(
        db,
        [Document("Paris", "Paris is the capital of France.")],
        progress=False,
        dense_index=False,
        replace=True,
        overwrite=True,
    )
    assert index.exists()  # the same text: the index still describes it
    with caplog.at_level(logging.WARNING, logger="retrieval.build"):
        build(
            db,
            [Document("Lyon", "Lyon is a city in France.")],
            progress=False,
            dense_index=False,
            replace=True,
            overwrite=True,
        )
    assert not index.exists() and not manifest.exists()
    assert "described the KB's old text and was removed" in caplog.text


@pytest.mark.parametrize(
    ("answer", "gold", "label"),
    [
        ("1st runner-up", "1st runner-up", Label.CORRECT),  # review 48: the gold's own wording
        ("First place; they had been runner-up the year before.", "first place", Label.CORRECT),
    ],
)
def test_a_runner_up_in_the_gold_or_in_a_detail(answer: str, gold: str, label: Label) -> None:
    assert grade(answer, gold, "In what place did they finish?") is label


def test_review_48_comparisons_and_rankings() -> None:
    assert not facts.supported("Harvard was more selective than Yale.", ["Yale is more selective than Harvard."])
    rice = ["Arkansas is the largest producer of rice in the United States, followed by California."]
    people = ["California has the largest population of any U.S. state.", *rice]
    assert not facts.answer_contradicted(
        "Which state has the largest population in the United States?", "California.", people
    )
    second = "Which state is the second largest producer of rice in the United States?"
    assert not facts.answer_contradicted(second, "California.", rice)


def test_the_passive_is_read_in_the_active() -> None:
    passage = ["In The Godfather Part III, Andy Garcia played Vincent Mancini and Sofia Coppola played Mary Corleone."]
    assert not facts.supported("Vincent Mancini was played by Sofia Coppola.", passage)
    assert facts.supported("Vincent Mancini was played by Andy Garcia.", passage)
    swapped = "Vincent Mancini and Mary Corleone were played by Sofia Coppola and Andy Garcia, respectively."
    assert not facts.supported(swapped, passage)


def test_two_assignments_in_a_fence_are_two_answers() -> None:
    fenced = '```python\nguess_1 = "Gary Oldman"\nguess_2 = "Christian Bale"\n```'
    assert grade(fenced, "Gary Oldman", "Who played Commissioner Gordon in The Dark Knight?") is Label.INCORRECT
    assert grade("Bride of Reanimator", "Re-Animator", "Which 1985 film did Stuart Gordon direct?") is Label.INCORRECT
