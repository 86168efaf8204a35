"""A right the offline grader refused (the note of session f): an initialism that takes a letter from inside a word
after a combining form ("AIDS" from "immunodeficiency"), only for names of two words or more ("MS" is no Microsoft:
the landing review of pass 69). A birth name before "known as" stays INCORRECT to who: the grader cannot tell it
from a rival's name ("Aldous Huxley, known as George Orwell"; the same review). Every row of the right table but
HIV's failed on 7b061c7."""

from __future__ import annotations

from tests.helpers import grade_tables

ORWELL = "Who wrote Nineteen Eighty-Four?"
IMMUNE = "What condition does untreated HIV infection lead to?"

test_other_names_stay_incorrect, test_an_inner_initial_is_correct = grade_tables(
    [
        ("Lyon, better known as Paris.", "Paris", "What is the capital of France?"),
        ("Aldous Huxley.", "George Orwell", ORWELL),
        ("Aldous Huxley, known as George Orwell.", "George Orwell", ORWELL),
        ("Microsoft.", "MS", "Which disease did Jacqueline du Pre have?"),
        ("Ray Bradbury, under the pen name Orwell.", "George Orwell", "What was Eric Blair's job?"),
        ("HIDS.", "Human immunodeficiency virus", "Which virus causes AIDS?"),
        ("Cancer.", "Acquired immunodeficiency syndrome", IMMUNE),
    ],
    [
        ("The patient develops AIDS.", "Acquired immunodeficiency syndrome", IMMUNE),
        ("SCID", "Severe combined immunodeficiency", "Which disorder is called bubble boy disease?"),
        ("HIV.", "Human immunodeficiency virus", "Which virus causes AIDS?"),
    ],
)
