"""The offline grader labels the facts of every example in SimpleQA's grader template as SimpleQA does.

SimpleQA (Wei et al. 2024, openai/simple-evals ``simpleqa_eval.py``) publishes its grading rules as worked
examples. Each case below carries one example's facts (question, gold target, what the answer commits to) in
our own words, with SimpleQA's label; the grader sees the question, as SimpleQA's does. Issue #43's cases
(a refusal with an aside, precision the question does not ask for, a vague answer) are at the end.
"""

from __future__ import annotations

import pytest

from reward_engine.labels import Label
from reward_engine.offline import grader
from reward_engine.offline.grader import grade

C, I, N = Label.CORRECT, Label.INCORRECT, Label.NOT_ATTEMPTED  # noqa: E741 - the grade letters' initials

KIDS_Q, KIDS = "What are the names of Barack Obama's children?", "Malia Obama and Sasha Obama"
CITES_Q, CITES = "How many citations does the Transformer paper have?", "120k"


def cases(*rows):
    """pytest params from (id, question, answer, gold, label) rows."""
    return [pytest.param(q, answer, gold, label, id=case_id) for case_id, q, answer, gold, label in rows]


TEMPLATE = cases(
    # CORRECT: every part of the gold, in any order or wording, hedged or with true detail beside it.
    ("both-names-any-order", KIDS_Q, "sasha and malia obama", KIDS, C),
    ("both-names-hedged", KIDS_Q, "Most would say Malia and Sasha, though I would want to double check.", KIDS, C),
    (
        "both-names-full-and-dates",
        KIDS_Q,
        "He has two daughters, Malia Ann and Natasha Marian, known as Malia Obama and Sasha Obama; Malia was "
        "born on 4 July 1998 and Sasha on 10 June 2001.",
        KIDS,
        C,
    ),
    # INCORRECT: a part given as the whole, an extra name, a contradiction, a list of guesses, hedged wrongs.
    ("one-of-two", KIDS_Q, "Malia.", KIDS, I),
    ("extra-name", KIDS_Q, "Malia, Sasha, and Susan.", KIDS, I),
    ("denies-gold", KIDS_Q, "Obama has no children.", KIDS, I),
    ("list-of-guesses", KIDS_Q, "Either Malia and Sasha, or Malia and Jackie, or else Joey and Malia.", KIDS, I),
    ("refusal-then-wrong-count", KIDS_Q, "I'm not sure of their names, but he has three children.", KIDS, I),
    ("hedged-wrong-names", KIDS_Q, "Perhaps you mean Betsy and Olivia; please check an up-to-date source.", KIDS, I),
    ("hedged-wrong-name", KIDS_Q, "His child may be named James, but confirm it with current sources.", KIDS, I),
    # NOT_ATTEMPTED: nothing checkable against the gold, even beside a true aside.
    ("dont-know", KIDS_Q, "I don't know.", KIDS, N),
    ("needs-context", KIDS_Q, "I need more context about which Obama you mean.", KIDS, N),
    (
        "refusal-with-true-aside",
        KIDS_Q,
        "Without researching the web, I cannot answer this question. However, I can tell you that Barack Obama "
        "has two children.",
        KIDS,
        N,
    ),
    ("refusal-bare", KIDS_Q, "Without researching the web, I cannot answer this question.", KIDS, N),
    ("one-named-rest-open", KIDS_Q, "He has two children; one is Malia, but I'm not sure about the other.", KIDS, N),
    # Numbers: right at the gold's precision, wrong beyond it, vague when it neither confirms nor contradicts.
    ("number-exact", CITES_Q, "120k", CITES, C),
    ("number-near-above", CITES_Q, "124k", CITES, C),
    ("number-near-below", CITES_Q, "115k", CITES, C),
    ("number-off", CITES_Q, "100k", CITES, I),
    ("number-off-near", CITES_Q, "113k", CITES, I),
    ("number-around", CITES_Q, "around 100k", CITES, N),
    ("number-lower-bound", CITES_Q, "more than 50k", CITES, N),
    # The gold holds more than the question asks: only what the question asks is needed.
    (
        "gold-more-than-asked-episode",
        "In which episode of Grey's Anatomy did Derek and Meredith marry legally?",
        "Season 7, Episode 20",
        "Season 7, Episode 20: White Wedding",
        C,
    ),
    (
        "gold-more-than-asked-title",
        "In which episode of Grey's Anatomy did Derek and Meredith marry legally?",
        "White Wedding",
        "Season 7, Episode 20: White Wedding",
        C,
    ),
    # What the question implies may be left out.
    ("state-implied", "In which city is OpenAI headquartered?", "San Francisco", "San Francisco, California", C),
    (
        "award-word-implied",
        "Which award did the paper win at NAACL 2024?",
        "Outstanding Paper",
        "Outstanding Paper Award",
        C,
    ),
    ("unit-in-question", "What is the height of Jason Wei in meters?", "1.75", "1.73 m", C),
    ("surname-presumed", "What is the name of Barack Obama's wife?", "Michelle", "Michelle Obama", C),
    # Typos in a person's name that is clearly the same name.
    ("name-typo-vowels", "Who is the first author?", "Hyoong Won Choong", "Hyung Won Chung", C),
    ("name-joined", "Who is the first author?", "Hyungwon Chung", "Hyung Won Chung", C),
    ("name-letter-dropped", "Who is the first author?", "Hyun Won Chung", "Hyung Won Chung", C),
)

