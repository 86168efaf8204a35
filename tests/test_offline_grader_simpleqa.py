"""The offline grader follows SimpleQA's grading rules: hedging never turns a wrong answer into a non-answer.

Every case below was written and labelled by hand under the rules in ``reward_engine/offline/grader.py``:
CORRECT states the gold and contradicts none of it (hedges allowed), INCORRECT commits to anything that
conflicts with it (hedged or not, lists of candidates included), NOT_ATTEMPTED commits to nothing
checkable at the gold's precision.
"""

from __future__ import annotations

import pytest

from reward_engine.labels import Label
from reward_engine.offline.grader import gold_aliases, grade, is_abstention

C, I, N = Label.CORRECT, Label.INCORRECT, Label.NOT_ATTEMPTED  # noqa: E741 - the grade letters' initials
OBAMA = "Malia Obama and Sasha Obama"


def cases(*rows):
    """pytest params from (id, answer, gold, label) rows."""
    return [pytest.param(answer, gold, label, id=case_id) for case_id, answer, gold, label in rows]


EXACT_AND_ALIASES = cases(
    ("exact", "Paris", "Paris", C),
    ("case-punct-article", "the PARIS.", "Paris", C),
    ("accents", "Sao Paulo", "São Paulo", C),
    ("alias-list", "Sasha", ["Malia", "Sasha"], C),
    ("alias-semicolon", "the Amazon", "Amazon River;the Amazon", C),
    ("head-before-comma", "San Francisco", "San Francisco, California", C),
    ("title-omitted", "Isaac Newton", "Sir Isaac Newton", C),
    ("initialism", "UK", "United Kingdom", C),
    ("sentence-with-gold", "The capital of France is Paris.", "Paris", C),
    ("extra-true-detail", "Paris. It is in France.", "Paris", C),
    ("gold-with-hedge-word", "I think it's Maybe Baby", "Maybe Baby", C),
    ("gold-with-refusal-words", "It's I Don't Know How to Love Him", "I Don't Know How to Love Him", C),
    ("plain-wrong", "Lyon", "Paris", I),
    ("cyrillic-a", "P\u0430ris", "Paris", I),
)

HEDGED_GOLD = cases(
    ("maybe-year", "maybe 1992", "1992", C),
    ("gold-but-not-sure", "Paris, but I'm not sure", "Paris", C),
    ("maybe-gold", "Maybe Paris", "Paris", C),
    ("i-think", "I think it's Paris.", "Paris", C),
    ("believe-was", "I believe it was Paris", "Paris", C),
    ("probably-could-be-wrong", "Probably Paris, though I could be wrong.", "Paris", C),
    ("bracketed-hedge", "Paris (I think).", "Paris", C),
    ("question-mark", "Paris?", "Paris", C),
    ("not-entirely-sure-but", "I'm not entirely sure, but I believe the answer is Paris", "Paris", C),
    ("dont-know-best-guess-gold", "I don't know. My best guess is Paris.", "Paris", C),
    ("if-i-recall", "Salzburg, if I remember correctly.", "Salzburg", C),
    ("fairly-confident", "It's Tokyo, I'm fairly confident.", "Tokyo", C),
    ("hedged-title", "Isaac Newton, I believe", "Sir Isaac Newton", C),
)

HEDGED_WRONG = cases(
    ("wrong-but-not-sure", "Lyon, but I'm not sure", "Paris", I),
    ("might-be", "I think it might be Lyon", "Paris", I),
    ("not-sure-possibly", "I'm not sure, possibly Lyon", "Paris", I),
    ("question-mark", "Lyon?", "Paris", I),
    ("maybe-year", "maybe 1993", "1992", I),
    ("is-my-guess", "Lyon is my guess", "Paris", I),
    ("not-sure-its", "I'm not sure it's Lyon", "Paris", I),
    ("not-sure-the-x-is", "I'm not sure the capital of France is Lyon", "Paris", I),
    ("perhaps-trailing", "No idea, Lyon perhaps", "Paris", I),
    ("unknown-bracket-guess", "unknown (possibly Lyon)", "Paris", I),
    ("lean-towards", "I can't be certain, though I'd lean towards Lyon", "Paris", I),
)

