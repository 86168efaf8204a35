"""Hostile pass 27 (issue #74) and the review of pass 26's rules. Pass 27: 252 cases written before they were run
(12 whole completions under four presets, 20 on jobs): no data loss, no stale result, no crash; closed here, each
beside its control: "15 million francs" for "$15 million", "2nd to last" for "second", a clause giving the asked
relation another value ("..., yet the capital is Lyon.", "Yes, but the capital is actually Lyon."), "1600s" for the
16th century, "No idea." paid as the gold "No", a fact claim placing an event where the passage places another
("Mozart died in Salzburg."), Binary RAR paying "mid-1880s" for 1889, "answers": [NaN] graded against "nan"; right
answers paid wrong: "No, it's Paris.", "Some say Lyon, but it's Paris.", "Paris (Parigi in Italian)". The review of
pass 26 (206 cases, old against new code) found its JSON, peerage, initials, address and "edit:" rules paid 22
answers wrongly; mended and pinned here.

Left (in the issue's note): other names that need world knowledge ("Samuel Clemens", "Bombay", "runner-up"),
"four goals to two" for 4-2, "343 metres per second" for 343 m/s, "2/3" for two-thirds, a right answer buried in
3 KB of text, claims in scientific notation or whose winner and loser are swapped.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from reward_engine.offline import facts
from reward_engine.offline.grader import Label
from tests.helpers import grade_table

FRANCE = "What is the capital of France?"
IS_PARIS = "Is Paris the capital of France?"
IS_LYON = "Is Lyon the capital of France?"
MONEY = "How much did the United States pay for the Louisiana Purchase?"
PLACE = "Where did the Netherlands finish at the 2010 FIFA World Cup?"
CENTURY = "In which century was William Shakespeare born?"
ART = "Who painted the Mona Lisa?"
MOON = "Who was the first person to walk on the Moon?"
BONES = "How many bones does an adult human have?"
AIR = "What percentage of the air is nitrogen?"


test_pass27_grades = grade_table(
    [
        # pass 27: wrong answers paid right or as an abstention
        ("15 million francs", MONEY, "$15 million", Label.INCORRECT),
        ("15 million dollars", MONEY, "$15 million", Label.CORRECT),
        ("2nd to last", PLACE, "second", Label.INCORRECT),
        ("second", PLACE, "second", Label.CORRECT),
        ("Many tourists think of Paris first, yet the capital is Lyon.", FRANCE, "Paris", Label.INCORRECT),
        ("Tokyo. The capital was Kyoto until 1868.", "What is the capital of Japan?", "Tokyo", Label.CORRECT),
        ("The capital of Kyrgyzstan is Bishkeq.", "What is the capital of Kyrgyzstan?", "Bishkek", Label.CORRECT),
        ("Yes, but the capital is actually Lyon.", IS_PARIS, "Yes", Label.INCORRECT),
        ("Yes, the capital is Paris.", IS_PARIS, "Yes", Label.CORRECT),
        ("1600s", CENTURY, "16th century", Label.INCORRECT),
        ("the 1500s", CENTURY, "16th century", Label.CORRECT),
        ("No idea.", IS_LYON, "No", Label.NOT_ATTEMPTED),
        ("No clue, sorry.", IS_LYON, "No", Label.NOT_ATTEMPTED),
        # pass 27: right answers paid wrong
        ("No, it's Paris.", IS_LYON, "No", Label.CORRECT),
        ("Yes, it's Paris.", IS_LYON, "No", Label.INCORRECT),
        ("No, I don't know.", IS_LYON, "No", Label.NOT_ATTEMPTED),
        ("Yes and no.", IS_PARIS, "Yes", Label.INCORRECT),
        ("Some say Lyon, but it's Paris.", FRANCE, "Paris", Label.CORRECT),
        ("Some say Paris, but it's Lyon.", FRANCE, "Paris", Label.INCORRECT),
        ("Paris (Parigi in Italian)", FRANCE, "Paris", Label.CORRECT),
        ("Lyon (Lione in Italian)", FRANCE, "Paris", Label.INCORRECT),
        # the review of pass 26: JSON fields read as the answer they are not
        ('{"city": "Paris", "is_capital": true}', FRANCE, "Paris", Label.CORRECT),
        ('{"painting": "Mona Lisa", "artist": "Leonardo da Vinci"}', ART, "Leonardo da Vinci", Label.CORRECT),
        ('{"capital_of": "France", "city": "Paris"}', FRANCE, "Paris", Label.CORRECT),
        ('{"first_person": "Neil Armstrong", "second_person": "Buzz Aldrin"}', MOON, "Neil Armstrong", Label.CORRECT),
        ('{"city": "Paris", "country": "France", "population": 2102650}', FRANCE, "Paris", Label.CORRECT),
        ('{"answer": "I am not sure", "guess": "Paris"}', FRANCE, "Paris", Label.CORRECT),
        ('{"answer": null, "best_guess": "Lyon"}', FRANCE, "Paris", Label.INCORRECT),
        # ... titles that are given names, one initial, a country before the country, notes that are no answers
        ("Elizabeth Warren", "Who led the Supreme Court in Brown v. Board?", "Earl Warren", Label.INCORRECT),
        ("Entamoeba coli", "Which bacterium is a common cause of food poisoning?", "E. coli", Label.INCORRECT),
        ("Probably Bolivia, Peru", "In which country is Machu Picchu?", "Peru", Label.INCORRECT),
        ("Paris (edit: typo)", FRANCE, "Paris", Label.CORRECT),
        ("Update: still Paris.", FRANCE, "Paris", Label.CORRECT),
        (
            "Windows Update: it delivers patches.",
            "Which Windows feature delivers patches?",
            "Windows Update",
            Label.CORRECT,
        ),
        ("Adults have 206 bones, babies about 300.", BONES, "206", Label.CORRECT),
        ("Nitrogen is 78%; the other 21% is mostly oxygen.", AIR, "78%", Label.CORRECT),
        # the review of pass 27 (265 cases, old against new code): 51 regressions, mended and pinned here
        (
            "Canberra. Many assume the capital is Sydney.",
            "What is the capital of Australia?",
            "Canberra",
            Label.CORRECT,
        ),
        ("Rome. Fun fact: in Germany the capital is Berlin.", "What is the capital of Italy?", "Rome", Label.CORRECT),
        ("Kyoto. Today the capital is Tokyo.", "What was the capital of Japan before 1868?", "Kyoto", Label.CORRECT),
        (
            "The capital was Rio de Janeiro until 1960.",
            "What was the capital of Brazil in 1950?",
            "Rio de Janeiro",
            Label.CORRECT,
        ),
        ("No idea, but I'd guess no.", IS_LYON, "No", Label.CORRECT),
        ("Second, holding on to the last minute.", PLACE, "second", Label.CORRECT),
        ("second-to-last", PLACE, "second", Label.INCORRECT),
        (
            "Santa Maria delle Grazie (a convent in Milan)",
            "Where is The Last Supper?",
            "Santa Maria delle Grazie",
            Label.CORRECT,
        ),
        ("Lyon. Edit: corrected to Paris.", FRANCE, "Paris", Label.CORRECT),
        ("Lyon. Update - Paris.", FRANCE, "Paris", Label.CORRECT),
        ("5 million baht", "How much was the prize?", "5 million rand", Label.INCORRECT),
        ('{"capital": "Paris", "capital_of_germany": "Berlin"}', FRANCE, "Paris", Label.CORRECT),
        ('{"larger": "Paris"}', "Which is larger, Paris or Lyon?", "Paris", Label.CORRECT),
        (
            '{"value": 100, "unit": "Celsius"}',
            "What is the boiling point of water at sea level?",
            "100 °C",
            Label.CORRECT,
        ),
        ('{"answer": "Paris", "alternatives": ["Lyon"]}', FRANCE, "Paris", Label.INCORRECT),
        ('{"is_capital": true}', IS_PARIS, "Yes", Label.CORRECT),
        ("Escherichia coli", "Which bacterium is a common cause of food poisoning?", "E. coli", Label.INCORRECT),
        ("E. coli", "Which bacterium is a common cause of food poisoning?", "Escherichia coli", Label.CORRECT),
        ("Georges-Eugène Haussmann", "Who rebuilt Paris under Napoleon III?", "Baron Haussmann", Label.CORRECT),
        ("Northern Ireland, UK", "Which country is Belfast in?", "United Kingdom", Label.CORRECT),
        (
            "German, the official language of Germany as well.",
            "What is the official language of Austria?",
            "German",
            Label.CORRECT,
        ),
    ]
)


def test_an_event_placed_where_the_passage_places_another_is_not_supported() -> None:
    mozart = ["Wolfgang Amadeus Mozart was born in Salzburg in 1756 and died in Vienna in 1791."]
    assert not facts.supported("Mozart died in Salzburg.", mozart)
    assert facts.supported("Mozart died in Vienna.", mozart)
    assert facts.supported("Mozart was born in Salzburg.", mozart)
    # each event reaches to the next one: its place may come after other words (the review of pass 27)
    assert facts.supported("Mozart died in Vienna.", ["Mozart died in the Austrian capital Vienna in 1791."])
    assert facts.supported("Einstein was born in Germany.", ["Einstein was born in Ulm, Germany, in 1879."])
    assert facts.supported(
        "Lincoln was assassinated in Washington.", ["Lincoln was assassinated at Ford's Theatre in Washington."]
    )


@pytest.mark.parametrize(("answer", "contradicted"), [("mid-1880s", True), ("the 1880s", False), ("late 1880s", False)])
def test_binary_rar_reads_a_span_of_years_against_the_evidence(answer: str, contradicted: bool) -> None:
    tower = ["The Eiffel Tower was completed in 1889 for the World's Fair."]
    assert facts.answer_contradicted("In which year was the Eiffel Tower completed?", answer, tower) is contradicted


def test_a_gold_holding_nan_is_a_bad_row_naming_the_field(tmp_path: Path) -> None:
    rows = tmp_path / "in.jsonl"
    good = {"id": 1, "question": FRANCE, "completion": "<think>x</think><answer>Paris</answer>", "answers": ["Paris"]}
    bad = {**good, "id": 2, "answers": [float("nan")]}
    rows.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n")  # json writes NaN, as Python's reader takes it
    out, config = tmp_path / "out.jsonl", tmp_path / "reward.yaml"
    config.write_text("grader: offline\nfactuality: {enabled: false}\n")
    done = subprocess.run(
        [sys.executable, "-m", "reward_engine.score", "--config", str(config), "--input", str(rows)]
        + ["--output", str(out), "--no-progress"],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[1],
    )
    scored = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["status"] for r in scored] == ["ok", "bad_input"], done.stderr
    assert "field 'answers' holds NaN" in scored[1]["error"] and f"{rows}:2" in scored[1]["error"]
