"""Rules found reading held-out set 13's misses (in-sample for set 13 from here): the precision a question asks
for, prose that is not a list, a list cut by semicolons, a trailing "is what I'd go with", a word asked for with
its article and a hedge, a pattern of numbers that is no value, and a span naming part of a multi-part gold.
Each case carries the rule in facts of our own, not the set's text."""

from __future__ import annotations

import pytest

from reward_engine.labels import Label
from reward_engine.offline import grader
from reward_engine.offline import reading as reading_module
from reward_engine.offline.answer_forms import asked_step, quantities
from reward_engine.stages import grade_guard
from reward_engine.stages.grade import _indefinite

C, I, N = Label.CORRECT, Label.INCORRECT, Label.NOT_ATTEMPTED  # noqa: E741 - the grade letters' initials

ROOT3 = "To two decimal places, what is the square root of 3?"
GOLDEN = "What is the golden ratio to three decimal places?"
LIGHT = "To three significant figures, what is the speed of light in metres per second?"


@pytest.mark.parametrize(
    ("question", "answer", "gold", "label"),
    [
        (ROOT3, "1.73", "1.73205", C),  # SimpleQA: precision the question does not ask for is not required
        (ROOT3, "About 1.73.", "1.73205", C),  # hedged at exactly the asked precision
        (ROOT3, "1.74", "1.73205", I),  # wrong at the asked precision
        (ROOT3, "1.7", "1.73205", I),  # coarser than asked and not the gold's rounding
        (GOLDEN, "1.618", "1.6180339", C),
        (GOLDEN, "1.619", "1.6180339", I),
        ("To one decimal place, how many centimetres are in an inch?", "2.5 cm", "2.54 cm", C),
        (LIGHT, "3.00 × 10^8 m/s", "299,792,458 m/s", C),
        (LIGHT, "3.10 × 10^8 m/s", "299,792,458 m/s", I),
        ("To the nearest thousand, how many metres high is Everest?", "9,000 metres", "8,849 metres", C),
        ("What is the square root of 3?", "1.7", "1.73205", I),  # no precision asked: the gold's holds
    ],
)
def test_the_precision_a_question_asks_for_is_the_precision_graded(question, answer, gold, label) -> None:
    assert grader.grade(answer, gold, question) is label
    assert grader.value_grade(answer, gold, question) is label


def test_asked_step_reads_places_figures_and_nearest() -> None:
    assert asked_step("to two decimal places", 1.0) == 0.01
    assert asked_step("To 1 decimal place", 1.0) == 0.1
    assert asked_step("to three significant figures", 0.0123) == pytest.approx(0.0001)
    assert asked_step("to the nearest hundred", 1234.0) == 100.0
    assert asked_step("How many decimal places does it have?", 1.0) is None  # no "to N": nothing asked
    assert asked_step(None, 1.0) is None


@pytest.mark.parametrize(
    ("answer", "gold", "several"),
    [
        # true detail in clauses after the answer: commas between clauses are no list
        (
            "A ferrule. Besides holding the bristles, it keeps the brush from splitting and makes it last.",
            "ferrule",
            False,
        ),
        (
            "Plants are clever because, unlike animals, they feed themselves. This is called photosynthesis.",
            "photosynthesis",
            False,
        ),
        ("Either way, the longest day of the year is known as the summer solstice.", "summer solstice", False),
        # still lists
        ("Lyon, Nice, Paris", "Paris", True),
        ("I think it could be Lyon, Nice or Paris.", "Paris", True),
        ("herd; pack; flock", "herd", True),  # a list cut by semicolons
        ("Herd; that's the word for it.", "herd", False),  # one answer, then a remark
    ],
)
def test_prose_is_not_a_list_and_a_semicolon_list_is(answer: str, gold: str, several: bool) -> None:
    assert grader.lists_guesses(answer, gold) is several