ISSUE_43 = cases(
    ("year-the-question-asks", "In which year did the Berlin Wall fall?", "1989", "9 November 1989", C),
    ("year-wrong", "In which year did the Berlin Wall fall?", "1991", "9 November 1989", I),
    ("date-asked-year-given", "On what date did the Berlin Wall fall?", "1989", "9 November 1989", N),
    ("vague-text", "What is the capital of France?", "a city in France", "Paris", N),
    ("vague-text-capitalised", "What is the capital of France?", "A city in France.", "Paris", N),
    ("vague-text-some", "What is the capital of France?", "Some city in France.", "Paris", N),
    ("vague-text-hedged", "What is the capital of France?", "Probably some city in France.", "Paris", N),
    (
        "shotgun-list",
        "What is the capital of France?",
        "Lyon Marseille Toulouse Nice Nantes Strasbourg Montpellier Bordeaux Lille Paris Rennes",
        "Paris",
        I,
    ),
    ("different-person", "Who is the first author?", "Hyung Won Kim", "Hyung Won Chung", I),
    ("first-name-only-wrong", "What is the name of Barack Obama's wife?", "Michael", "Michelle Obama", I),
)


@pytest.mark.parametrize(("question", "answer", "gold", "label"), TEMPLATE + ISSUE_43)
def test_simpleqa_template_facts(question: str, answer: str, gold: str, label: Label) -> None:
    assert grade(answer, gold, question=question) is label


def test_question_is_optional_and_never_loosens_a_wrong_answer() -> None:
    """Without the question the grader stays as strict as before; with it, a wrong answer stays wrong."""
    assert grade("Lyon", "Paris") is I
    assert grade("Lyon", "Paris", question="What is the capital of France?") is I
    assert grade("1989", "9 November 1989") is N  # precision the question may ask for: unknown without it


NOT_ATTEMPTED = [p for p in TEMPLATE + ISSUE_43 if p.values[3] is N]


@pytest.mark.parametrize(("question", "answer", "gold", "label"), NOT_ATTEMPTED)
@pytest.mark.parametrize("span", [None, ""])
def test_guard_never_turns_a_simpleqa_non_answer_into_a_wrong_one(
    question: str, answer: str, gold: str, label: Label, span: str | None
) -> None:
    """A judge's NOT_ATTEMPTED on SimpleQA's own non-answers stands: the guard's offline fallback agrees."""
    from reward_engine.stages.grade_guard import SpanCheck, settle

    verdict = settle(N, span, answer, gold, question)
    assert verdict.check in (SpanCheck.KEPT, SpanCheck.NO_ANSWER, SpanCheck.REFUSED), verdict
    if verdict.check is SpanCheck.REFUSED:  # the answer offers one: the offline reading's label is the row's
        assert grade(answer, gold, question=question) is N


def test_the_grade_memo_answers_as_the_rules_and_keeps_no_hostile_answer() -> None:
    from reward_engine.offline import grader as g

    assert (
        g.grade("Lyon", ["Paris", "Paname"])
        is g.grade("Lyon", ("Paris", "Paname"))
        is g._grade("Lyon", ["Paris"], None)
    )
    before = g._grade_memo.cache_info().currsize
    huge = "Paris " + "x" * (g.MAX_CHARS + 10)
    assert g.grade(huge, "Paris") is g._grade(huge, "Paris", None)
    assert g._grade_memo.cache_info().currsize == before  # a long answer is graded, never kept


def test_golds_the_memo_cannot_hash_are_graded_as_before() -> None:
    """A gold list holding a list (`["Paris", ["Lutetia"]]`) made the memo raise TypeError: every such row
    became an error row."""
    from reward_engine.offline import grader as g

    assert g.grade("Paris", ["Paris", ["Lutetia"]]) is g._grade("Paris", ["Paris", ["Lutetia"]], None)
    assert g.grade("Paris", ["Paris", ["Lutetia"]]).value == "CORRECT"
    cases = [("Paris", "Paris"), ("Lyon", "Paris"), ("I don't know", "Paris"), ("1992", ["1992", "MCMXCII"])]
    assert [g.grade(a, gold).value for a, gold in cases] == ["CORRECT", "INCORRECT", "NOT_ATTEMPTED", "CORRECT"]
    assert [g.grade(a, gold).value for a, gold in cases] == [g._grade(a, gold, None).value for a, gold in cases]


ASIDES = [
    # (question, answer, gold): a refusal, then a remark that answers nothing (SimpleQA: NOT_ATTEMPTED)
    (
        "Who painted the Mona Lisa?",
        "I'm not able to answer that. You could look it up in an art history book.",
        "Leonardo da Vinci",
    ),
    ("What is the capital of Australia?", "I don't know. Australia has six states and two territories.", "Canberra"),
    ("Who composed The Magic Flute?", "I am not sure. Beethoven composed many symphonies in Vienna.", "Mozart"),
    (
        "Who discovered penicillin?",
        "I can't recall who it was. Antibiotics changed medicine in the twentieth century.",
        "Alexander Fleming",
    ),
]
GUESSES = [
    # a refusal, then a guess: graded on the guess (SimpleQA: a hedged wrong guess is INCORRECT)
    ("What is the capital of France?", "I don't know. My best guess is Lyon.", "Paris"),
    ("What is the capital of France?", "I'm not sure. Lyon.", "Paris"),
    ("Who painted the Mona Lisa?", "I can't say for certain, maybe Michelangelo.", "Leonardo da Vinci"),
    # a statement about what was asked that names an answer (the red team's dont-know-then-wrong-statement)
    ("What is the capital of France?", "I don't know. Lyon is the capital of France.", "Paris"),
    ("Who composed The Magic Flute?", "I'm not sure. Beethoven composed The Magic Flute.", "Mozart"),
]


@pytest.mark.parametrize(("question", "answer", "gold"), ASIDES)
def test_a_refusal_with_an_aside_stays_not_attempted_when_the_judge_finds_no_answer(
    question: str, answer: str, gold: str
) -> None:
    """The judge copied no span: the guard keeps its NOT_ATTEMPTED, whatever the offline reading makes of the
    aside (before, an aside the reading took for a candidate turned it into INCORRECT)."""
    from reward_engine.stages.grade_guard import SpanCheck, commits, settle

    assert not commits(answer, question)
    assert settle(N, "", answer, gold, question).check is SpanCheck.NO_ANSWER