DONT_KNOW_PLUS_GUESS = cases(
    ("best-guess", "I don't know. My best guess is Lyon.", "Paris", I),
    ("dont-know-comma-guess", "I don't know, Lyon", "Paris", I),
    ("dont-know-but-think", "I don't know, but I think it is Lyon", "Paris", I),
    ("no-idea-maybe", "No idea. Maybe Lyon?", "Paris", I),
    ("cannot-answer-but-guess", "I cannot answer that for certain, but my guess would be 1988", "1992", I),
    ("dont-know-if", "I don't know if it's Lyon", "Paris", I),
    ("unsure-maybe-year", "Unsure - maybe 1968?", "1969", I),
    ("refusal-then-remark-with-new-name", "I don't know, but Lyon is a big city", "Paris", I),
)

CANDIDATE_LISTS = cases(
    ("or", "Paris or Lyon", "Paris", I),
    ("either-or-pairs", "either Malia and Sasha, or Malia and Jackie", OBAMA, I),
    ("extra-name", "Malia, Sasha, and Susan", OBAMA, I),
    ("and-list", "Paris and Lyon", "Paris", I),
    ("gold-second", "Lyon, Paris", "Paris", I),
    ("long-list", "Lyon, Marseille, Nice, Toulouse, Paris, Bordeaux", "Paris", I),
    ("maybe-second", "Paris, maybe Lyon", "Paris", I),
    ("and-possibly", "Paris and possibly Lyon", "Paris", I),
    ("two-sentences", "Paris. Maybe Lyon.", "Paris", I),
    ("numbered", "1. Paris 2. Lyon", "Paris", I),
    ("two-years", "1992 or 1993", "1992", I),
    ("if-x-or-y", "I don't know if it's Paris or Lyon", "Paris", I),
)

NON_ANSWERS = cases(
    ("dont-know", "I don't know", "Paris", N),
    ("need-context", "I need more context", "Paris", N),
    ("empty", "", "Paris", N),
    ("whitespace", "  \n", "Paris", N),
    ("not-sure", "I'm not sure.", "Paris", N),
    ("sorry-but", "I'm sorry, but I don't know.", "Paris", N),
    ("no-idea", "Honestly, I have no idea.", "Paris", N),
    ("restated-question", "I don't know who won the 1921 prize", "Albert Einstein", N),
    ("refused-relative-clause", "I don't know the exact date the treaty was signed", "1992", N),
    ("as-an-ai", "As an AI, I don't have access to that information.", "Paris", N),
    ("rather-not-guess", "I'd rather not guess.", "Paris", N),
    ("unknown", "Unknown", "Paris", N),
    ("hedge-only", "Maybe.", "Paris", N),
    ("true-side-remark", "Without researching I cannot answer; however Obama has two children", OBAMA, N),
)

VAGUE = cases(
    ("early-decade", "early 1990s", "1992", N),
    ("decade", "the 1990s", "1992", N),
    ("two-digit-decade", "in the 60s", "1969", N),
    ("century", "sometime in the 20th century", "1969", N),
    ("before-year", "before 2000", "1992", N),
    ("year-for-full-date", "2018", "10 May 2018", N),
    ("month-for-full-date", "May 2018", "10 May 2018", N),
    ("day-month-no-year", "10 May", "10 May 2018", N),
    ("over-magnitude", "over a hundred thousand", "120,000", N),
    ("around-magnitude", "around a hundred thousand", "120,000", N),
    ("plural-scale", "hundreds of thousands", "120,000", N),
    ("range-holding-gold", "between 110,000 and 130,000", "120,000", N),
    ("refusal-then-vague-date", "I don't know, but it happened in the 1990s", "1992", N),
)

NUMBERS = cases(
    ("k-exact", "120k", "120k", C),
    ("k-upper-in", "124k", "120k", C),
    ("k-lower-edge-in", "115k", "120k", C),
    ("k-upper-edge-out", "125k", "120k", I),  # the interval is [115k, 125k): the upper end is out
    ("k-too-low", "113k", "120k", I),
    ("k-too-high", "126k", "120k", I),
    ("k-one-figure", "100k", "120k", I),
    ("commas-for-k", "124,999", "120,000", C),
    ("thousand-word", "115 thousand", "120 thousand", C),
    ("approx-fine", "about 115k", "120k", C),
    ("approx-wrong", "about 200k", "120k", I),
    ("approx-same-step-wrong", "around 130,000", "120,000", I),
    ("bound-wrong", "under a hundred thousand", "120,000", I),
    ("decimal-trailing-zero", "3.50", "3.5", C),
    ("decimal-dropped", "3", "3.5", I),
    ("words", "twenty-three", "23", C),
    ("words-wrong", "twenty-four", "23", I),
    ("units", "8849 m", "8,849 metres", C),
    ("unit-off-by-one", "8,850 metres", "8,849 metres", I),
    ("small-count-exact", "104", "100", I),
)

