"""The evaluation grader's containment match (issue #73 point 7): an answer that says the gold alias in a
sentence is CORRECT, beside the strict exact match, but a second candidate, a negation or another number
still makes it INCORRECT, and everything the exact match accepts stays accepted."""

from __future__ import annotations

import pytest

from knowrl.effect.eval_grader import contain_label, strict_label
from knowrl.effect.heldout import bare_completion, family_others, grade_stage

CAPITALS = ("Lyon", "Rome", "Madrid", "Lima")


@pytest.mark.parametrize(
    "answer",
    ["Tokyo is the capital of Japan.", "It's Tokyo.", "The capital is Tokyo, I believe", "tokyo!"],
)
def test_a_sentence_that_says_the_gold_is_correct(answer):
    assert contain_label(answer, ["Tokyo"], others=CAPITALS) == "CORRECT"


def test_the_sentence_is_what_the_exact_match_misses():
    answer = "Tokyo is the capital of Japan."
    assert strict_label(answer, ["Tokyo"]) == "INCORRECT"
    assert contain_label(answer, ["Tokyo"]) == "CORRECT"


@pytest.mark.parametrize(
    "answer",
    ["Paris or Lyon", "Paris, Lyon, Marseille", "Lyon or maybe Paris", "Either Paris or Rome", "paris/madrid"],
)
def test_a_second_candidate_of_the_family_is_incorrect(answer):
    assert contain_label(answer, ["Paris"], others=CAPITALS) == "INCORRECT"
    assert contain_label(answer, ["Paris"]) == "CORRECT"  # without the family's other answers, nothing to see


def test_an_other_that_is_a_gold_alias_or_part_of_one_does_not_count():
    # another question of the family with the same answer, or a word of the gold's own name
    assert contain_label("It is Paris.", ["Paris"], others=["Paris", "paris", "Lyon"]) == "CORRECT"
    assert contain_label("Republic of the Congo", ["Republic of the Congo"], others=["Congo"]) == "CORRECT"
    assert contain_label("The answer: Guinea", ["Equatorial Guinea", "Guinea"], others=["Guinea"]) == "CORRECT"
    said = "Republic of the Congo, or simply Congo"
    assert contain_label(said, ["Republic of the Congo"], others=["Congo", "Gabon"]) == "CORRECT"


def test_an_other_that_holds_the_gold_counts_where_it_is_said():
    # "South Sudan" says the phrase "Sudan", but it names another country of the family
    assert contain_label("South Sudan", ["Sudan"], others=["South Sudan", "Chad"]) == "INCORRECT"
    assert contain_label("Sudan, in Africa", ["Sudan"], others=["South Sudan", "Chad"]) == "CORRECT"


@pytest.mark.parametrize(
    "answer",
    ["not Paris", "It is not Paris.", "It isn't Paris", "It's never Paris", "No Paris", "Paris is not the capital"],
)
def test_a_negated_gold_is_incorrect(answer):
    assert contain_label(answer, ["Paris"], others=CAPITALS) == "INCORRECT"


def test_a_negation_far_from_the_gold_does_not_count():
    assert contain_label("Not an easy one, but I would say it is Paris", ["Paris"]) == "CORRECT"


@pytest.mark.parametrize(
    "answer, label",
    [
        ("He was born in 1957.", "CORRECT"),
        ("It began in 1,957 AD", "CORRECT"),  # a thousands separator is the same number
        ("Born in 1957 in Kyoto, where he lived for most of his life", "CORRECT"),  # past strict's four words
        ("1957 or 1958", "INCORRECT"),
        ("between 1950 and 1957", "INCORRECT"),
        ("1957-58", "INCORRECT"),
        ("In the 1950s, probably 1957", "INCORRECT"),
        ("not 1957 but 1958", "INCORRECT"),
        ("In 19570 BC", "INCORRECT"),
    ],
)
def test_a_number_gold(answer, label):
    assert contain_label(answer, ["1957"]) == label


@pytest.mark.parametrize("answer", ["18", "about 18 of them", "8.5", "It is 8.5 metres", "88", "80"])
def test_a_number_gold_matches_a_whole_number_only(answer):
    assert contain_label(answer, ["8"]) == "INCORRECT"


def test_a_whole_gold_number_in_a_sentence():
    assert contain_label("There are 8 of them.", ["8"]) == "CORRECT"


@pytest.mark.parametrize(
    "answer, gold", [("Romania", "Oman"), ("Nigeria", "Niger"), ("Dominican Republic", "Dominica")]
)
def test_an_alias_inside_a_longer_word_is_not_matched(answer, gold):
    assert contain_label(answer, [gold]) == "INCORRECT"