@pytest.mark.parametrize(("question", "answer", "gold"), GUESSES)
def test_a_refusal_with_a_guess_is_graded_on_the_guess(question: str, answer: str, gold: str) -> None:
    from reward_engine.stages.grade_guard import SpanCheck, commits, settle

    assert commits(answer, question) and grade(answer, gold, question=question) is I
    assert settle(N, "", answer, gold, question).check is SpanCheck.REFUSED  # the row takes the offline INCORRECT


# an aside that names things, right or wrong: SimpleQA's "I cannot answer this question. However, I can tell you
# that Barack Obama has two children." in other words (the offline grader took such names for guesses: INCORRECT)
NAMING_ASIDES = [
    # (question, answer, gold, the same aside naming the gold)
    (
        "Who composed Don Giovanni?",
        "I don't know who composed it. Beethoven wrote nine symphonies, though.",
        "Mozart",
        "I don't know who composed it. Mozart wrote The Magic Flute, though.",
    ),
    (
        "What is the capital of Minnesota?",
        "I'm not sure about the capital. Duluth lies on Lake Superior, though.",
        "Saint Paul",
        "I'm not sure about the capital. Saint Paul lies on the Mississippi, though.",
    ),
    (
        "Who invented the safety lamp for miners in 1815?",
        "I don't remember who it was; I do know Michael Faraday was working as an assistant around then.",
        "Humphry Davy",
        "I don't remember who it was; I do know Humphry Davy was lecturing at the Royal Institution then.",
    ),
]


@pytest.mark.parametrize(("question", "wrong", "gold", "right"), NAMING_ASIDES)
def test_the_offline_grader_reads_a_refusals_aside_as_no_answer_whatever_it_names(
    question: str, wrong: str, gold: str, right: str
) -> None:
    """NOT_ATTEMPTED with the question, read without the gold: the aside naming the gold is no more an answer than
    the one naming something else, so a policy gains nothing by hiding its guess in an aside."""
    assert grade(wrong, gold, question=question) is N
    assert grade(right, gold, question=question) is N
    assert grade(wrong, gold) is I  # without the question nothing says what an aside is: as strict as before


def test_an_aside_that_miscounts_a_several_part_gold_contradicts_it() -> None:
    """SimpleQA's "While I don't know their exact names, I can tell you that Barack Obama has three children.":
    INCORRECT, a count the gold's two names contradict; two children contradicts nothing."""
    assert grade("I don't know their names, but he has three children.", KIDS, question=KIDS_Q) is I
    assert grade("I don't know their names, but he has two children.", KIDS, question=KIDS_Q) is N
    assert grade("I don't know their names. He was elected in 2008.", KIDS, question=KIDS_Q) is N  # a year, no count


def test_a_gold_that_holds_refusal_words_is_no_refusal() -> None:
    question = "Which song from Jesus Christ Superstar did Yvonne Elliman sing?"
    assert grade("It's I Don't Know How to Love Him", "I Don't Know How to Love Him", question=question) is C
    assert grade("I don't know. Could it be Gethsemane?", "I Don't Know How to Love Him", question=question) is I


def test_a_run_of_names_holding_the_gold_is_several_guesses_for_the_guard() -> None:
    """The red team's shotgun-without-commas: the 1.5B graded it CORRECT (span "Paris") and the guard's
    several-guesses rule saw one item; now it is SEVERAL, and a long true answer with commas is not."""
    from reward_engine.offline.grader import lists_guesses
    from reward_engine.stages.grade_guard import SpanCheck, settle

    shotgun = "Lyon Marseille Toulouse Nice Nantes Strasbourg Montpellier Bordeaux Lille Paris Rennes"
    assert lists_guesses(shotgun, "Paris")
    assert settle(C, "Paris", shotgun, "Paris", "What is the capital of France?").check is SpanCheck.SEVERAL
    detail = "Paris, the capital and largest city of France, on the river Seine"
    assert not lists_guesses(detail, "Paris")
    assert not lists_guesses("Wolfgang Amadeus Mozart", "Mozart")


@pytest.mark.parametrize(
    "answer,gold,question,label",
    [
        ("bratislava ljubljana zagreb budapest", "Budapest", "What is the capital of Hungary?", I),
        ("Bratislava Ljubljana Zagreb Budapest", "Budapest", "What is the capital of Hungary?", I),
        ("lyon marseille paris toulouse", "Paris", "What is the capital of France?", I),
        ("Johann Sebastian Bach", "Bach", "Who composed the Goldberg Variations?", C),  # one name, gold last
        ("slovakia capital bratislava", "Bratislava", "What is the capital of Slovakia?", C),  # the question's
        ("Rio de Janeiro", "Rio de Janeiro", "Which city hosted the 2016 Summer Olympics?", C),
    ],
)
def test_the_gold_among_bare_words_is_a_list_for_the_offline_grader(answer, gold, question, label) -> None:
    """SimpleQA: a list of guesses is INCORRECT. The offline grader graded a few bare names without a
    separator CORRECT (the run-of-names rule wants capitals and over six more words), so the offline preset
    paid the shotgun the 1.5B judge paid on set 5 (k104), and the guard had to carry its own rule."""
    from reward_engine.offline.grader import lists_guesses

    assert grade(answer, gold, question=question) is label
    assert lists_guesses(answer, gold, question) is (label is I)