DATES = cases(
    ("reordered", "10 May 2018", "May 10, 2018", C),
    ("iso", "2018-05-10", "May 10, 2018", C),
    ("ordinal-of", "the 20th of July, 1969", "20 July 1969", C),
    ("finer-than-year", "10 May 1992", "1992", C),
    ("year-in-sentence", "Apollo 11 landed in 1969.", "1969", C),
    ("around-year", "around 1992", "1992", C),
    ("wrong-day", "11 May 2018", "10 May 2018", I),
    ("wrong-month", "June 2018", "10 May 2018", I),
    ("wrong-year", "May 10, 2017", "May 10, 2018", I),
    ("wrong-decade", "the 1980s", "1992", I),
    ("wrong-part-of-decade", "early 1960s", "1969", I),
    ("wrong-century", "sometime in the 19th century", "1969", I),
    ("after-year-wrong", "after 2000", "1992", I),
    ("finer-wrong-year", "May 1993", "1992", I),
    ("two-dates", "10 May 2018 or 11 May 2018", "10 May 2018", I),
)

NEGATIONS = cases(
    ("not-gold", "Not Paris", "Paris", I),
    ("it-is-not", "It is not Paris", "Paris", I),
    ("gold-is-not", "Paris is not the capital", "Paris", I),
    ("dont-think", "I don't think it's Paris", "Paris", I),
    ("gold-not-other", "Paris, not Lyon", "Paris", C),
)

MULTI_PART = cases(
    ("given-names", "Malia and Sasha", OBAMA, C),
    ("reversed", "Sasha and Malia Obama", OBAMA, C),
    ("hedged-both", "most people would say Malia and Sasha, but I'm not sure and would have to double check", OBAMA, C),
    ("described", "his daughters Malia and Sasha", OBAMA, C),
    ("one-part", "Malia", OBAMA, I),
    ("one-full-part", "Malia Obama", OBAMA, I),
    ("one-part-hedged-about-rest", "one of them is Malia, but I'm not sure about the other", OBAMA, N),
    ("one-part-and-others", "Malia and others", OBAMA, N),
    ("one-right-one-wrong", "Malia and Jackie", OBAMA, I),
    ("wrong-count-remark", "While I don't know their exact names, Obama has three children", OBAMA, I),
    ("bare-wrong-count", "Obama has three children", OBAMA, I),
)


@pytest.mark.parametrize("answer,gold,label", EXACT_AND_ALIASES)
def test_exact_forms_and_aliases(answer, gold, label):
    assert grade(answer, gold) is label


@pytest.mark.parametrize("answer,gold,label", HEDGED_GOLD)
def test_a_hedged_gold_is_correct(answer, gold, label):
    assert grade(answer, gold) is label


@pytest.mark.parametrize("answer,gold,label", HEDGED_WRONG)
def test_a_hedged_wrong_answer_is_incorrect(answer, gold, label):
    assert grade(answer, gold) is label


@pytest.mark.parametrize("answer,gold,label", DONT_KNOW_PLUS_GUESS)
def test_i_dont_know_plus_a_wrong_guess_is_incorrect(answer, gold, label):
    assert grade(answer, gold) is label


@pytest.mark.parametrize("answer,gold,label", CANDIDATE_LISTS)
def test_several_candidates_are_incorrect(answer, gold, label):
    assert grade(answer, gold) is label


@pytest.mark.parametrize("answer,gold,label", NON_ANSWERS)
def test_real_non_answers_are_not_attempted(answer, gold, label):
    assert grade(answer, gold) is label


@pytest.mark.parametrize("answer,gold,label", VAGUE)
def test_vague_answers_are_not_attempted(answer, gold, label):
    assert grade(answer, gold) is label


@pytest.mark.parametrize("answer,gold,label", NUMBERS)
def test_numbers_to_the_gold_s_last_significant_figure(answer, gold, label):
    assert grade(answer, gold) is label


@pytest.mark.parametrize("answer,gold,label", DATES)
def test_dates_part_by_part(answer, gold, label):
    assert grade(answer, gold) is label


