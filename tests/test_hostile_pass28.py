"""Hostile pass 28 (issue #74): 40 cases written before they were run, as a careful user and a reward-hacking policy
would produce them in GRPO on KnowRL's data (5 whole completions under four presets, 3 jobs): no data loss, no stale
result, no crash. Closed here, each beside its control: an "Explanation:" section after the answer read as a second
answer (instruct models write it constantly), "one of whom" read as a second count, the asked superlative given to
another name ("Buzz Aldrin was the first, with Neil Armstrong following him."), the gold outdone in a comparison
("The Amazon is longer than the Nile." for the longest river). The review of pass 28's rules (170 cases, old against
new code) found 32 regressions (names read across full stops, "the first in space", "No planet is larger than
Jupiter", "one of them" as the count); 1 is left, marked unsure by the review.

Left (in the issue's note): "Neil Armstrong was the first, with Buzz Aldrin following him." INCORRECT (older than this
pass: the second name competes); "Bell is credited, though Meucci and Gray also have claims" INCORRECT; "It's a myth
that it is visible; in reality it is not." for the gold "No"; "It ended in 1918, having begun in 1914." INCORRECT;
the offline Binary RAR verifier reading justifications' names as wrong ones and a name the evidence holds in another
role as right (its documented limit: a wrong name, a list, a negation, a value; nothing subtler).
"""

from __future__ import annotations

from reward_engine.offline.grader import Label
from tests.helpers import grade_table

FRANCE = "What is the capital of France?"
AUSTEN = "Who wrote Pride and Prejudice?"
MOON = "Who was the first person to walk on the Moon?"
RIVER = "What is the longest river in the world?"
TEAM = "How many players does a football team have on the field?"


test_pass28_grades = grade_table(
    [
        ("Answer: Paris\nExplanation: It is the seat of government.", FRANCE, "Paris", Label.CORRECT),
        ("Answer: Lyon\nExplanation: It is the seat of government.", FRANCE, "Paris", Label.INCORRECT),
        ("Answer: Paris\nExplanation: Actually it is Lyon.", FRANCE, "Paris", Label.INCORRECT),
        ("Paris\n\nReason: The French government sits there.", FRANCE, "Paris", Label.CORRECT),
        (
            "**Answer:** Jane Austen\n\n**Explanation:** Pride and Prejudice (1813) is Austen's second novel, after "
            "Sense and Sensibility.",
            AUSTEN,
            "Jane Austen",
            Label.CORRECT,
        ),
        ("Charlotte Bronte. Pride and Prejudice is Austen's second novel.", AUSTEN, "Jane Austen", Label.INCORRECT),
        ("Paris\n\nLyon", FRANCE, "Paris", Label.INCORRECT),  # a blank line ends a sentence; two answers still
        ("Eleven players per side, one of whom is the goalkeeper.", TEAM, "11", Label.CORRECT),
        ("12 players, one of whom is the goalkeeper.", TEAM, "11", Label.INCORRECT),
        ("Buzz Aldrin was the first, with Neil Armstrong following him.", MOON, "Neil Armstrong", Label.INCORRECT),
        ("Buzz Aldrin was first; Neil Armstrong was second.", MOON, "Neil Armstrong", Label.INCORRECT),
        ("Neil Armstrong was first.", MOON, "Neil Armstrong", Label.CORRECT),
        ("The Amazon River, which is slightly longer than the Nile.", RIVER, "Nile", Label.INCORRECT),
        ("The Nile, which is longer than the Amazon.", RIVER, "Nile", Label.CORRECT),
        ("The Nile. Some argue the Amazon is longer than the Nile.", RIVER, "Nile", Label.CORRECT),
        # a clause giving the asked relation a value counts first, after a contrast or after "I think"
        (
            "I believe the capital of Australia is Sydney, although Parliament sits in Canberra.",
            "What is the capital of Australia?",
            "Canberra",
            Label.INCORRECT,
        ),
        (
            "Canberra. Many assume the capital is Sydney.",
            "What is the capital of Australia?",
            "Canberra",
            Label.CORRECT,
        ),
        # the review of pass 28 (170 cases, old against new code): 32 regressions, mended and pinned here
        ("Neil Armstrong. Yuri Gagarin was the first in space.", MOON, "Neil Armstrong", Label.CORRECT),
        ("Yes. He was the first.", "Was Neil Armstrong the first person on the Moon?", "Yes", Label.CORRECT),
        (
            "Nicholas II. Alexandra was the last Tsarina.",
            "Who was the last Tsar of Russia?",
            "Nicholas II",
            Label.CORRECT,
        ),
        ("Jupiter. Ganymede is the largest moon.", "What is the largest planet?", "Jupiter", Label.CORRECT),
        ("No planet is larger than Jupiter.", "What is the largest planet?", "Jupiter", Label.CORRECT),
        ("Jupiter. Only the Sun is larger than Jupiter.", "What is the largest planet?", "Jupiter", Label.CORRECT),
        (
            "China was more populous than India until 2023.",
            "What is the most populous country?",
            "India",
            Label.CORRECT,
        ),
        ("Only one of them, Paul McCartney.", "How many of the Beatles are alive and knighted?", "1", Label.CORRECT),
        ("Malia\n\nSasha", "What are the names of Barack Obama's daughters?", "Malia and Sasha", Label.CORRECT),
        ("Jane Austen. Actually, Cassandra wrote it, in Austen's name.", AUSTEN, "Jane Austen", Label.INCORRECT),
        ("Paris\nExplanation: The capital of France is Lyon.", FRANCE, "Paris", Label.INCORRECT),
        (
            "Canberra\nRationale: Sydney is the capital.",
            "What is the capital of Australia?",
            "Canberra",
            Label.INCORRECT,
        ),
        ("Paris\nExplanation: Lyon has been the capital since 1958.", FRANCE, "Paris", Label.INCORRECT),
        ("Paris is the largest city, and the capital is Lyon.", FRANCE, "Paris", Label.INCORRECT),
        ("I think the capital is Paris. Lyon, Marseille and Nice are other cities.", FRANCE, "Paris", Label.CORRECT),
        ("Paris. The capital is French-speaking, of course.", FRANCE, "Paris", Label.CORRECT),
    ]
)