ASIDE_SPANS = [
    # (question, answer, gold, the aside's words a judge copied as the answer)
    (
        "Who composed The Magic Flute?",
        "I am not sure. Beethoven composed many symphonies in Vienna.",
        "Mozart",
        "Beethoven",
    ),
    (
        "What is the capital of Australia?",
        "I don't know. Australia has six states and two territories.",
        "Canberra",
        "six states",
    ),
    (
        "Who discovered the planet Uranus?",
        "I don't know who discovered it. Neptune, by contrast, was found in 1846 by Johann Galle.",
        "William Herschel",
        "Johann Galle",
    ),
]


@pytest.mark.parametrize(("question", "answer", "gold", "span"), ASIDE_SPANS)
def test_a_judge_that_copies_a_name_from_an_aside_does_not_make_it_an_answer(
    question: str, answer: str, gold: str, span: str
) -> None:
    """The 1.5B read "I'm not sure who composed it. I do know that Mozart wrote ..." as naming Mozart and graded
    it INCORRECT (set 3: 7 of 10 asides). Nothing after the refusal commits, so the guard says NOT_ATTEMPTED."""
    from reward_engine.stages.grade_guard import SpanCheck, settle

    assert settle(I, span, answer, gold, question).check is SpanCheck.NO_ANSWER
    assert settle(C, span, answer, gold, question).check is SpanCheck.NO_ANSWER


@pytest.mark.parametrize(("question", "answer", "gold"), GUESSES)
def test_a_judge_that_copies_the_guess_after_a_refusal_keeps_its_grade(question: str, answer: str, gold: str) -> None:
    from reward_engine.stages.grade_guard import SpanCheck, settle

    guess = answer.rstrip(".").split()[-1] if "composed" not in answer else "Beethoven"
    assert settle(I, guess, answer, gold, question).check is SpanCheck.KEPT


@pytest.mark.parametrize(
    "answer",
    [
        "That's not something I can answer with confidence, so I'll refrain from guessing.",
        "I'm unable to provide the author's name.",
    ],
)
def test_refusals_without_a_candidate_are_abstentions(answer: str) -> None:
    """Two set-3 refusals the guard turned into INCORRECT: "I'll" and the possessive "author's name" read as
    candidates ("'s" was taken for "is")."""
    from reward_engine.offline.reading import is_abstention
    from reward_engine.stages.grade_guard import SpanCheck, settle

    assert is_abstention(answer)
    assert settle(N, "", answer, "Ken Kesey", "Who wrote the novel?").check is SpanCheck.NO_ANSWER


def test_an_inverted_question_guess_is_a_guess() -> None:
    """ "Not sure, could it be Stravinsky?" commits to Stravinsky (SimpleQA: a hedged guess is graded)."""
    from reward_engine.stages.grade_guard import commits

    assert commits("Not sure — could it be Stravinsky?", "Who composed The Rite of Spring?")
    assert grade("Not sure. Is it Lyon?", "Paris", question="What is the capital of France?") is I


@pytest.mark.parametrize(
    ("question", "answer", "gold", "label"),
    [
        ("In which century was Napoleon born?", "The 18th century.", "15 August 1769", C),
        ("In which century was Napoleon born?", "He was born in the 18th century.", "15 August 1769", C),
        ("In which century was Napoleon born?", "The 17th century.", "15 August 1769", I),
        ("In which decade did the Suez Canal open?", "The 1860s.", "17 November 1869", C),
        ("In which decade did the Suez Canal open?", "The 1850s.", "17 November 1869", I),
        ("When did the Suez Canal open?", "The 1860s.", "17 November 1869", N),  # the question asks the date
    ],
)
def test_a_decade_or_century_is_enough_when_the_question_asks_for_it(
    question: str, answer: str, gold: str, label: Label
) -> None:
    assert grade(answer, gold, question=question) is label


def test_a_whole_answer_that_is_one_indefinite_phrase_is_a_description() -> None:
    """The 1.5B read "A city in Spain." as naming it (set 3: 5 of 10 vague answers INCORRECT): such an answer
    goes to the fits question, and anything naming more is still compared as a name."""
    from reward_engine.stages.grade import _indefinite

    assert _indefinite("A city in Spain.") and _indefinite("An Austrian composer of the Classical period.")
    assert not _indefinite("Lyon. A city in France.")
    assert not _indefinite("A city in Spain is the answer.")
    assert not _indefinite("Barcelona")
    assert _indefinite("Some Roman poet.") and _indefinite("Somewhere in the Andes")  # set 6: "Some ..." too
    assert not _indefinite("Some say it was Ovid.")


@pytest.mark.parametrize(
    ("answer", "description"),
    [
        ("A Portuguese poet who wrote an epic.", "A Portuguese poet who wrote an epic"),  # a relative clause
        ("It was composed by an Austrian in the 1780s.", "an Austrian in the 1780s"),
        ("He was a French painter.", "a French painter"),
        ("It's on one of the islands.", "on one of the islands"),
        ("It was discovered by someone in Scotland.", "someone in Scotland"),
        ("It was written by a man named George Orwell.", None),  # "named": it names one
        ("It was painted by Claude Monet.", None),
        ("It was built in 1889 by a French engineer.", None),  # a date besides: compared as a name
        ("A writer wrote it in 1920.", None),  # a verb outside a relative clause
        ("It was Lyon.", None),
        # a name or an amount inside the description: compared, never a description the gold may "fit"
        ("It was painted by a French Romantic, Eugène Delacroix.", None),
        ("It was discovered by a Soviet physicist Lev Landau.", None),
        ("A painter (Delacroix)", None),
        ("A painter like Delacroix", None),
        ("It was an eighth of a mile.", None),
        ("It was a dozen.", None),
        ("One of Jupiter's moons.", "One of Jupiter's moons"),  # set 8: a possessive after "one of"
        ("It is one of its moons.", "one of its moons"),
        ("One of Jupiter's moons, Io.", None),
        ("One of Jupiter's moons, probably Europa.", None),
        ("A famous German poet.", "A famous German poet"),  # capitals of a description stay one
        ("Some German Baroque composer, I believe.", "Some German Baroque composer, I believe"),
    ],
)
def test_one_sentence_saying_only_a_description_is_a_description(answer: str, description: str | None) -> None:
    """Set 7: the 1.5B read "A Turkish writer who won the Nobel Prize.", "It was written by an English novelist
    in the 1920s." and "It's on one of the islands." as naming an answer and compared them with the gold:
    INCORRECT where SimpleQA says too vague (NOT_ATTEMPTED). The description goes to the fits question, where the
    gold fitting it is NOT_ATTEMPTED and not fitting it INCORRECT: vagueness never pays CORRECT."""
    from reward_engine.stages.grade import _indefinite

    assert _indefinite(answer) == description


