"""Hostile pass 29 (issue #74): 40 realistic cases written before they were run (5 whole completions under four
presets, 3 jobs): no data loss, no stale result, no crash. Closed here, each beside its control: right answers paid
wrong ("Kilimanjaro, in Tanzania (5,895 m).": a figure read as a list item, "366 days, one more than the usual 365.",
an explanation giving two days of a month beside the year asked, the question's own number said again: "published in
1949, although the story is set in 1984."). The review of these rules (189 cases, old against new code) found 29
regressions: an alias "Kilimanjaro" for "Mount Kilimanjaro" ("Olympus Mons" paid for Mount Olympus; "Everest, K2"
read with the gold first), lower-case list items, the question's number dropped where it was the gold, and a Binary
RAR rule paying true detail 0; those rules were taken back or narrowed.

Left (in the issue's note): "Kilimanjaro, in Tanzania" for the gold "Mount Kilimanjaro" INCORRECT; Binary RAR not
contradicting "Vienna ... born in Vienna in 1756" (its year agrees) for Mozart's birthplace; "1984" in a question
against "Nineteen Eighty-Four" in the evidence (a title in words); a claim "Nineteen Eighty-Four was published in
1984." read with the title as its year (a wrong answer's fact score, below an abstention's pay).
"""

from __future__ import annotations

from reward_engine.offline.grader import Label
from tests.helpers import grade_table

AFRICA = "What is the highest mountain in Africa?"
EARTH = "What is the highest mountain on Earth?"
FRANCE = "What is the capital of France?"
LEAP = "How many days are there in a leap year?"
TITANIC = "In what year did the Titanic sink?"
ORWELL = "In what year was the novel 1984 published?"


test_pass29_grades = grade_table(
    [
        ("Kilimanjaro, in Tanzania (5,895 m).", AFRICA, "Kilimanjaro", Label.CORRECT),  # a figure qualifies
        ("Mount Kenya, in Kenya (5,199 m).", AFRICA, "Mount Kilimanjaro", Label.INCORRECT),
        ("Paris, lyon, marseille", FRANCE, "Paris", Label.INCORRECT),  # the review of pass 29: a list in any case
        ("5, including 1 goalkeeper.", "How many players are on a team in 5-a-side football?", "5", Label.CORRECT),
        ("365 or 366", "How many days are in a leap year, compared with 365 in a common year?", "366", Label.INCORRECT),
        ("Everest, K2, Kangchenjunga", EARTH, "Mount Everest", Label.INCORRECT),  # still a list of guesses
        ("Paris, Lyon, 2 million", FRANCE, "Paris", Label.INCORRECT),
        ("366 days, one more than the usual 365.", LEAP, "366", Label.CORRECT),
        ("365 days, one less than the usual 366.", LEAP, "366", Label.INCORRECT),
        (
            "Answer: 1912\nExplanation: The Titanic struck an iceberg on April 14 and sank early on April 15.",
            TITANIC,
            "1912",
            Label.CORRECT,
        ),
        ("1911. It sank on April 15.", TITANIC, "1912", Label.INCORRECT),
        ("It was published in 1949, although the story is set in 1984.", ORWELL, "1949", Label.CORRECT),
        ("It was published in 1984.", ORWELL, "1949", Label.INCORRECT),
    ]
)
