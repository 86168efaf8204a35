"""Two rights the offline grader refused (the note of session f): a person's own name before "known as" or "pen name"
to "who" (paid only when a place or a thing stands there: "Lyon, also known as Paris" stays INCORRECT), and an
initialism that takes a letter from inside a word after a combining form ("AIDS" from "immunodeficiency"). Every
row of the right table failed on 7b061c7."""

from __future__ import annotations

from tests.helpers import grade_tables

ORWELL = "Who wrote Nineteen Eighty-Four?"
IMMUNE = "What condition does untreated HIV infection lead to?"

test_other_names_stay_incorrect, test_a_pen_name_or_inner_initial_is_correct = grade_tables(
    [
        ("Lyon, better known as Paris.", "Paris", "What is the capital of France?"),
        ("Aldous Huxley.", "George Orwell", ORWELL),
        ("Ray Bradbury, under the pen name Orwell.", "George Orwell", "What was Eric Blair's job?"),
        ("HIDS.", "Human immunodeficiency virus", "Which virus causes AIDS?"),
        ("Cancer.", "Acquired immunodeficiency syndrome", IMMUNE),
    ],
    [
        ("Eric Blair, better known by his pen name George Orwell.", "George Orwell", ORWELL),
        ("Eric Arthur Blair, who wrote as George Orwell.", "George Orwell", ORWELL),
        ("Marie-Henri Beyle, known as Stendhal.", "Stendhal", "Who wrote The Red and the Black?"),
        ("The patient develops AIDS.", "Acquired immunodeficiency syndrome", IMMUNE),
        ("SCID", "Severe combined immunodeficiency", "Which disorder is called bubble boy disease?"),
        ("HIV.", "Human immunodeficiency virus", "Which virus causes AIDS?"),
    ],
)