@pytest.mark.parametrize("answer,gold,label", NEGATIONS)
def test_negations(answer, gold, label):
    assert grade(answer, gold) is label


@pytest.mark.parametrize("answer,gold,label", MULTI_PART)
def test_multi_part_golds(answer, gold, label):
    assert grade(answer, gold) is label


# The same hedge around the gold and around a wrong answer: the hedge never changes which side wins.
HEDGES = [
    "{}",
    "{}, but I'm not sure",
    "I don't know. My best guess is {}.",
    "I think it might be {}",
    "I'm not sure, possibly {}",
    "Maybe {}?",
    "Not sure - {} perhaps.",
    "If I had to guess, {}.",
    "I can't say for certain; I'd say {}",
    "Honestly no idea, but probably {}",
]


@pytest.mark.parametrize("template", HEDGES)
@pytest.mark.parametrize("gold,wrong", [("Paris", "Lyon"), ("1992", "1993"), ("Salzburg", "Vienna")])
def test_hedging_never_turns_a_wrong_answer_into_a_non_answer(template, gold, wrong):
    assert grade(template.format(gold), gold) is C
    assert grade(template.format(wrong), gold) is I


@pytest.mark.parametrize(
    "answer,refusal",
    [
        ("I don't know", True),
        ("I'm not sure.", True),
        ("I don't know who won the 1921 prize.", True),
        ("Sorry, no idea.", True),
        ("I don't know. My best guess is Lyon.", False),
        ("Lyon, but I'm not sure", False),
        ("Maybe Lyon", False),
        ("Sure, it is Paris", False),
        ("early 1990s", False),
        ("", False),
    ],
)
def test_is_abstention_only_for_real_non_answers(answer, refusal):
    assert is_abstention(answer) is refusal


def test_gold_aliases_keep_multi_part_and_date_golds_whole():
    assert gold_aliases("Paris, France") == ["Paris, France", "Paris"]
    assert gold_aliases("Malia, Sasha, and Susan") == ["Malia, Sasha, and Susan"]
    assert gold_aliases("May 10, 2018") == ["May 10, 2018"]


def test_the_test_judge_grades_hedges_by_the_same_rules():
    """The test judge server answers grading prompts with this grader."""
    from judges.test_server import answer_for
    from reward_engine import prompts

    def letter(answer):
        messages = prompts.grader_messages("What is the capital of France?", "Paris", answer)
        content = "\n".join(m["content"] for m in messages)
        return prompts.parse_grade(answer_for(content)[1])

    got = [letter(a) for a in ("Lyon, but I'm not sure", "Paris, but I'm not sure", "I don't know")]
    assert got == [prompts.Label.INCORRECT, prompts.Label.CORRECT, prompts.Label.NOT_ATTEMPTED]


