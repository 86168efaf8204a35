"""Hostile pass 36 (issue #74): 40 cases written before they were run, on 90 of KnowRL's released RL questions and
golds, run against dc7209f (after pass 35's closings): no data loss, no stale result, no crash (an output's folder
replaced by a file, rows appended to an input without a final newline, NUL bytes in an input, outputs that are hard
links of each other); 9 findings, two of them wrong answers paid right, closed here beside controls:

- "Either Joshua Redman or Don Redman -- I'm not sure which." was NOT_ATTEMPTED (an abstention's pay for a hedge
  between two names; SimpleQA grades a hedge between candidates INCORRECT): options after a refusal now commit.
- "Paul Dano voiced Carol; James Gandolfini voiced Alexander." was CORRECT for Gandolfini (the gold named in the asked
  role, of another part).

Right answers paid wrong, closed: "1993" for the gold "Miss USA 1993" to "What year was she crowned Miss USA?", "King
Nan" for "King Nan of Zhou" asked about the Zhou dynasty, "Answer: Bubbles\\nExplanation: Blossom is the redhead and
Buttercup has black hair." (the answer line read with the explanation as a list; "X is the redhead" a remark).

Left (in the issue's note): a second year tied to another event ("joined the VFL in 1987 -- it was renamed the AFL in
1990", "passed in 1968 but took effect in 1971": which event the question asks needs the verbs' meaning, and two
years in two clauses are also how a policy hedges); "Luke Castellan" for the gold "Luke" (a given name and a surname
cannot be told from two surnames, "Mozart Beethoven", without a list of names); a NUL byte's row reported without its
id (documented: the id when one can be read).
"""

from __future__ import annotations

from reward_engine.offline.grader import Label
from tests.helpers import grade_table

REDMAN = "Which jazz musician was the son of Dewey Redman?"
CAROL = "Who voices Carol in Where the Wild Things Are?"
MOORE = "What year was Kenya Moore crowned Miss USA?"
ZHOU = "Who was the last ruler of the Zhou dynasty?"
GIRL = "What's the name of the blonde Powerpuff Girl?"

test_pass36_grades = grade_table(
    [
        ("Either Joshua Redman or Don Redman \u2014 I'm not sure which.", REDMAN, "Joshua Redman", Label.INCORRECT),
        ("I'm not sure \u2014 maybe Joshua Redman or Don Redman.", REDMAN, "Joshua Redman", Label.INCORRECT),
        ("Either Don Redman or Chris Potter \u2014 I'm not sure which.", REDMAN, "Joshua Redman", Label.INCORRECT),
        ("I'm not sure, but it's Joshua Redman.", REDMAN, "Joshua Redman", Label.CORRECT),
        ("I'm not sure if it's a saxophonist or a trumpeter.", REDMAN, "Joshua Redman", Label.NOT_ATTEMPTED),
        ("I don't know.", REDMAN, "Joshua Redman", Label.NOT_ATTEMPTED),
        ("Paul Dano voiced Carol; James Gandolfini voiced Alexander.", CAROL, "James Gandolfini", Label.INCORRECT),
        ("Forest Whitaker voiced Carol and James Gandolfini voiced Ira.", CAROL, "James Gandolfini", Label.INCORRECT),
        ("James Gandolfini voiced Carol; Paul Dano voiced Alexander.", CAROL, "James Gandolfini", Label.CORRECT),
        ("In 1993 \u2014 she then placed fifth at Miss Universe 1993.", MOORE, "Miss USA 1993", Label.CORRECT),
        ("1992", MOORE, "Miss USA 1993", Label.INCORRECT),
        ("King Nan, who died in 256 BC when Qin took the royal domain.", ZHOU, "King Nan of Zhou", Label.CORRECT),
        ("King You", ZHOU, "King Nan of Zhou", Label.INCORRECT),
        (
            "Answer: Bubbles\nExplanation: Blossom is the redhead and Buttercup has black hair.",
            GIRL,
            "Bubbles",
            Label.CORRECT,
        ),
        (
            "Answer: Blossom\nExplanation: Bubbles is the redhead and Buttercup has black hair.",
            GIRL,
            "Bubbles",
            Label.INCORRECT,
        ),
        ("Bubbles. Blossom is the blonde.", GIRL, "Bubbles", Label.INCORRECT),  # the asked word given to another
    ]
)