def test_a_multi_word_alias_is_matched_as_a_whole_phrase():
    aliases = ["Republic of Mali", "Mali Republic"]
    assert contain_label("It is the Republic of Mali.", aliases) == "CORRECT"
    assert contain_label("I think the Mali Republic", aliases) == "CORRECT"
    assert contain_label("Republic of Chad, near Mali", aliases) == "INCORRECT"  # the words, not the phrase
    assert contain_label("Mali", aliases) == "INCORRECT"
    assert contain_label("It is in Côte d'Ivoire", ["Cote d Ivoire"]) == "CORRECT"


@pytest.mark.parametrize("answer", ["I don't know", "Not sure, maybe Paris", "No idea."])
def test_a_refusal_is_not_attempted(answer):
    assert contain_label(answer, ["Paris"]) == "NOT_ATTEMPTED"
    assert contain_label(answer, [], answerable=False) == "NOT_ATTEMPTED"


def test_a_question_about_a_made_up_entity():
    assert contain_label("There is no such country.", [], answerable=False) == "NOT_ATTEMPTED"
    assert contain_label("Its capital is Zorvia City.", [], answerable=False) == "INCORRECT"
    # even an answer that holds what an alias list would: nothing is CORRECT about a thing that does not exist
    assert contain_label("Paris", ["Paris"], answerable=False) == "INCORRECT"


TABLE = [
    ("Nairobi", ["Nairobi"], True),
    ("the Hague", ["The Hague"], True),
    ("Sao Tome", ["São Tomé"], True),
    ("Côte d'Ivoire!", ["Cote d'Ivoire"], True),
    ("Mali", ["Republic of Mali"], True),
    ("1957", ["1957"], True),
    ("In 1957.", ["1957"], True),
    ("not 1957", ["1957"], True),  # strict's short-number rule accepts it; containment keeps what strict accepts
    ("1957 or 1958", ["1957"], True),
    ("Paris, I think", ["Paris"], True),
    ("Tokyo is the capital of Japan.", ["Tokyo"], True),
    ("I don't know", ["Nairobi"], True),
    ("Vrelton City", [], False),
    ("There is no such country.", [], False),
]


def test_exact_match_is_contained_in_containment():
    strict = [strict_label(a, g, ok) for a, g, ok in TABLE]
    contain = [contain_label(a, g, ok, others=["Lyon", "1958"]) for a, g, ok in TABLE]
    for row, s, c in zip(TABLE, strict, contain):
        if s == "CORRECT":
            assert c == "CORRECT", row
        if s == "NOT_ATTEMPTED":
            assert c == "NOT_ATTEMPTED", row
    assert sum(c == "CORRECT" for c in contain) > sum(s == "CORRECT" for s in strict)  # a strict superset here


def test_family_others_come_from_the_other_rows_of_the_same_template():
    rows = [
        {"qid": "a", "template": "currency", "aliases": ["euro"], "answerable": True},
        {"qid": "b", "template": "currency", "aliases": ["Euro", "EUR"], "answerable": True},  # the same answer
        {"qid": "c", "template": "currency", "aliases": ["yen", "JPY"], "answerable": True},
        {"qid": "d", "template": "capital", "aliases": ["Paris"], "answerable": True},
        {"qid": "e", "template": "currency", "aliases": [], "answerable": False},
    ]
    assert family_others(rows) == [
        ("yen", "JPY"),
        ("yen", "JPY"),
        ("euro", "Euro", "EUR"),
        (),
        ("euro", "Euro", "EUR", "yen", "JPY"),
    ]


def test_grade_stage_reports_the_containment_match_beside_the_exact_match():
    rows = [
        {"qid": "fr", "template": "capital", "question": "Capital of France?", "title": "", "aliases": ["Paris"]},
        {"qid": "jp", "template": "capital", "question": "Capital of Japan?", "title": "", "aliases": ["Tokyo"]},
        {"qid": "it", "template": "capital", "question": "Capital of Italy?", "title": "", "aliases": ["Rome"]},
        {"qid": "pe", "template": "capital", "question": "Capital of Peru?", "title": "", "aliases": ["Lima"]},
    ]
    for row in rows:
        row.update(answers=row["aliases"], answerable=True)
    answers = ["Paris", "Tokyo is the capital of Japan.", "Rome or Tokyo", "I don't know"]
    stage = grade_stage(rows, [bare_completion(a) for a in answers], 1)
    # CORRECT, INCORRECT, ABSTAINED, MALFORMED per question
    assert stage["counts"] == [[1, 0, 0, 0], [0, 1, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]]
    assert stage["contain_counts"] == [[1, 0, 0, 0], [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]]
    assert stage["rates"]["correct"] == 0.25 and stage["contain_rates"]["correct"] == 0.5
    assert set(stage["contain_rates"]) == set(stage["rates"])
    assert [d["contain"] for d in stage["details"]] == ["CORRECT", "CORRECT", "INCORRECT", "ABSTAINED"]
    assert [d["strict"] for d in stage["details"]] == ["CORRECT", "INCORRECT", "INCORRECT", "ABSTAINED"]
    assert stage["contain_agreement"]["confusion"]["INCORRECT->CORRECT"] == 1