# Written and labelled by hand from what the 1.5B judge set exposed (2026-11-25): contracted refusals ("I'm",
# "I'd") were not read as refusals, a date or number with a comma was read as a list of guesses, a gold's
# year after a comma was dropped ("Athens, 1896" accepted "Athens"), and units written with ² broke the gold.
READ_AS_WRITTEN = cases(
    ("contracted-not-able", "I'm not able to answer that without checking a reference.", "Ulaanbaatar", N),
    ("contracted-look-up", "I'd need to look that up.", "6", N),
    ("check-a-reference", "I'd have to check a physics reference to give you the exact figure.", "299,792,458 m/s", N),
    ("answer-that-with-confidence", "I can't answer that with confidence, so I won't guess.", "Miguel de Cervantes", N),
    ("rather-not-answer", "I'm not certain, so I'd rather not answer.", "Titan", N),
    ("refusal-then-claim-still-a-claim", "I'm not sure that Lyon is right.", "Paris", I),
    # "... that X is right": the doubt names X; "... that is right" doubts what came before, or nothing
    ("doubted-subject-is-the-answer", "I am not sure that Paris is right.", "Paris", C),
    ("doubt-of-an-answer-given-before", "Paris, but I'm not sure that is correct.", "Paris", C),
    ("doubt-of-nothing-offered", "I don't know if that is right.", "Paris", N),
    ("doubt-of-the-answer", "I'm not sure whether the answer is correct.", "Paris", N),
    ("two-subjects-doubted", "I'm not sure if Paris or Lyon is correct.", "Paris", I),
    # ruling one out is no answer: "not Venus" beside Mars is not a second guess
    ("ruled-out-then-answer", "Not Venus, but Mars.", "Mars", C),
    ("ruled-out-then-answer-sentence", "It's not Venus, it's Mars.", "Mars", C),
    ("ruled-out-only", "It's not Venus.", "Mars", N),
    ("gold-ruled-out", "Not Mars but Venus.", "Mars", I),
    ("ruled-out-then-list", "Not Venus, Mars, Jupiter.", "Mars", I),  # a list after it is still a list
    ("ruled-out-sentence-then-list", "Not Mars. Venus, Jupiter.", "Venus", I),
    ("title-opening-with-not", "Not guilty.", "Not guilty by reason of insanity", I),  # part of the gold
    ("not-a-bound", "Not more than 5.", "7", I),
    # "seems right" is a hedge, not two more bare names beside the gold
    ("seems-right-after-a-refusal", "I don't know for certain, but Paris seems right.", "Paris", C),
    ("sounds-about-right", "Lyon sounds about right.", "Paris", I),
    ("date-with-comma", "July 20, 1969", "20 July 1969", C),
    ("fourth-of-july", "The Fourth of July, 1776.", "4 July 1776", C),
    ("year-after-comma-is-a-part", "Athens.", "Athens, 1896", I),
    ("both-parts", "Athens, 1896", "Athens, 1896", C),
    ("squared-unit", "9.81 m/s²", "9.8 m/s²", C),
    ("squared-unit-approx", "About 7.69 million square kilometres.", "7.7 million km²", C),
    ("minus-in-words", "Minus 273.15 degrees Celsius.", "\u2212273.15 \u00b0C", C),
)


@pytest.mark.parametrize("answer, gold, label", READ_AS_WRITTEN)
def test_answers_read_as_written(answer, gold, label):
    assert grade(answer, gold) is label


@pytest.mark.parametrize(
    "answer, gold, listed",
    [
        ("July 20, 1969", "20 July 1969", False),
        ("42,195 metres", "42.195 km", False),
        ("299,792,458 m/s", "299,792 km/s", False),
        ("206, 208 or 210", "206", True),
        ("July 20 or July 21, 1969", "20 July 1969", True),
        ("Lyon, Nice, Paris", "Paris", True),
    ],
)
def test_a_value_with_a_comma_is_not_a_list_of_guesses(answer, gold, listed):
    from reward_engine.offline.grader import lists_guesses

    assert lists_guesses(answer, gold) is listed


@pytest.mark.parametrize(
    "answer, gold, label, listed",
    [
        # a bound, then a value inside it: one answer, graded by the narrower value (held-out set 9's p096)
        ("It was just under 100, about 99.9.", "99.94", Label.NOT_ATTEMPTED, False),
        ("Just under 100: 99.94.", "99.94", Label.CORRECT, False),
        ("About 115k, well over a hundred thousand.", "115,000", Label.CORRECT, False),
        ("Between 115k and 125k, about 120k.", "120,000", Label.CORRECT, False),  # the point, whatever the order
        ("About 120k, between 115k and 125k.", "120,000", Label.CORRECT, False),
        ("Between 110 and 130 thousand, about 112k.", "120,000", Label.INCORRECT, False),
        ("Over 90 but under 110.", "100", Label.NOT_ATTEMPTED, False),  # two bounds: the range they leave
        ("Over 110 but under 90.", "100", Label.INCORRECT, True),
        # values that do not nest are guesses: a value outside the bound, two points, the bound's own end
        ("It was over 100, about 99.9.", "99.94", Label.INCORRECT, True),
        ("Either 99 or 100.", "100", Label.INCORRECT, True),
        ("Under 100, exactly 100.", "100", Label.INCORRECT, True),
        # two points are two guesses even when a rounded one's span holds the other; "or" offers alternatives
        ("About 100, or maybe 120.", "120", Label.INCORRECT, True),
        ("99 or about 100.", "99", Label.INCORRECT, True),
        ("Either 99.9 or just under 100.", "99.94", Label.INCORRECT, True),
        ("At least 5, or 7.", "7", Label.INCORRECT, True),
    ],
)
def test_a_value_that_narrows_a_bound_is_one_answer(answer, gold, label, listed):
    from reward_engine.offline.grader import lists_guesses

    assert (grade(answer, gold), lists_guesses(answer, gold)) == (label, listed)


