"""Hostile pass 34 (issue #74): 40 cases written before they were run, on 80 of KnowRL's released RL questions and
golds, run against the code of this stop's CI (7e3676a): no data loss, no stale result, no crash (a torn output
resumed; texts with U+2028, U+2029, U+0085 and non-breaking spaces kept whole through build, score and inspect); 14
findings. Closed here, each beside a control, the two wrong answers paid right: "Kansas State" for the gold Kansas
(a school or team question: "state" read as a head word) and "Isaac Hayes III" for Isaac Hayes (his son).

Closed later, each a rewrite gated on the gold's own form (``rewrites``): "16 years and 3 months" for "16 years, 3
months", another count in an aside ("275, including his record 61 in 1961"), "Lebanon, TN" (and "In Lebanon,
Tennessee, in 1969.", found beside it, read as a list of two places), "season one" for "the first season", "154 lb
(light middleweight)" (a figure beside a gold that is no figure), "fleur-de-lys" (a slip inside a hyphenated word); and
a wrong answer paid right found beside them: "Dan Brown" for Don Brown (a short given name one vowel away).

Left (in the issue's note): Binary RAR reading a capitalised aside the evidence lacks ("for its first PC", "in the TV
series") as a second name (a right answer paid 0); "the University of Virginia" for "Virginia Cavaliers football";
"came out" against "released"; truthrl's literal abstention phrase (documented).
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

IND = "When can a 16-year-old get their license in Indiana?"
MARIS = "How many home runs did Roger Maris hit in his career?"
ROBIN = "When did Robin appear in Batman: The Animated Series?"
CB = "Where was the first Cracker Barrel restaurant built?"
MMA = "What weight is Conor McGregor and Mayweather fighting at?"
SAINTS = "What is the New Orleans Saints symbol called?"

# the right answers pass 34 paid wrong that a rule on the gold's own form reads (the second session on it)
test_pass34_right_answers_in_the_golds_form = grade_table(
    [
        ("At 16 years and 3 months old.", IND, "16 years, 3 months", Label.CORRECT),
        ("16 years and 9 months", IND, "16 years, 3 months", Label.INCORRECT),
        ("5 feet and 11 inches", "How tall is he?", "5 feet, 11 inches", Label.CORRECT),
        ("275 \u2014 including his record 61 in 1961.", MARIS, "275", Label.CORRECT),
        ("275 home runs, including 61 in 1961 and 39 in 1960", MARIS, "275", Label.CORRECT),
        ("61, including 275 in his career", MARIS, "275", Label.INCORRECT),  # the part first: the wrong count
        ("261, including 61 in 1961", MARIS, "275", Label.INCORRECT),
        ("In season one (1992).", ROBIN, "the first season", Label.CORRECT),
        ("Season 1", ROBIN, "the first season", Label.CORRECT),
        ("season 11", ROBIN, "the first season", Label.INCORRECT),
        ("Season 1 and season 2", ROBIN, "the first season", Label.INCORRECT),
        ("**Lebanon, TN** (1969)", CB, "Lebanon, Tennessee", Label.CORRECT),
        ("In Lebanon, Tennessee, in 1969.", CB, "Lebanon, Tennessee", Label.CORRECT),  # a list of two places, before
        ("In Lebanon, KY, in 1969.", CB, "Lebanon, Tennessee", Label.INCORRECT),
        ("Nashville, TN", CB, "Lebanon, Tennessee", Label.INCORRECT),
        ("154 lb (light middleweight, also called super welterweight).", MMA, "light-middleweight", Label.CORRECT),
        ("154 lb (welterweight, also called light middleweight)", MMA, "light-middleweight", Label.INCORRECT),
        ("154 lb and light middleweight", MMA, "light-middleweight", Label.INCORRECT),
        ("The fleur-de-lys.", SAINTS, "fleur-de-lis", Label.CORRECT),  # a slip in one part of a hyphenated word
        ("fleur-de-lys or a crown", SAINTS, "fleur-de-lis", Label.INCORRECT),
        ("Dan Brown", "Who wrote it?", "Don Brown", Label.INCORRECT),  # found beside it: one vowel, another name
        ("Anne Hathaway", "Who was Shakespeare's wife?", "Ann Hathaway", Label.CORRECT),
    ]
)

# what the review of those rules found paid right that is wrong, most of it older than the rules (the town alone read,
# the ordinal alone read), and what the rules over-reached on
test_pass34_review_wrong_answers_stay_wrong = grade_table(
    [
        ("Portland, Oregon", "Where is Bowdoin College's nearest big city?", "Portland, Maine", Label.INCORRECT),
        ("Portland, OR", "Where is Bowdoin College's nearest big city?", "Portland, Maine", Label.INCORRECT),
        ("South Portland, ME", "Where is Bowdoin College's nearest big city?", "Portland, Maine", Label.INCORRECT),
        ("Lebanon, TN/KY", CB, "Lebanon, Tennessee", Label.INCORRECT),
        ("West Lebanon, TN", CB, "Lebanon, Tennessee", Label.INCORRECT),
        ("The first one was built in Lebanon, Tennessee, in 1969.", CB, "Lebanon, Tennessee", Label.CORRECT),
        (
            "Season 6",
            "In which episode of Breaking Bad's first season does Tuco appear?",
            "the sixth episode",
            Label.INCORRECT,
        ),
        (
            "Episode 6, Season 1",
            "In which episode of Breaking Bad's first season does Tuco appear?",
            "the sixth episode",
            Label.CORRECT,
        ),
        (
            "In 2004, including the playoffs, he scored 50 goals.",
            "How many goals did he score in the 2004 season?",
            "50",
            Label.CORRECT,
        ),  # a year is no count with a part beside it
        ("40 delegates (12 of them women)", "How many of the 40 delegates were women?", "12", Label.CORRECT),
        (
            "280 hp, from a turbocharged 4.3-liter V6.",
            "How much horsepower does a GMC Syclone have?",
            "280",
            Label.CORRECT,
        ),  # pass 35's G4, read beside them: the asked unit in "how much horsepower"
        (
            "250 hp, from a turbocharged 4.3-liter V6.",
            "How much horsepower does a GMC Syclone have?",
            "280",
            Label.INCORRECT,
        ),
        ("280 hp (250 kW)", "How much horsepower does a GMC Syclone have?", "280", Label.INCORRECT),
    ]
)