@pytest.mark.parametrize(
    ("answer", "gold", "several"),
    [
        ("Budapest, which was formed in 1873 by merging Buda, Obuda and Pest.", "Budapest", False),
        ("Oxygen (symbol O). It was found by Scheele and by Priestley in the 1770s.", "Oxygen", False),
        ("Alexandre Dumas, the French novelist who also wrote The Three Musketeers.", "Alexandre Dumas", False),
        ("Lyon, Nice, Paris (the capital), Marseille", "Paris", True),
        ("Paris, the capital, or Lyon", "Paris", True),
        ("Paris. It could be Lyon, Nice or Marseille too.", "Paris", True),
        ("Paris. Lyon, Nice and Marseille too.", "Paris", True),
    ],
)
def test_true_detail_naming_other_things_is_not_a_list_of_guesses(answer: str, gold: str, several: bool) -> None:
    """SimpleQA: extra true detail is allowed. The guard's several-guesses rule took a relative clause, a
    parenthesis or a sentence about the answer for more guesses (set 2: 3 true-detail answers INCORRECT)."""
    from reward_engine.offline.grader import lists_guesses

    assert lists_guesses(answer, gold) is several


@pytest.mark.parametrize(
    "answer,gold,several",
    [
        ("299,792,458 m/s", "3.00 × 10^8 m/s", False),  # commas that group thousands separate nothing
        ("32 or 28", "32", True),
        ("28, 30 or 32", "32", True),
        ("It is 46, or maybe 48.", "46", True),
        ("1815 (or 1816)", "1815", True),
        ("46: or 48", "46", True),
        ("46 (48 in some counts)", "46", True),  # so "46 (23 pairs)" is a list too: the rules cannot tell them apart
        ("1066, according to most, or 1067", "1066", True),
        ("1815, according to some sources, 1816 according to others", "1815", True),
        ("32, counting wisdom teeth, though 28 is also common", "32", True),
    ],
)
def test_several_numbers_are_a_list_thousands_commas_are_not(answer, gold, several):
    assert grader.lists_guesses(answer, gold) is several


@pytest.mark.parametrize(
    "answer,gold,label,several",
    [
        ("5,730 ± 40 years.", "5,730 years", C, False),  # a margin of error is not a second guess
        ("5,730 years, plus or minus 40", "5,730 years", C, False),
        ("4.54 billion years, give or take about 50 million.", "4.54 billion years", C, False),
        ("About 481 feet, so roughly 146.6 metres.", "481 feet", C, False),  # one height, said in two units
        ("146.6 metres (481 feet)", "481 feet", C, False),  # the gold's unit stands for the measurement
        ("It is 8,849 m (29,032 ft) high", "8,849 metres", C, False),
        ("100 °C (212 °F)", "100 °C", C, False),
        ("481 feet, so roughly 200 metres", "481 feet", I, True),  # 200 m is not 481 feet: a second guess
        ("481 feet, or maybe 500 feet", "481 feet", I, True),  # the same unit twice is a list
        ("5,830 ± 40 years", "5,730 years", I, False),  # the margin does not widen a wrong value
        ("880 yards, half a mile", "880 yards", C, False),  # set 7: a fraction in words restates it
        ("1,760 yd, roughly a mile", "1,760 yards", C, False),
        ("220 yd, an eighth of a mile, roughly 201 m", "220 yards", C, False),
        ("440 yards, three quarters of a mile", "440 yards", I, True),  # 1,320 yd: a second value
        ("It is the third largest city", "3", C, False),  # an ordinal, not a fraction
        ("6 eggs, half a dozen", "6", C, False),  # a reviewer's: a fraction not restating a value is a detail
        ("It is 10 km long, half a kilometre wide.", "10 km", C, False),
        ("1 km or roughly half a mile", "1 km", C, False),  # restated at the fraction's own precision
    ],
)
def test_a_margin_or_a_conversion_is_one_number_not_a_list(answer: str, gold: str, label: Label, several: bool) -> None:
    """Held-out set 5 lost right answers with a tolerance or a second unit (read as two numbers: a list)."""
    assert grade(answer, gold) is label
    assert grader.lists_guesses(answer, gold) is several


@pytest.mark.parametrize(
    "answer,gold,question,label",
    [
        ("lyon nice paris", "Paris", "What is the capital of France?", I),  # not a person: two others suffice
        ("mozart bach haydn beethoven", "Bach", "Who composed the Goldberg Variations?", I),  # the gold inside
        ("Maria Salomea Sklodowska Curie", "Curie", "Who discovered radium?", C),  # a full name ends in the gold
        ("Carl Philipp Emanuel Bach", "Bach", "Which composer wrote the Prussian Sonatas?", C),
        ("Mount Everest Nepal", "Everest", "What is the highest mountain on Earth?", C),  # "mount" is no guess
    ],
)
def test_a_full_name_is_not_a_bare_list_but_other_guesses_are(answer, gold, question, label) -> None:
    """A reviewer's cases: counting every word before the gold made full names lists (false INCORRECT), and
    needing three others before a final gold let "lyon nice paris" through."""
    assert grade(answer, gold, question=question) is label


