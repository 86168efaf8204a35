"""Hostile pass 30 (issue #74): 40 cases written before they were run, on 60 of KnowRL's released RL questions and golds
(5 whole completions under four presets, 3 jobs, one on the released file's own shape): no data loss, no stale result,
no crash. Closed here: a one-word name gold that is an everyday word ("Will") paid for the word ("I think she will end
up with Micah."); and, from the review of pass 29's rules, a figure between list items ("Jupiter, 143,000 km, Saturn")
hiding the list.

Closed since, in tests/test_hostile_pass31.py: the comparison of counts, the guess after a refusal, Binary RAR's
passive agent and "will", "Roland Bishop", a date per region, "(AS 1 to AS 32)", "stopped hosting" against "began
hosting". Left (in the issue's note): "Davos" (see pass 31's file), "Berklee" for "Berklee College of Music", a second
year in another role ("who hosted from 2006 to 2010"), the fact check reading "the 2000 Guineas" as a year and missing
"won the Derby in 2009".
"""

from __future__ import annotations

from reward_engine.offline.grader import Label
from tests.helpers import grade_table

EMILY = "Who does Emily end up with in Emily Owens, M.D.?"
PLANET = "What is the largest planet in the solar system?"


test_pass30_grades = grade_table(
    [
        ("I think she will end up with Micah.", EMILY, "Will", Label.INCORRECT),
        ("She ends up with Will.", EMILY, "Will", Label.CORRECT),
        ("Will Collins", EMILY, "Will", Label.CORRECT),
        ("will", EMILY, "Will", Label.CORRECT),  # an answer all in lower case: the case says nothing
        ("Jupiter, 143,000 km, Saturn", PLANET, "Jupiter", Label.INCORRECT),
        ("Jupiter, 143,000 km across", PLANET, "Jupiter", Label.CORRECT),
    ]
)