@pytest.mark.parametrize(
    "answer, gold, label",
    [
        # a value in another unit is compared in the gold's: converted, at the answer's own precision
        ("29,032 ft", "8,849 m", Label.CORRECT),
        ("212 °F", "100 °C", Label.CORRECT),  # temperatures as points, not as differences
        ("26.2 miles", "42.195 km", Label.CORRECT),
        ("Just under 9 km.", "8,849 m", Label.NOT_ATTEMPTED),  # a bound holding the gold, in km
        ("Just under 8 km.", "8,849 m", Label.INCORRECT),
        ("About 300 metres.", "984 ft", Label.NOT_ATTEMPTED),  # coarser than the gold
        ("27,000 ft", "8,849 m", Label.INCORRECT),
        ("Between 25 and 27 miles.", "42.195 km", Label.NOT_ATTEMPTED),
        # powers of ten are one number (NFKC alone makes "10²⁴" 1024); a unit's exponent is no number
        ("5.97 × 10²⁴ kg", "5.97 × 10^24 kg", Label.CORRECT),
        ("5.97e24 kg", "5.97 × 10^24 kg", Label.CORRECT),
        ("7 x 10^24 kg", "5.97 × 10^24 kg", Label.INCORRECT),
        ("6.022e23 mol^-1", "6.022 × 10^23 per mole", Label.CORRECT),  # judge set 1's h088
        ("6.022 x 10^23 mol⁻¹", "6.022 × 10^23 per mole", Label.CORRECT),
        ("1.602 × 10⁻¹⁹ C", "1.602 × 10^-19 C", Label.CORRECT),
        ("About 10^6.", "1,000,000", Label.NOT_ATTEMPTED),
        ("10^6 or 10^7", "1,000,000", Label.INCORRECT),
        # a year and its month or day said apart are one date; two years are two; centuries do not overlap
        ("1945, in September.", "1945", Label.CORRECT),
        ("1912 (April 15)", "15 April 1912", Label.CORRECT),
        ("1912 (April 16)", "15 April 1912", Label.INCORRECT),
        ("In May 1944 or September 1945.", "1945", Label.INCORRECT),
        ("15th century", "14th century", Label.INCORRECT),
        ("The 1300s.", "14th century", Label.CORRECT),
        ("Nineteen forty-five.", "1945", Label.CORRECT),  # a year said in pairs, not 19 + 40 + 5
        # beside a count, years are detail, not other guesses (unless they are the only number)
        ("It lasted 56 games, from May to July 1941.", "56", Label.CORRECT),
        ("He won it five times (1951, 1954, 1955, 1956 and 1957).", "5", Label.CORRECT),
        ("1941 games", "56", Label.INCORRECT),
        ("56 or 57 games, in 1941", "56", Label.INCORRECT),
        ("Twenty twenty-one.", "2020", Label.INCORRECT),
        # a review's cases (helper-23): no crash, "or" before years, alternatives inside a date, ambiguous units
        ("1e999", "5", Label.INCORRECT),
        ("5 or 1951", "5", Label.INCORRECT),
        ("1500 soldiers, 300", "300", Label.INCORRECT),
        ("1945, either May or September.", "September 1945", Label.INCORRECT),
        ("1945 (September 2 or 3)", "2 September 1945", Label.INCORRECT),
        ("1,000 tons", "1,000 tonnes", Label.CORRECT),
        ("200 Calories", "200 kcal", Label.CORRECT),
    ],
)
def test_a_value_is_read_as_said(answer, gold, label):
    """Units converted to the gold's, powers of ten, dates said in parts, years beside a count (2026-11-28p)."""
    assert grade(answer, gold) is label


def test_whole_word_search_matches_the_regex_it_replaced() -> None:
    """word_starts is the matches of (?<!\\w)needle(?!\\w) (unicode word characters, non-overlapping), found
    without compiling a regex per gold; 20,000 random texts over word, non-word and non-ASCII characters."""
    import random
    import re

    from reward_engine.offline.reading import find_word, word_starts

    rng = random.Random(1)
    alphabet = ["a", "b", "_", " ", "é", "1", ".", "-", "ß", "\u0663", "\u00b2"]
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        needle = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 3)))
        expected = [m.start() for m in re.finditer(rf"(?<!\w){re.escape(needle)}(?!\w)", text)]
        assert list(word_starts(text, needle)) == expected, (text, needle)
        assert find_word(text, needle) == (expected[0] if expected else -1)
    assert find_word("an alkali metal", "k") == -1 and find_word("K-pop", "K") == 0 and find_word("x", "") == -1