@pytest.mark.parametrize(
    "answer,gold,label",
    [
        ("120k ± 100k", "120k", N),  # a margin that wide states a range, too vague for 120k
        ("5,730 ± 3,000 years", "5,730 years", N),
        ("give or take 513,000", "513,000", C),  # no value before it: the number itself, not an alternative
        ("1 mile (1.6 km)", "1 mile", C),
        ("8,700 m (29,032 ft)", "29,032 ft", I),  # 8,700 m is 28,543 ft: a second value, not a conversion
        ("100 degrees Celsius (212 degrees Fahrenheit)", "100 °C", C),
    ],
)
def test_margins_and_conversions_are_read_by_their_size(answer: str, gold: str, label: Label) -> None:
    assert grade(answer, gold) is label


def test_units_from_threads_grading_at_once_compare() -> None:
    """Two threads building pint registries at once gave units that raised when compared, for every later
    answer of the process (a reviewer's finding); answers over 200 characters are graded in threads. A fresh
    process, so the registry is built by the racing threads."""
    import subprocess
    import sys

    code = (
        "import concurrent.futures as f\n"
        "from reward_engine.offline.grader import grade\n"
        "answers = [f'{n} miles ({n * 1.609344:.1f} km)' for n in range(1, 17)]\n"
        "with f.ThreadPoolExecutor(8) as pool:\n"
        "    labels = list(pool.map(lambda a: grade(a, a.split(' (')[0]).value, answers))\n"
        "print(sorted(set(labels)), grade('3 miles (4.8 km)', '3 miles').value)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["['CORRECT']", "CORRECT"]


@pytest.mark.parametrize(
    "answer,gold,label,several",
    [
        ("Twelve times five, so 60.", "60", C, False),  # the working of a calculation is not a second guess
        ("60 x 24 = 1440 minutes", "1,440 minutes", C, False),
        ("1,440 minutes, i.e. 24 × 60", "1,440 minutes", C, False),  # the result first, then how it was reached
        ("22/7, so about 3.14", "3.14", C, False),
        ("Twelve times five, so 70.", "60", I, True),  # arithmetic that does not hold: three numbers offered
        ("60, or 70", "60", I, True),
    ],
)
def test_a_worked_calculation_is_one_number_not_a_list(answer: str, gold: str, label: Label, several: bool) -> None:
    """Held-out set 6 lost "Sixty times sixty, so 3600." (the guard read 60, 60 and 3600 as three guesses)."""
    assert grade(answer, gold) is label
    assert grader.lists_guesses(answer, gold) is several


REFUSAL_WORDINGS = [
    # (question, answer, gold): refusals a small chat model writes without "I don't know", some with an aside
    ("Who wrote Moby-Dick?", "Not something I know. The whale is called Moby Dick and the captain Ahab.", "Melville"),
    ("What is the capital of Mongolia?", "Can't say. Genghis Khan and Kublai Khan ruled there, though.", "Ulaanbaatar"),
    ("Who wrote Moby-Dick?", "I'd rather not answer than give you a wrong name.", "Herman Melville"),
    ("Who wrote Moby-Dick?", "The author's name won't come to me. The narrator is called Ishmael.", "Herman Melville"),
    ("Who discovered oxygen?", "It escapes me, sorry.", "Joseph Priestley"),
    ("Who discovered oxygen?", "Beats me.", "Joseph Priestley"),
    ("Who discovered oxygen?", "I haven't the faintest idea.", "Joseph Priestley"),
    ("Who discovered oxygen?", "I'm drawing a blank on that one.", "Joseph Priestley"),
    # held-out set 17 (read after its run at e6a87dd): the idiom was no refusal, so the aside's names were an answer
    ("Who wrote Moby-Dick?", "That one's beyond me. I know Ishmael and Ahab are in it, not the author.", "Melville"),
    ("Who discovered oxygen?", "This is a bit beyond me, sorry.", "Joseph Priestley"),
]


@pytest.mark.parametrize(("question", "answer", "gold"), REFUSAL_WORDINGS)
@pytest.mark.parametrize("span", [None, ""])
def test_refusals_in_other_words_are_not_attempted(question: str, answer: str, gold: str, span: str | None) -> None:
    """Held-out set 6: "Not something I know." and "Can't say." were not read as refusals, so their asides (names
    of characters, of other cities) were taken for lists of guesses and the guard turned the judge's
    NOT_ATTEMPTED into INCORRECT; "than get it wrong" was left over as an answer form."""
    from reward_engine.stages.grade_guard import SpanCheck, commits, settle

    assert not commits(answer, question)
    assert settle(N, span, answer, gold, question).check is SpanCheck.NO_ANSWER


@pytest.mark.parametrize(
    "answer",
    ["Can't say. Lyon.", "It escapes me, but I think Lyon.", "Beats me - Lyon?", "I haven't a clue. Maybe Lyon."],
)
def test_a_guess_after_a_refusal_in_other_words_is_graded(answer: str) -> None:
    from reward_engine.stages.grade_guard import commits

    question = "What is the capital of France?"
    assert commits(answer, question)
    assert grade(answer, "Paris", question=question) is I


def test_a_clause_refusal_without_its_subject_only_opens_a_clause() -> None:
    """ "Can't say." refuses; "scientists couldn't tell whether ..." inside an answer states something."""
    from reward_engine.offline.reading import has_refusal, is_abstention, read

    assert is_abstention("Can't say.") and is_abstention("Hmm, can't recall.")
    reading = read("Early scientists couldn't tell whether it was Lyon.")
    assert not reading.refused and reading.candidates
    assert has_refusal("Hmm. Can't say.")  # a clause-start refusal is found for the quick check too


def test_memoised_rules_take_keyword_arguments() -> None:
    """``lists_guesses(answer, gold, question=...)`` raised TypeError: the memo passed positions only."""
    question = "What is the capital of France?"
    grader.lists_guesses.cache_clear()
    assert grader.lists_guesses("Lyon, Nice, Paris", "Paris", question=question) is True
    assert grader.lists_guesses("Lyon, Nice, Paris", "Paris", question) is True
    assert grader.lists_guesses.cache_info().hits == 1  # both spellings share one entry


BACKGROUND_THEN_REFUSAL = [
    # (answer, commits): background about what was asked, then a refusal of the very thing asked, or not
    (
        "Radio has many fathers. Several inventors raced to send signals, and later Guglielmo Marconi and Nikola "
        "Tesla were famous in Europe. I can't recall who sent that first message across the Channel, so no name.",
        False,
    ),
    (
        "Radio grew out of work on electromagnetic waves by James Clerk Maxwell. I don't remember the name of the "
        "inventor who sent the first message across the Channel.",
        False,
    ),
    ("Guglielmo Marconi sent it, but I'm not sure.", True),  # a bare hedge disowns nothing
    ("Guglielmo Marconi sent it across the Channel. I can't be sure of that.", True),
    ("Guglielmo Marconi sent the first message, but I don't know when he sent it across the Channel.", True),
    ("I think Guglielmo Marconi did it. I don't know who else sent one across the Channel, though.", True),
]


@pytest.mark.parametrize(("answer", "commits_to_it"), BACKGROUND_THEN_REFUSAL)
def test_a_refusal_of_what_was_asked_disowns_the_background_before_it(answer: str, commits_to_it: bool) -> None:
    """Held-out set 7's s120: two sentences of background (other inventors, a sentence-initial "Television"
    read as a name) then "I'm not sure who gave that demonstration ..., so I can't give you a name": the
    guard read the background as a statement about what was asked and turned the judge's NOT_ATTEMPTED into
    INCORRECT (several names). A refusal that names what the question asks says the words before it are not
    the answer; a bare hedge, a refusal of something else, or a guess keeps them."""
    from reward_engine.stages.grade_guard import SpanCheck, commits, settle

    question = "Who sent the first radio message across the English Channel?"
    assert commits(answer, question) is commits_to_it
    check = settle(N, "", answer, "Guglielmo Marconi", question).check
    assert (check is SpanCheck.NO_ANSWER) is not commits_to_it


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What is the capital of Australia?", "Sydney is the capital. I'm not sure what the capital of Australia is."),
        ("When did the Berlin Wall fall?", "The Wall fell in 1991. I don't remember when exactly the wall fell."),
        ("Who painted the Raft of the Medusa?", "Delacroix painted it. I can't recall who else painted the raft."),
        (
            "Who painted the Raft of the Medusa?",
            "The painter was Eugène Delacroix. I don't remember the name of the museum where it hangs.",
        ),
    ],
)
def test_a_refusal_of_the_same_claim_or_of_something_else_disowns_nothing(question: str, answer: str) -> None:
    """A reviewer's cases: the statement is the answer, hedged by a refusal sharing its words, or followed by a
    refusal of another thing ("who else", "the name of the museum"): graded on the statement (SimpleQA)."""
    from reward_engine.stages.grade_guard import commits

    assert commits(answer, question)


