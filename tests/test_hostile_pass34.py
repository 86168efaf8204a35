"""Hostile pass 34 (issue #74): 40 cases written before they were run, on 80 of KnowRL's released RL questions and
golds, run against the code of this stop's CI (7e3676a): no data loss, no stale result, no crash (a torn output
resumed; texts with U+2028, U+2029, U+0085 and non-breaking spaces kept whole through build, score and inspect); 14
findings. Closed here, each beside a control, the two wrong answers paid right: "Kansas State" for the gold Kansas
(a school or team question: "state" read as a head word) and "Isaac Hayes III" for Isaac Hayes (his son).

Left (in the issue's note): Binary RAR reading a capitalised aside the evidence lacks ("for its first PC", "in the TV
series") as a second name (a right answer paid 0); "16 years and 3 months" for "16 years, 3 months"; "fleur-de-lys";
"the University of Virginia" for "Virginia Cavaliers football"; another count in an aside ("275, including his
record 61 in 1961"); "154 lb (light middleweight)"; "Lebanon, TN"; "season one" for "the first season"; "came out"
against "released"; truthrl's literal abstention phrase (documented).
"""

from __future__ import annotations

from reward_engine.offline.grader import Label
from tests.helpers import grade_table

NCAA = "Who has the longest streak of NCAA Tournament appearances?"
CHEF = "Who does Chef's voice in South Park?"

test_pass34_grades = grade_table(
    [
        ("Kansas State", NCAA, "Kansas", Label.INCORRECT),
        ("Kansas, ahead of Kansas State", NCAA, "Kansas", Label.CORRECT),
        ("Washington State", "Which state is Seattle in?", "Washington", Label.CORRECT),  # the state itself
        ("Isaac Hayes III", CHEF, "Isaac Hayes", Label.INCORRECT),
        ("Isaac Hayes, not his son Isaac Hayes III", CHEF, "Isaac Hayes", Label.CORRECT),
        ("George III", "Who was king during the American Revolution?", "King George", Label.CORRECT),
    ]
)