def test_is_what_id_go_with_commits_to_the_guess_after_a_refusal() -> None:
    question = "Which gland sits below the hypothalamus and controls other glands?"
    wrong, right = "I'm not certain. The thyroid is what I'd go with.", "Not sure. The pituitary is what I'd pick."
    assert grade_guard.commits(wrong, question) and grade_guard.commits(right, question)
    assert grader.grade(wrong, "pituitary gland", question) is I
    assert grader.grade(right, "pituitary gland", question) is C
    # the judge found the guess: the guard keeps its INCORRECT (it used to say no answer: NOT_ATTEMPTED)
    verdict = grade_guard.settle(I, "The thyroid", wrong, "pituitary gland", question)
    assert verdict.check is grade_guard.SpanCheck.KEPT


def test_a_word_asked_for_with_its_article_and_a_hedge_is_no_description() -> None:
    assert _indefinite("A politician.", "Who was known as the Iron Lady?")  # "known as" asks no word: describes
    called = "What is a group of crows called?"
    assert _indefinite("That's a murder, I think, though I mix it up with a flock.", called) is None
    assert _indefinite("A murder, I believe.", called) is None
    # without a question asking for a word, the same shape is a description (the fits question grades it)
    assert _indefinite("That's a murder, I think, though I mix it up with a flock.", "Who painted it?")
    assert _indefinite("A large black bird that lives in groups.", called)  # more than a word: describes


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("Twelve, I think, in a 3-4-5 pattern.", C),  # "3-4-5": a pattern, not three more numbers
        ("Eleven, in a 3-4-5 pattern.", I),
        ("Between 10-14.", N),  # two numbers stay a range: holding the gold, too vague
    ],
)
def test_a_hyphenated_pattern_of_numbers_is_no_value(answer: str, label: Label) -> None:
    question = "How many edges does a cube have?"
    assert grader.grade(answer, "12 edges", question) is label


def test_a_span_naming_part_of_a_multi_part_gold_is_not_confirmed() -> None:
    gold, question = "red, yellow and blue", "What are the three primary colours of paint?"
    verdict = grade_guard.check_span("Red and blue", "Red and blue.", gold, question)
    assert verdict.check is grade_guard.SpanCheck.REFUSED and "part" in verdict.reason
    assert grader.grade("Red and blue.", gold, question) is I  # the refused CORRECT takes this label
    assert grade_guard.check_span("red, yellow and blue", "Red, yellow and blue.", gold, question).check is (
        grade_guard.SpanCheck.CONFIRMED
    )


@pytest.mark.parametrize(
    ("question", "answer", "commits_to_it"),
    [
        # "give you" / "think of": the refusal's object is what is refused, the rest an aside
        (
            "What is the boiling point of ethanol in Celsius?",
            "I can't give you the figure, but vodka is about 40 percent.",
            False,
        ),
        (
            "Which instrument measures wind speed?",
            "I can't think of what it's called. Sailors once judged it by eye.",
            False,
        ),
        # a guess after the same refusals still commits
        ("Who directed the film?", "I couldn't tell you for sure, but I'd lean toward Kurosawa.", True),
        ("What is the instrument that measures wind speed called?", "I can't think of it. Maybe an anemometer?", True),
    ],
)
def test_a_refusal_to_give_or_think_of_it_sets_its_object_aside(
    question: str, answer: str, commits_to_it: bool
) -> None:
    assert grade_guard.commits(answer, question) is commits_to_it
    if not commits_to_it:  # the judge copied a number or name of the aside: still no answer (SimpleQA)
        verdict = grade_guard.settle(I, "40", answer, "78.37 °C", question)
        assert verdict.check is grade_guard.SpanCheck.NO_ANSWER


# --- read from set 14's misses (in-sample for set 14 from here) -----------------------------------------


def test_a_count_of_dozens_is_left_as_said() -> None:
    """Reading "twelve dozen" as 144 was tried (set 14) and reverted: "How many dozen are in a gross? 12 dozen." is
    then 144 against a gold of 12 (helper-28's review)."""
    assert grader.grade("A gross is 12 dozen.", "12", "How many dozen are in a gross?") is C
    assert grader.grade("1" * 5000 + " dozen", "12", "How many dozen are in a gross?") is I  # no huge int