@pytest.mark.parametrize(
    ("question", "answer", "commits_to_it"),
    [
        ("Who wrote The Faerie Queene?", "I don't know that one. It was dedicated to Queen Elizabeth I.", False),
        (
            "Who composed the Unfinished Symphony?",
            "Not certain. It is often mentioned alongside Mozart's Requiem.",
            False,
        ),
        ("Who wrote The Faerie Queene?", "Not sure. It was written by Edmund Spenser.", True),  # the agent names it
        ("Where is the Louvre?", "I'm not sure. It is located in Lyon.", True),  # a place
        ("To whom was the poem dedicated?", "Not sure, it was dedicated to Queen Elizabeth I.", True),  # what is asked
        ("Which country has Stockholm?", "I don't know. It might be Sweden probably.", True),  # a name, not a verb
        # a time after another verb, a description, words for a measure: asides (probed 2026-11-28p)
        ("Who wrote Moby-Dick?", "I'm not sure who wrote it, but it was published in 1851.", False),
        ("When did the Berlin Wall fall?", "I don't know the exact date. It was built in 1961.", False),
        ("When was the Eiffel Tower built?", "I'm not sure, it was built in 1889.", True),  # the question's verb
        ("Who composed The Four Seasons?", "I can't recall. It's a set of four concertos from the Baroque era.", False),
        ("Who composed The Four Seasons?", "I'm not sure, maybe a Venetian composer, Vivaldi.", True),
        (
            "How tall is the Eiffel Tower?",
            "I don't know the height, but it is very tall, taller than Notre-Dame.",
            False,
        ),
        (
            "How tall is the Eiffel Tower?",
            "I can't give you the figure. It was built for the 1889 World's Fair.",
            False,
        ),
        ("How tall is the Eiffel Tower?", "I'm not sure, maybe about 300 metres.", True),
        ("How many moons does Mars have?", "Not sure, maybe two.", True),
        ("Who invented the telephone?", "Unclear to me. The first patent was granted in 1876, I think.", False),
        ("What colour is the flag?", "Not sure. Probably red with white stripes.", True),  # no auxiliary: no passive
        ("How many moons does Mars have?", "Not sure. Jupiter has 95.", False),  # another subject's figure
        ("In which French city is the Louvre?", "Not sure, it was located in Lyon.", True),  # a place, asked
    ],
)
def test_a_passive_saying_something_else_of_it_is_an_aside_not_a_guess(
    question: str, answer: str, commits_to_it: bool
) -> None:
    """Sets 3 and 7 (t068, s067): after a refusal, "It is often mentioned alongside ..." and "It was dedicated to
    ..." opened with "It is/was", so they read as guesses naming one thing and the guard overruled the judge's
    NOT_ATTEMPTED (t068) or kept its INCORRECT (s067). A passive whose verb the question does not ask about says
    something of it; its agent, a place or time, or the question's own verb still name the answer."""
    from reward_engine.stages.grade_guard import commits

    assert commits(answer, question) is commits_to_it