@pytest.mark.parametrize(
    "answer,label",
    [
        ("Eight legs, in four pairs.", C),  # a count of something else is detail, not a second guess
        ("8 legs on 2 body parts", C),
        ("Six legs, in three pairs.", I),
        ("Eight or ten legs.", I),  # two counts of what was asked: a list
        ("8 legs, or maybe 10 legs", I),
        ("Several legs.", N),  # a count without a figure: too vague to check (SimpleQA: NOT_ATTEMPTED)
        ("Many, all jointed.", N),
        ("Lots of legs, arranged in pairs.", N),  # no figure, so no list of figures either
    ],
)
def test_how_many_reads_the_count_of_what_was_asked(answer, label):
    """Set 15 (read after its run, so in-sample) and the rule's own probes: "8 strings, in 4 pairs" was two guesses
    (INCORRECT) and "several strings, arranged in pairs" a list (INCORRECT, not vague)."""
    assert grade(answer, "eight", "How many legs does a spider have?") is label


def test_a_vague_count_contradicts_a_gold_of_one_or_two() -> None:
    assert grade("Several.", "two", "How many moons does Mars have?") is I
    assert grade("A few.", "one", "How many hearts does a human have?") is I
    assert grade("It lasted 56 games, from May to July 1941.", "56", "How many consecutive games did it last?") is C
    assert grade("Seventeen, in a 5-7-5 pattern.", "17", "How many syllables does a haiku have?") is C


@pytest.mark.parametrize(
    "answer,label",
    [
        ("It's Paris, I think, close to the river.", C),  # where it lies, said after it: detail
        ("Paris, next to the Seine.", C),
        ("It's Lyon, I think, close to the river.", I),
        ("Lyon, near Paris.", I),  # the gold as a landmark for another place
        ("Paris. Lyon.", I),  # another short answer still competes
    ],
)
def test_where_the_answer_lies_is_no_second_answer(answer, label):
    """A session note's case: "close to the river" after "It's Paris, I think" read as a competing answer."""
    assert grade(answer, "Paris", "What is the capital of France?") is label


@pytest.mark.parametrize(
    "answer,gold,question,label",
    [
        # a sentence with true-or-not detail around the gold is one answer (SimpleQA: CORRECT), however long
        (
            "Norway gained its independence from the union with Sweden in 1905.",
            "1905",
            "In what year did Norway gain independence?",
            C,
        ),
        (
            'The 1954 novel "Lord of the Flies" by William Golding is a classic tale of boys on an island',
            "William Golding",
            'Who wrote "Lord of the Flies"?',
            C,
        ),
        (
            "Chopin, the Polish composer who spent most of his later life in Paris.",
            "Chopin",
            "Who composed the Minute Waltz?",
            C,
        ),
        (
            "It is a famous portrait of art and history by Rembrandt, painted in 1642.",
            "Rembrandt",
            "Who painted it?",
            C,
        ),
        # ... but names in a row, or a second guess said as a clause, are guesses
        ("it is oslo bergen trondheim stavanger tromso drammen", "Oslo", "What is the capital of Norway?", I),
        ("Oslo. It might also be Bergen.", "Oslo", "What is the capital of Norway?", I),
        ("oslo is the answer and so is bergen", "Oslo", "What is the capital of Norway?", I),
        ("Oslo, which might also be called Christiania.", "Oslo", "What is the capital of Norway?", C),
        # a one-letter slip inside a long name is the same name; a short name or an added ending is not
        ("The capital of Kyrgyzstan is Bishkeq.", "Bishkek", "What is the capital of Kyrgyzstan?", C),
        ("Columbia", "Colombia", "Which country has Bogotá as its capital?", C),
        ("Iraq", "Iran", "Which country has Tehran as its capital?", I),
        ("Iceland", "Ireland", "Which country has Dublin as its capital?", I),  # one letter, but not alike
        ("Libria", "Liberia", "Which country has Monrovia as its capital?", C),  # a vowel dropped
        ("The Dominican Republic.", "Dominica", "Which country has Roseau as its capital?", I),
    ],
)
def test_long_answers_misspellings_and_clause_guesses(answer, gold, question, label):
    """Section 2 of real_judge.md (300 answers of SmolLM2): 35 the 1.5B judge called CORRECT were INCORRECT offline,
    28 of them right answers in one sentence with detail (the grader took any 7+ extra words for a shotgun list)."""
    assert grade(answer, gold, question) is label