def test_an_approximation_before_the_judges_span_belongs_to_it() -> None:
    question, gold = "How many square metres are in a hectare?", "10,000 square metres"
    answer = "Around ten thousand square metres."
    assert grade_guard.with_approximation("ten thousand square metres", answer) == "around ten thousand square metres"
    # one figure coarser than 11,000 and holding it: too vague (SimpleQA: NOT_ATTEMPTED); without its "around" the
    # span says 10,000, a wrong value. (Three figures coarser, as for 10,120, it is wrong either way: issue #74.)
    verdict = grade_guard.check_span("ten thousand square metres", answer, "11,000 square metres", question)
    assert verdict.check is grade_guard.SpanCheck.NO_ANSWER
    assert grader.grade(answer, "11,000 square metres", question) is N
    assert grader.grade("Ten thousand square metres.", "11,000 square metres", question) is I
    assert grader.grade(answer, "10,120 square metres", question) is I
    assert grade_guard.check_span(
        "ten thousand square metres", "Ten thousand square metres.", gold, question
    ).check is (grade_guard.SpanCheck.CONFIRMED)
    # "under" and "over" are prepositions too: "He served under 8 presidents" says 8
    served = "Under how many presidents did he serve?"
    assert grade_guard.check_span("8 presidents", "He served under 8 presidents.", "8", served).check is (
        grade_guard.SpanCheck.CONFIRMED
    )
    # a vague year is no answer, never the offline reading of the detail beside it
    when = "When was the tower completed?"
    verdict = grade_guard.check_span(
        "1889", "In 1889. It was the tallest structure for 41 years.", "31 March 1889", when
    )
    assert verdict.check is not grade_guard.SpanCheck.REFUSED


def test_examples_beside_a_named_answer_are_no_guesses() -> None:
    question = "What is the knife cut into thick sticks called?"
    assert not grader.lists_guesses(
        "Cooks call that a batonnet; it is often used for stews and stir-fries.", "batonnet"
    )
    assert not grader.lists_guesses(
        "Plants are clever because, unlike animals, they feed themselves. This is called photosynthesis.",
        "photosynthesis",
        question,
    )


@pytest.mark.parametrize(
    "answer",
    [
        # helper-28's review: each of these lists guesses (SimpleQA: INCORRECT), whatever a rule for prose says
        "Lyon, unless it's Paris",
        "Nice, unless it is Lyon, unless it is Marseille, unless it is Paris",
        "Paris, if not Lyon, if not Marseille",
        "Something like Lyon or Paris.",
        "Lyon, one of the other candidates being Paris",
    ],
)
def test_alternatives_in_other_words_are_still_a_list(answer: str) -> None:
    assert grader.lists_guesses(answer, "Paris", "What is the capital of France?")
    assert grader.grade(answer, "Paris", "What is the capital of France?") is I


def test_a_chain_of_numbers_is_a_pattern_only_as_a_pattern() -> None:
    question = "How many children did Darwin have?"
    assert grader.grade("7-8-9-10-11-12-13", "10", question) is I  # a run of guesses
    assert grader.grade("Darwin had 9-10-11 children.", "10", question) is I


@pytest.mark.parametrize(
    ("question", "answer", "commits_to_it"),
    [
        # the question's own word, capitalised at a sentence start, names nothing new
        (
            "What is a beaver's home called?",
            "I'm not sure what it's called. Beavers are rodents that build dams.",
            False,
        ),
        # a number beside a refusal answers no "which" / "who" question ...
        ("Which organ filters the blood?", "I don't know which organ that is. The body has 206 bones, though.", False),
        # ... but answers a question asking an amount
        ("How many bones does an adult human have?", "I'm not sure, but the body has 206 bones.", True),
        # a guess naming its answer after a cue commits to the name, whatever describes it before
        ("Who developed pasteurisation?", "I'm not certain; perhaps a French chemist named Louis Pasteur.", True),
        # ... but a named person in an aside is still an aside (helper-28's review)
        (
            "Who invented the telephone?",
            "I can't recall who invented it. I think the first long-distance call was made by a Scottish engineer "
            "named Watson.",
            False,
        ),
        (
            "Who composed the Water Music?",
            "I don't know who composed it. Baroque is what I'd say about its style.",
            False,
        ),
        # a number that is a title, guessed, still answers; a guess restating the question's word still answers
        (
            "Which album did Adele release in 2011?",
            "I'm not sure, but I think her album that year was titled 21.",
            True,
        ),
        (
            "Which metal is liquid at room temperature, mercury or gallium?",
            "I don't know for sure. Maybe Mercury.",
            True,
        ),
    ],
)
def test_what_a_refusal_leaves_commits_only_to_a_new_answer(question: str, answer: str, commits_to_it: bool) -> None:
    assert grade_guard.commits(answer, question) is commits_to_it