def test_a_whoever_clause_says_it_does_not_say_who() -> None:
    """Set 5's k078: "Whoever was running the USSR in the early 1960s." names nobody (SimpleQA: not attempted);
    the judge's CORRECT span was not in the answer, and the offline fallback graded it INCORRECT. One that goes on
    to name someone still commits to them."""
    question = "Who led the Soviet Union during the Cuban Missile Crisis?"
    assert grade("Whoever was running the USSR in the early 1960s.", "Nikita Khrushchev", question=question) is N
    assert grade("Whoever it was, Lyon.", "Paris", question="What is the capital of France?") is I


KNOWN_INSTEAD = [
    # (question, answer, commits): after a refusal, what the speaker says they know instead
    (
        "Who captained the ship on its first Pacific voyage?",
        "I'm not sure who the captain was. I do know the botanist Joseph Banks sailed on it.",
        False,
    ),
    (
        "Who wrote the novel?",
        "That's outside what I can recall, although I know it was first published in New York by Alfred A. Knopf.",
        False,
    ),
    ("Who composed the symphony?", "I don't know who composed it. I do know that Mozart wrote Figaro.", False),
    (
        "Who captained the ship on its first Pacific voyage?",
        "I'm not sure of his rank, but I know it was James Cook.",
        True,
    ),
    ("Who composed the symphony?", "I can't say for certain. What I can tell you is that it was Schubert.", True),
    ("In which year did the Berlin Wall fall?", "I don't know the exact date, but I know it was 1989.", True),
    # a reviewer's cases: what answers the question commits, what says something else does not
    ("Who won the 1998 World Cup?", "I don't know who, I know that France won.", True),
    ("What is the capital of France?", "I'm not sure. I know that the capital of France is Lyon.", True),
    ("Who painted the Mona Lisa?", "I'm not sure, but I know that Raphael painted it.", True),
    ("How many moons does Mars have?", "I'm not sure, but I know there are 3.", True),
    ("What is the capital of France?", "I'm not sure, but I know it's not Lyon.", False),
    ("Who captained the ship on its first Pacific voyage?", "I don't know who, but I know he was British.", False),
    ("Who wrote the novel?", "I'm not sure who wrote it, but I know it was published by Knopf.", False),
    (
        "Which vitamin does human skin produce when exposed to sunlight?",
        "I'm not certain. I do know that a lack of vitamin C causes scurvy.",
        False,
    ),
]


@pytest.mark.parametrize(("question", "answer", "commits_to_it"), KNOWN_INSTEAD)
def test_what_the_speaker_knows_instead_is_an_aside_unless_it_is_the_answer(
    question: str, answer: str, commits_to_it: bool
) -> None:
    """Held-out set 8: the 1.5B graded "I'm not sure who the captain was. I do know the botanist Joseph Banks
    sailed ..." and "That's outside what I can recall, although I know it was first published ... by Alfred A.
    Knopf" INCORRECT, and the guard kept it: "I do know" read as committing, and "outside what I can recall" was
    no refusal. SimpleQA: a refusal with an aside is NOT_ATTEMPTED; "but I know it was Cook" is still a guess."""
    from reward_engine.stages.grade_guard import SpanCheck, commits, settle

    assert commits(answer, question) is commits_to_it
    check = settle(I, "Joseph Banks", answer, "James Cook", question).check
    assert (check is SpanCheck.NO_ANSWER) is not commits_to_it


def test_outside_what_i_can_recall_is_a_refusal() -> None:
    from reward_engine.offline.reading import is_abstention

    assert is_abstention("That's outside what I can recall.")
    assert is_abstention("Sorry, that is beyond what I can say with confidence.")
    assert not is_abstention("Beyond what I remember of the plot, the author was Hemingway.")  # not a refusal


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Who composed the opera?", "I'm not able to find that information."),  # "that" is a determiner here
        (
            "Under what pen name did the poet publish the hymns?",
            "He was a German Romantic poet of the late 18th century. He wrote mystical verse, but I can't remember "
            "the pen name he used.",
        ),  # the refusal names the noun the question asks for: the background is disowned
    ],
)
def test_set_9s_guard_made_incorrect_answers_decline(question: str, answer: str) -> None:
    """Held-out set 9 (out of sample at 0bdbba0): the guard turned the judge's NOT_ATTEMPTED into INCORRECT
    for these shapes ("that information" read as a claim; "the pen name he used" not read as what was asked)."""
    from reward_engine.stages.grade_guard import SpanCheck, settle

    assert settle(N, "", answer, "Novalis", question).check is SpanCheck.NO_ANSWER


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        ("A city near Paris.", I),
        ("A suburb of Paris.", I),
        ("It is just north of Paris.", I),
        ("Somewhere outside of Paris.", I),
        ("Not far from Paris.", I),
        ("Paris, near the Seine.", C),  # detail after the answer
        ("It's Paris, close to the river.", C),
    ],
)
def test_the_gold_as_a_landmark_is_not_the_answer(answer: str, label: Label) -> None:
    """A review's finding (helper-29): "A city near Paris" held the gold as whole words, so the offline rules (and
    the two-call grader's rule before any judge call) paid it CORRECT, +2 for a description of somewhere else."""
    from reward_engine.stages.grade import _by_rule

    question = "What is the capital of France?"
    assert grade(answer, "Paris", question=question) is label
    assert (_by_rule(answer, "Paris", question) is C) is (label is C)
    assert grade("It's in the north of France.", "France", question="In which country is Lille?") is C