@pytest.mark.parametrize(
    ("answer", "question", "label"),
    [
        ("Bizet", "Which composer wrote the opera Carmen?", C),
        ("Probably Bizet, if I remember right.", "Which composer wrote the opera Carmen?", C),
        ("I don't know. Bizet would be my guess.", "Which composer wrote the opera Carmen?", C),
        ("Verdi", "Which composer wrote the opera Carmen?", I),
        ("William Bizet", "Which composer wrote the opera Carmen?", I),  # another given name: another person
        ("Bizet or Verdi", "Which composer wrote the opera Carmen?", I),
        ("Bizet", "What full name is carved on the plaque?", I),  # no person asked: the whole name is
    ],
)
def test_a_persons_family_name_alone_names_them(answer, question, label):
    """SimpleQA takes "Bizet" for who wrote Carmen (gold Georges Bizet): the family name alone, with no other
    given name before it, names the person a question asks for; the earlier reading called it INCORRECT."""
    assert grade(answer, "Georges Bizet", question) is label


def test_a_family_name_the_question_says_answers_nothing() -> None:
    """ "Which Brontë sister ...?" is not answered by "Brontë", nor "Who was the Wright brother ...?" by "Wright"."""
    assert grade("Brontë", "Charlotte Brontë", "Who among the Brontë sisters wrote Jane Eyre?") is I
    assert grade("Great", "Alexander the Great", "Who conquered Persia?") is I  # an epithet is no family name


@pytest.mark.parametrize(
    "said",
    [
        "No idea, but {} comes to mind.",
        "I don't remember. {} springs to mind.",
        "Can't say for sure. {}, if I had to pick.",
    ],
)
def test_a_guess_after_a_refusal_is_graded_on_the_guess(said):
    """SimpleQA grades a refusal followed by a guess on the guess, right or wrong alike; before, "X comes to
    mind" after a refusal and "X, if I had to pick" read as no answer (NOT_ATTEMPTED) for both."""
    question = "Which composer wrote the opera Carmen?"
    assert grade(said.format("Georges Bizet"), "Georges Bizet", question) is C
    assert grade(said.format("Giuseppe Verdi"), "Georges Bizet", question) is I


@pytest.mark.parametrize(
    "answer", ["Nothing comes to mind.", "No composer's name springs to mind.", "No one comes to mind."]
)
def test_nothing_coming_to_mind_is_a_refusal(answer):
    """ "Nothing comes to mind" names no answer: NOT_ATTEMPTED (it read as a wrong answer before)."""
    assert grade(answer, "Georges Bizet", "Which composer wrote the opera Carmen?") is N
    assert is_abstention(answer)


# What the in-sample judge sets' hand labels read otherwise than the rules did (sets 12-20 at fe1fbcb, 11 cases): an
# approximate value two figures coarser than the gold that holds it is vague, a refusal worded without "I don't know"
# is a refusal. Three figures coarser stays a wrong value (issue #74's "about 9,000 metres").
WHITNEY = "What is the height of Mount Whitney in metres?"
JUDGE_SET_READINGS = [
    ("Roughly 4,400 metres.", "4,421 m", WHITNEY, N),
    ("Around 1,100 degrees Celsius.", "1,085 °C", "What is the melting point of copper in degrees Celsius?", N),
    ("About 4,500 metres", "4,421 m", WHITNEY, I),  # holds it not at its own precision
    ("about 9,000 metres", "8,849 m", "How tall is Mount Everest?", I),
    ("That's beyond what I can reliably recall.", "John Ridley Stroop", "Who first described the Stroop effect?", N),
    ("That's outside what I can reliably tell you.", "Wilbur Scoville", "Who devised the chili heat scale?", N),
    (
        "i can't help with that one, I just don't know it well enough",
        "Ephemeroptera",
        "To which order do mayflies belong?",
        N,
    ),
    ("I can't help but think it's Paris.", "Paris", "What is the capital of France?", C),
]


@pytest.mark.parametrize("answer,gold,question,label", JUDGE_SET_READINGS)
def test_what_the_judge_sets_hand_labels_read(answer, gold, question, label):
    assert grade(answer, gold, question) == label
