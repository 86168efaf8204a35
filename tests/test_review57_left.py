"""Review 57's misses that were reward holes, closed (issue #74): a title or an institution named "of" the gold's
place, the other Washington, a knockout read as the loser's win, a young form or a trade of another kind, two kinds
offered, a flower named after the gold's animal, "on Christmas" as its day, and the runner-up "over" whom the winner
won (Binary RAR). Each case below is new (review 57's own rows are pinned in tests/data/grader_reviews.jsonl); every
wrong one was paid CORRECT or NOT_ATTEMPTED, and the Binary RAR one not contradicted, on bc3ecef."""

from __future__ import annotations

from reward_engine.offline import facts
from tests.helpers import grade_tables

WRONG_PAID = [
    ("The Earl of Essex.", "Essex", "In which English county is Colchester?"),
    ("The Bank of France.", "France", "Which country is Lyon in?"),
    ("Port of Spain, I think.", "Spain", "Which country did Christopher Columbus sail for?"),
    ("Washington State.", "Washington, D.C.", "Where is the Lincoln Memorial?"),
    ("Washington, the nation's capital.", "Washington", "Which U.S. state is Spokane in?"),
    ("The District of Columbia.", "Columbia", "Which city is the capital of South Carolina?"),
    ("Joe Frazier was knocked out by George Foreman.", "Joe Frazier", "Who won the 1973 Sunshine Showdown?"),
    ("A wolf cub.", "Fox", "What kind of animal is Fantastic Mr Fox?"),
    ("A spin doctor.", "Physician", "What was Che Guevara's profession before the revolution?"),
    ("A lion and a leopard.", "Lion", "What kind of animal is Aslan?"),
    ("A tiger lily.", "Tiger", "What kind of animal is Tigger?"),
    ("On Christmas 1914.", "December 24, 1914", "On what date did the Christmas truce begin?"),
]

RIGHT_KEPT = [
    ("Essex.", "Essex", "In which English county is Colchester?"),
    ("The County of Essex.", "Essex", "In which English county is Colchester?"),
    ("The Duke of Wellington.", "Wellington", "Who won the Battle of Waterloo?"),
    ("Washington, D.C.", "Washington, D.C.", "Where is the Lincoln Memorial?"),
    ("Columbia.", "Columbia", "Which city is the capital of South Carolina?"),
    ("George Foreman knocked out Joe Frazier.", "George Foreman", "Who won the 1973 Sunshine Showdown?"),
    ("A fox cub.", "Fox", "What kind of animal is Fantastic Mr Fox?"),
    ("A doctor.", "Physician", "What was Che Guevara's profession before the revolution?"),
    ("A lion and a predator.", "Lion", "What kind of animal is Aslan?"),
    ("On Christmas 1914.", "December 25, 1914", "On what date did the Christmas truce begin?"),
]


test_a_wrong_answer_is_incorrect, test_a_right_answer_stays_correct = grade_tables(WRONG_PAID, RIGHT_KEPT)


DERBY = ["Lewis Hamilton won the 2008 Formula One World Championship by one point ahead of Felipe Massa."]


def test_the_runner_up_is_contradicted_where_the_winner_is_asked() -> None:
    assert facts.answer_contradicted("Who won the 2008 Formula One World Championship?", "Felipe Massa.", DERBY)
    assert not facts.answer_contradicted("Who won the 2008 Formula One World Championship?", "Lewis Hamilton.", DERBY)
    assert not facts.answer_contradicted(
        "Who finished second in the 2008 Formula One World Championship?", "Felipe Massa.", DERBY
    )