def test_a_description_after_an_adverb_is_still_a_description() -> None:
    assert _indefinite("It's just a young form of the insect.") == "a young form of the insect"


@pytest.mark.parametrize(
    ("answer", "gold", "label"),
    [
        ("5 feet 10 inches", "1.78 m", C),  # one height in two units, not two guesses
        ("5 feet and 10 inches", "1.78 m", C),
        ("6 feet 10 inches", "1.78 m", I),
        ("1 hour 30 minutes", "90 minutes", C),
        ("4 feet 8½ inches", "1,435 millimetres", C),  # "8½" is 8.5, not 81 (NFKC's "81⁄2")
        ("0.2 grams, so 200 mg.", "200 mg", C),  # a value restated after a comma is not added to itself
    ],
)
def test_a_measure_in_two_units_is_one_value(answer: str, gold: str, label: Label) -> None:
    assert grader.grade(answer, gold, "How long is it?") is label


def test_vulgar_fractions_are_decimals() -> None:
    assert [q.low for q in quantities("2½ hours")] == [2.5]
    assert grader.grade("8½", "8.5", "What is seventeen halves?") is C
    assert grader.grade("9" * 5000 + "½ metres", "8.5 m", "How long?") is I  # no int of 5,000 digits


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("At most 8", N),  # holds 8 itself: a bound holding the gold is too vague, not wrong
        ("At least 8", N),
        ("No more than 8 legs", N),
        ("Fewer than 8", I),  # strict bounds leave 8 out
        ("More than 8", I),
        ("At most 7", I),
        ("No fewer than 8", N),  # read whole: a bound from below (was "fewer than": from above)
        ("No fewer than 9", I),
        ("Not over 8", N),  # a negated strict bound holds its number
        ("Not beyond 7", I),
    ],
)
def test_inclusive_bounds_hold_their_own_number(answer: str, label: Label) -> None:
    assert grader.grade(answer, "8", "How many legs does a spider have?") is label


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("1.852 kilometres", C),  # the question's unit is the gold's when the gold has none
        ("1,852 metres", C),
        ("1.9 km", I),
        ("About 1.85 kilometres", N),  # one figure coarser, holding it: vague ("About 2 km", three coarser: wrong)
        ("About 2 kilometres", I),  # issue #74: an approximate value far coarser than the gold is another value
    ],
)
def test_a_gold_without_a_unit_takes_the_unit_the_question_asks(answer: str, label: Label) -> None:
    assert grader.grade(answer, "1852", "How many metres are in a nautical mile?") is label


def test_names_part_needs_a_list_gold_not_a_title_with_and() -> None:
    title = "Harry Potter and the Philosopher's Stone"
    verdict = grade_guard.check_span(
        "Harry Potter and the Sorcerer's Stone", "Harry Potter and the Sorcerer's Stone", title
    )
    assert verdict.check is not grade_guard.SpanCheck.REFUSED or "part" not in verdict.reason
    assert grader.names_part("red and blue", "red, yellow and blue")
    assert not grader.names_part("Health and Human Services", "Department of Health and Human Services")


def test_a_refusal_to_think_of_someone_other_than_a_name_is_no_refusal() -> None:
    assert not reading_module.is_abstention("I can't think of anyone other than Marie Curie.")
    assert reading_module.is_abstention("I can't think of what it's called.")
