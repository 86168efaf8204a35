"""Hostile pass 32 (issue #74): 40 cases written before they were run, on 80 of KnowRL's released RL questions and
golds (3 whole completions under four presets in the cold-start data's shape, 3 jobs: several gold aliases, a rerun
after the rows were reordered, a KB saved with a byte-order mark and CRLF line ends), run after passes 30-31's rules
and their reviews' mends: no data loss, no stale result, no crash; 15 findings. Closed here, each beside a control:
wrong answers paid right ("Mario Tennis Aces" for Mario Tennis; the gold only in a yes/no question the answer turns
down; "..., she finally divorces Jake."), a date said in two clauses paid as an abstention, and right answers paid
wrong: a possessive in a description read as a run of names, the loser as the sentence's subject ("Brazil lost to
Germany"), years and other counts beside a count, "52-card decks", a firm's name ("Skidmore, Owings & Merrill"),
"(fall 2011), partnered with ...".

Left (in the issue's note): "Damon" for "Damon Salvatore" (a first name alone), a gold listed first among successors
(debatable), and Binary RAR's evidence rule: a sentence answers the question only when it holds all but one of its
content words, so evidence worded otherwise ("the last Aztec emperor" for "the final ruler of the Aztec", "first
broadcast" for "first episode aired") answers nothing and any answer is paid 1 (the offline verifier's documented
limit; a judge model reads paraphrase).
"""

from __future__ import annotations

from reward_engine.offline.grader import Label
from tests.helpers import grade_table

DUDLEY = "Who was the bad guy in Dudley Do-Right?"
ANDREA = "Who does Andrea end up with in The Devil Wears Prada?"
WALUIGI = "What was the first game Waluigi was in?"
MATCH = "Who won the match between Brazil and Germany?"
GHOST = "How many seasons were there of Ghost Whisperer?"
CANASTA = "How many decks of cards are used to play Canasta?"
TOWER = "Who is the architect of One World Trade Center?"
ROB = "When was Rob Kardashian on Dancing with the Stars?"
CHANNEL5 = "When did Big Brother start on Channel 5?"
ALABAMA = "Who does Reese Witherspoon end up with in Sweet Home Alabama?"
DUBAI = "What is the name of the sea surrounding Dubai?"

test_pass32_grades = grade_table(
    [
        (
            "The bad guy is **Snidely Whiplash**, Dudley's mustache-twirling nemesis (confidence: high)",
            DUDLEY,
            "Snidely Whiplash",
            Label.CORRECT,
        ),
        (
            "Does Andrea end up with Nate? Not quite: she ends up with Christian Thompson.",
            ANDREA,
            "Nate",
            Label.INCORRECT,
        ),
        ("She ends up with Nate.", ANDREA, "Nate", Label.CORRECT),
        ("Mario Tennis Aces", WALUIGI, "Mario Tennis", Label.INCORRECT),
        ("Mario Tennis (2000)", WALUIGI, "Mario Tennis", Label.CORRECT),
        (
            "Michigan State University",
            "Which Big Ten school is nicknamed the Spartans?",
            "Michigan State",
            Label.CORRECT,
        ),
        ("Brazil lost to Germany 7\u20131 in the 2014 World Cup semi-final.", MATCH, "Germany", Label.CORRECT),
        ("Germany lost to Brazil.", MATCH, "Germany", Label.INCORRECT),
        (
            "Answer: 5\nExplanation: Ghost Whisperer ran for 5 seasons (107 episodes) on CBS from 2005 to 2010.",
            GHOST,
            "five",
            Label.CORRECT,
        ),
        ("6 seasons, from 2005 to 2010", GHOST, "five", Label.INCORRECT),
        ("Two standard 52-card decks plus four jokers, 108 cards in all.", CANASTA, "two", Label.CORRECT),
        ("Three standard 52-card decks.", CANASTA, "two", Label.INCORRECT),
        ("Eight, in two body segments", "How many legs does a spider have?", "8", Label.CORRECT),
        ("David Childs of Skidmore, Owings & Merrill (SOM)", TOWER, "David Childs", Label.CORRECT),
        ("Frank Gehry of Skidmore, Owings & Merrill", TOWER, "David Childs", Label.INCORRECT),
        ("**Season 13** (fall 2011), partnered with Cheryl Burke", ROB, "season\u00a0 13", Label.CORRECT),
        ("Season 13, Season 14", ROB, "season\u00a0 13", Label.INCORRECT),  # the gold's kind, another number
        (
            "Big Brother moved to Channel 5 in 2011; the first live show was on 18 August.",
            CHANNEL5,
            "18 August 2011",
            Label.CORRECT,
        ),
        ("In 2012; the first live show was on 18 August.", CHANNEL5, "18 August 2011", Label.INCORRECT),
        ("Andrew Hennings, the mayor's son; she finally divorces Jake.", ALABAMA, "Jake", Label.INCORRECT),
        ("She leaves Andrew and ends up with Jake.", ALABAMA, "Jake", Label.CORRECT),
        ("She divorced Jake.", "Who did Melanie divorce?", "Jake", Label.CORRECT),  # the question asks it
        # the gold only in a clause about another name (closed after pass 33's prose rule let it through)
        (
            "The Gulf of Oman, which connects to the Persian Gulf through the Strait of Hormuz.",
            DUBAI,
            "Persian Gulf",
            Label.INCORRECT,
        ),
        ("The Persian Gulf, which connects to the Gulf of Oman.", DUBAI, "Persian Gulf", Label.CORRECT),
    ]
)
