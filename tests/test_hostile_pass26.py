"""Hostile pass 26 (issue #74): 177 new cases written before they were run (12 whole completions under four presets,
19 on jobs): no data loss, no stale result. Closed here, each beside its control: answers written as JSON (a key read
as a name, a second field read as detail), guesses weighed in percent ("Paris 40%, Lyon 60%", a table of them), the
asked relation given to another place ("The capital of Lyon is Paris"), "edit:" and "update:" corrections, initials
spelled out, peerage titles, "Cusco Region, Peru", a count or share given to another owner or part.

Left (in the issue's note): "The capital of Lyon is Paris." CORRECT (no gazetteer of cities: a one-word name may
be the country's other name, "Deutschland"); "The capital of France." (an echo of the question) INCORRECT, not
NOT_ATTEMPTED; "71% land" for the share covered by water CORRECT; a bare "—" answer paid as no answer; numbered
reasoning steps ("1. ... 3. So the capital is Paris.") read as a list.
"""

from __future__ import annotations

import pytest

from reward_engine.offline import facts
from reward_engine.offline.grader import Label
from tests.helpers import grade_table

FRANCE = "What is the capital of France?"
TOLKIEN = "Who wrote The Lord of the Rings?"
THATCHER = "Who was the first female Prime Minister of the United Kingdom?"
PERU = "In which country is Machu Picchu?"
SPIDER = "How many legs does a spider have?"
WATER = "What percentage of Earth's surface is covered by water?"
EIFFEL = "In which year was the Eiffel Tower completed?"


test_pass26_grades = grade_table(
    [
        # an answer written as data: the answer key, else the key asked for, else every value side by side
        ('{"capital": "Lyon", "largest_city": "Paris"}', FRANCE, "Paris", Label.INCORRECT),
        ('{"capital": "Paris", "largest_city": "Paris"}', FRANCE, "Paris", Label.CORRECT),
        ('{"answer": "Paris", "confidence": 0.4}', FRANCE, "Paris", Label.CORRECT),
        ('{"answer": "Lyon", "confidence": 0.9}', FRANCE, "Paris", Label.INCORRECT),
        ('{"answer": null}', FRANCE, "Paris", Label.NOT_ATTEMPTED),
        ('{"city": "Lyon", "other": "Paris"}', FRANCE, "Paris", Label.INCORRECT),
        ('```json\n{"year": 1889}\n```', EIFFEL, "1889", Label.CORRECT),
        # guesses weighed in percent, where the gold is no number
        ("| Candidate | Likelihood |\n|---|---|\n| Paris | 40% |\n| Lyon | 60% |", FRANCE, "Paris", Label.INCORRECT),
        ("Paris 40%, Lyon 60%", FRANCE, "Paris", Label.INCORRECT),
        ("Paris (90%)", FRANCE, "Paris", Label.CORRECT),
        ("Paris, 100% sure.", FRANCE, "Paris", Label.CORRECT),
        # the asked relation given to another place, the gold said
        ("Lyon is the capital of Paris.", FRANCE, "Paris", Label.INCORRECT),
        ("The capital of Germany is Paris.", FRANCE, "Paris", Label.INCORRECT),
        ("Paris, capital of Germany.", FRANCE, "Paris", Label.INCORRECT),
        # ... and only then (the review of pass 26: a broader rule paid 23 true answers wrong)
        ("Berlin is the capital of Deutschland.", "What is the capital of Germany?", "Berlin", Label.CORRECT),
        ("Berlin, capital of Prussia.", "What is the capital of Germany?", "Berlin", Label.CORRECT),
        ("Paris, often called the fashion capital of Europe.", FRANCE, "Paris", Label.CORRECT),
        ("Paris is the capital of France, just as Berlin is the capital of Germany.", FRANCE, "Paris", Label.CORRECT),
        ("Paris is the capital of France.", FRANCE, "Paris", Label.CORRECT),
        ("Paris, the capital of the French Republic.", FRANCE, "Paris", Label.CORRECT),
        ("Paris. The capital of Germany is Berlin.", FRANCE, "Paris", Label.CORRECT),  # an aside
        # corrections the reading did not know
        ("Lyon (edit: Paris)", FRANCE, "Paris", Label.CORRECT),
        ("Paris (edit: Lyon)", FRANCE, "Paris", Label.INCORRECT),
        ("Lyon. Update: Paris.", FRANCE, "Paris", Label.CORRECT),
        # names: initials spelled out, a peerage title
        ("John Ronald Reuel Tolkien", TOLKIEN, "J. R. R. Tolkien", Label.CORRECT),
        ("Christopher Reuel Tolkien", TOLKIEN, "J. R. R. Tolkien", Label.INCORRECT),
        ("Baroness Thatcher", THATCHER, "Margaret Thatcher", Label.CORRECT),
        ("Baroness Williams", THATCHER, "Margaret Thatcher", Label.INCORRECT),
        # a place written with its country
        ("Cusco Region, Peru", PERU, "Peru", Label.CORRECT),
        ("Bolivia, Peru", PERU, "Peru", Label.INCORRECT),
        # a figure given to another owner or part
        ("Spiders have eight legs, insects have six.", SPIDER, "8", Label.CORRECT),
        ("Spiders have six legs, insects have eight.", SPIDER, "8", Label.INCORRECT),
        ("71% (29% is land)", WATER, "71%", Label.CORRECT),
        ("29% (71% is land)", WATER, "71%", Label.INCORRECT),
    ]
)


@pytest.mark.parametrize(
    ("answer", "contradicted"),
    [
        ('{"answer": "Paris"}', False),  # "answer" was read as a name the evidence lacks: the right answer paid 0
        ('{"answer": "Lyon"}', True),
        ("Paris is the capital of France.", False),
    ],
)
def test_pass26_binary_rar(answer: str, contradicted: bool) -> None:
    capital = ["Paris is the capital and largest city of France."]
    assert facts.answer_contradicted(FRANCE, answer, capital) is contradicted
