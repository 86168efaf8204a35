"""What the offline rules take for true: Binary RAR's verdict on a short answer, negated claims, and answers that
smuggle a second guess past the grader (issue #75 point 7; issue #74's hostile pass, cases H1, H2, H6, H8).

* ``binary-rar`` under the offline verifier paid the full 1.0 for "Lyon", "Paris, Lyon, Marseille" and "Not Paris"
  to "What is the capital of France?" and for "8,000 metres" against a KB saying 8,849 (and 0 for the right
  height): it now pays 0 where the question and the answer together make a claim the evidence contradicts and 1
  for the right answer. The verify stage asks a verifier's own ``answer_verdict`` when it has one, never its class.
* A claim that negates the evidence ("Paris is not the capital of France.") was "supported" (word coverage only):
  ten such claims earned a wrong answer the fact score 1.0 under knowrl and knowrl-robust.
* The grader paid "Lyon Paris" when the question offered "Lyon or Paris", "Paris, Lyon" / "Paris Berlin" /
  "Mozart, Beethoven" and struck-through markup ("~~Paris~~ Lyon") as the gold with a qualifier, and "1945 BC"
  as 1945.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reward_engine.config import parse_reward_config
from reward_engine.engine import RewardEngine, Sample
from reward_engine.labels import Label, Verdict
from reward_engine.offline import facts
from reward_engine.offline.grader import grade
from reward_engine.stages.llm_stage import StageOutput
from reward_engine.stages.registry import register

FRANCE = "What is the capital of France?"
EVEREST = "How high is Mount Everest?"
FLUTE = "Who composed The Magic Flute?"
PARIS_TEXT = "Paris is the capital and largest city of France. The city lies on the river Seine."
EVEREST_TEXT = "Mount Everest is the highest mountain above sea level. Its summit is 8,849 metres high."
# the demo KB's wording (Wikipedia's lead): a height to the centimetre
EVEREST_DEMO = (
    "Mount Everest is the highest mountain on Earth above sea level. Its height was most recently measured in "
    "2020 through a joint survey by Nepalese and Chinese authorities as 8,848.86 m."
)


def qa(answer: str, think: str = "Hmm.") -> str:
    return f"<think>{think}</think><answer>{answer}</answer>"


# -- 1. Binary RAR under the offline verifier ------------------------------------------------------------------
BINARY_RAR = [
    # (question, gold, title, answer, reward)
    (FRANCE, "Paris", "Paris", "Paris", 1.0),
    (FRANCE, "Paris", "Paris", "The capital of France is Paris.", 1.0),
    (FRANCE, "Paris", "Paris", "Paris, France", 1.0),
    (FRANCE, "Paris", "Paris", "Lyon", 0.0),  # a wrong name
    (FRANCE, "Paris", "Paris", "Paris, Lyon, Marseille", 0.0),  # a list holding wrong names
    (FRANCE, "Paris", "Paris", "Paris or Lyon", 0.0),
    (FRANCE, "Paris", "Paris", "Not Paris", 0.0),  # a negated gold
    (FRANCE, "Paris", "Paris", "Paris is not the capital of France.", 0.0),
    (FRANCE, "Paris", "Paris", "~~Paris~~ Lyon", 0.0),  # struck through: taken back
    (EVEREST, "8,849 metres", "Mount Everest", "8,849 metres", 1.0),  # paid 0 before: the right height
    (EVEREST, "8,849 metres", "Mount Everest", "29,032 ft", 1.0),  # the same height in feet
    (EVEREST, "8,849 metres", "Mount Everest", "8,000 metres", 0.0),  # a number off the evidence's
    (EVEREST, "8,849 metres", "Mount Everest", "about 9,000 metres", 0.0),
    (FLUTE, "Mozart", "", "Mozart", 1.0),  # "He wrote ... The Magic Flute": the pronoun's sentence before names him
    (FLUTE, "Mozart", "", "Wolfgang Amadeus Mozart", 1.0),
    (FLUTE, "Mozart", "", "Beethoven", 0.0),
    (FLUTE, "Mozart", "", "Mozart, Beethoven", 0.0),
]


@pytest.mark.parametrize("mode", ["hybrid", "bm25"])
async def test_binary_rar_offline_pays_nothing_for_a_contradicted_short_answer(kb, mode: str) -> None:
    """Issue #75 point 7, through the engine on the smoke KB. Under bm25 the response alone ("Lyon") found no
    passage of the title to be contradicted by: the evidence is now searched with the question and the response."""
    config = parse_reward_config(
        {"preset": "binary-rar", "factuality": {"kb_path": "unused-kb-object-given", "retrieval_mode": mode}}
    )
    rows = [Sample(q, qa(answer), gold, title) for q, gold, title, answer, _ in BINARY_RAR]
    async with RewardEngine(config, kb=kb) as engine:
        results = await engine.score(rows)
    got = {(q, answer): r.total for (q, _, _, answer, _), r in zip(BINARY_RAR, results)}
    want = {(q, answer): pay for q, _, _, answer, pay in BINARY_RAR}
    assert {r.status for r in results} == {"ok"}
    assert got == want


@pytest.mark.parametrize(
    "question,answer,passage,contradicted",
    [
        (FRANCE, "Lyon", PARIS_TEXT, True),
        (FRANCE, "Paris", PARIS_TEXT, False),
        (FRANCE, "Paris, on the Seine", PARIS_TEXT, False),  # a detail, not a second answer
        (FRANCE, "Paris and Lyon", PARIS_TEXT, True),
        (FRANCE, "Paris? No.", PARIS_TEXT, True),
        (FRANCE, "Anything but Paris", PARIS_TEXT, True),
        (FRANCE, "Not Lyon, but Paris", PARIS_TEXT, False),
        (FRANCE, "I don't know", PARIS_TEXT, False),
        (EVEREST, "8,849 metres", EVEREST_DEMO, False),  # 8,848.86 m at the answer's precision
        (EVEREST, "It is 8,849 metres tall.", EVEREST_TEXT, False),
        (EVEREST, "8,000 metres", EVEREST_DEMO, True),
        (EVEREST, "8.849 km", EVEREST_TEXT, False),
        ("When was the Eiffel Tower completed?", "1901", "The Eiffel Tower was completed in 1889.", True),
        ("When was the Eiffel Tower completed?", "1889", "The Eiffel Tower was completed in 1889.", False),
        ("Where was Mozart born?", "Salzburg, Austria", "Mozart was born in Salzburg in 1756.", False),
        ("Where was Mozart born?", "Vienna", "Mozart was born in Salzburg in 1756.", True),
    ],
)
def test_the_offline_answer_check(question: str, answer: str, passage: str, contradicted: bool) -> None:
    assert facts.answer_contradicted(question, answer, [passage]) is contradicted


class _SaysContradicted:
    """A verifier plugin that judges a response with its question itself (``answer_verdict``)."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, str]] = []

    async def verify(self, claims, evidence):
        return StageOutput([True] * len(claims))

    async def verdicts(self, claims, evidence):
        return StageOutput([Verdict.SUPPORTED] * len(claims))

    async def answer_verdict(self, question, response, evidence):
        self.asked.append((question, response))
        return StageOutput(Verdict.CONTRADICTED)


class _StatementsOnly:
    """A verifier plugin with the two required methods only: Binary RAR asks ``verdicts`` on the statement."""

    def __init__(self) -> None:
        self.claims: list[str] = []

    async def verify(self, claims, evidence):
        return StageOutput([True] * len(claims))

    async def verdicts(self, claims, evidence):
        self.claims += list(claims)
        return StageOutput([Verdict.CONTRADICTED] * len(claims))


_PLUGINS = {"answer": _SaysContradicted(), "statements": _StatementsOnly()}
register("verifier", "truth-test-answer-verdict")(lambda ctx: _PLUGINS["answer"])
register("verifier", "truth-test-statements")(lambda ctx: _PLUGINS["statements"])


async def test_the_verify_stage_asks_a_verifiers_own_answer_verdict_not_its_class(kb) -> None:
    """Issue #75 point 3: no isinstance special case. A plugin's ``answer_verdict`` decides Binary RAR's verdict; a
    plugin without one is asked ``verdicts`` on the question-and-response statement."""

    def config(verifier: str):
        return parse_reward_config(
            {"preset": "binary-rar", "verifier": verifier, "factuality": {"kb_path": "unused-kb-object-given"}}
        )

    row = Sample(FRANCE, qa("Paris"), "Paris", "Paris")
    async with RewardEngine(config("truth-test-answer-verdict"), kb=kb) as engine:
        (own,) = await engine.score([row])
    assert own.total == 0.0 and _PLUGINS["answer"].asked == [(FRANCE, "Paris")]
    async with RewardEngine(config("truth-test-statements"), kb=kb) as engine:
        (statement,) = await engine.score([row])
    assert statement.total == 0.0 and _PLUGINS["statements"].claims == [f"{FRANCE} Paris"]
    source = (Path(__file__).resolve().parents[1] / "reward_engine" / "stages" / "verify.py").read_text()
    assert "isinstance(verifier" not in source and "OfflineVerifier)" not in source


def test_the_verifier_plugin_signature_is_on_the_engines_page() -> None:
    page = (Path(__file__).resolve().parents[1] / "docs" / "reward-engine.md").read_text(encoding="utf-8")
    for signature in (
        "verify(claims, evidence)",
        "verdicts(claims, evidence)",
        "answer_verdict(question, response, evidence)",
    ):
        assert signature in page


# -- 2. negated claims --------------------------------------------------------------------------------------------
TEN_NEGATIONS = (
    "Paris is not the capital of France. Paris is not the largest city of France. Paris is not located on the river "
    "Seine. Paris is not in the European Union. Paris was never a centre of finance. Paris has no metropolitan area. "
    "Paris is not nicknamed the City of Light. Paris is not in the Île-de-France region. Paris is not a centre of "
    "fashion. Paris is not a centre of gastronomy."
)
PARIS_LEAD = (
    "Paris is the capital and largest city of France, with an estimated city population of 2.04 million. Located "
    "on the river Seine in the centre of the Île-de-France region, it is the largest metropolitan area in the "
    "European Union (EU). Nicknamed the City of Light, Paris has been one of the world's major centres of finance, "
    "diplomacy, commerce, culture, fashion, and gastronomy since the 17th century."
)


def test_a_claim_that_negates_its_evidence_is_contradicted_not_supported() -> None:
    claims = facts.decompose(TEN_NEGATIONS)
    assert len(claims) == 10
    assert not any(facts.supported(c, [PARIS_LEAD]) for c in claims)
    assert facts.contradicted("Paris is not the capital of France.", [PARIS_LEAD])
    assert facts.supported("Paris is the capital of France.", [PARIS_LEAD])
    assert facts.supported("Lyon is not the capital of France.", ["Lyon is not the capital of France."])
    assert not facts.supported("Lyon is the capital of France.", ["Lyon is not the capital of France."])
    assert facts.contradicted("Lyon is the capital of France.", ["Lyon is not the capital of France."])


def test_a_negation_in_another_clause_of_the_sentence_leaves_a_plain_claim_supported() -> None:
    """KnowRL conformance: "... or hail, but some thunderstorms can produce little or no precipitation" still
    supports the plain claim about hail, and a ruled-out aside ("Paris, not Lyon, is ...") is no negated claim."""
    passage = (
        "They are usually accompanied by strong winds and often produce heavy rain and sometimes snow, sleet, or "
        "hail, but some thunderstorms can produce little or no precipitation at all."
    )
    claim = (
        "They are usually accompanied by strong winds and often produce heavy rain and sometimes snow, sleet, or hail."
    )
    assert facts.supported(claim, [passage])
    both = "Paris is the capital of France. Lyon is not the capital."
    assert facts.supported("Paris, not Lyon, is the capital of France.", [both])
    assert not facts.supported("Lyon is the capital.", [both])


@pytest.mark.parametrize("preset", ["knowrl", "knowrl-robust"])
async def test_ten_false_negations_earn_no_fact_score(kb, preset: str) -> None:
    """Hostile case H8: all ten were "supported" (fact score 1.0, a wrong answer paid 1.0 in total)."""
    config = parse_reward_config({"preset": preset, "factuality": {"kb_path": "unused-kb-object-given"}})
    rows = [
        Sample(FRANCE, qa("Lyon", TEN_NEGATIONS), "Paris", "Paris"),
        Sample(FRANCE, qa("Lyon", "Paris is the capital of France."), "Paris", "Paris"),
    ]
    async with RewardEngine(config, kb=kb) as engine:
        negations, honest = await engine.score(rows)
    assert not any(c.supported for c in negations.claims)
    assert negations.fact_score == 0.0
    assert negations.total <= honest.total


# -- 3. the grader: alternatives offered by the question, qualifiers, markup, eras ------------------------------
C, I = Label.CORRECT, Label.INCORRECT  # noqa: E741 - the grade letters' initials
LYON_OR_PARIS = "Is the capital of France Lyon or Paris?"
MOUNTAIN = "What is the highest mountain on Earth?"


@pytest.mark.parametrize(
    "question,answer,gold,label",
    [
        # H1: a word the question offers as an alternative is a guess when the answer says it
        (LYON_OR_PARIS, "Lyon Paris", "Paris", I),
        ("Who composed The Magic Flute, Beethoven or Mozart?", "Beethoven Mozart", "Mozart", I),
        (LYON_OR_PARIS, "Paris", "Paris", C),
        (LYON_OR_PARIS, "Paris, not Lyon", "Paris", C),
        ("Who composed The Magic Flute, Beethoven or Mozart?", "Wolfgang Amadeus Mozart", "Mozart", C),
        # H2: another of the gold's kind after it is a second guess; markup is read as it renders
        (FRANCE, "Paris, Lyon", "Paris", I),
        (FRANCE, "Paris Lyon", "Paris", I),
        (FRANCE, "Paris Berlin", "Paris", I),
        (FRANCE, "paris lyon", "Paris", I),
        (FLUTE, "Mozart, Beethoven", "Mozart", I),
        (FLUTE, "Mozart Beethoven", "Mozart", I),
        ("In which country is Mount Everest?", "Nepal, China", "Nepal", I),
        (FRANCE, "~~Paris~~ Lyon", "Paris", I),
        (FRANCE, "<s>Paris</s> Lyon", "Paris", I),
        (FRANCE, "<del>Paris</del> Lyon", "Paris", I),
        (FRANCE, '<span title="Paris">Lyon</span>', "Paris", I),
        (FRANCE, "Lyon <!-- Paris -->", "Paris", I),
        # ... and a larger place after it, or a word of the question, qualifies it
        (FRANCE, "Paris, France", "Paris", C),
        (FRANCE, "Paris France", "Paris", C),
        (MOUNTAIN, "Mount Everest Nepal", "Everest", C),
        (MOUNTAIN, "Mount Everest, Nepal", "Mount Everest", C),
        ("In which country is Mount Everest?", "Nepal, Asia", "Nepal", C),
        (FLUTE, "Mozart, Austria", "Mozart", C),
        ("Where was Mozart born?", "Salzburg, Austria", "Salzburg", C),
        ("Which city hosted the 2012 Olympics?", "London, England", "London", C),
        ("Who discovered penicillin?", "Alexander Fleming, FRS", "Alexander Fleming", C),  # a post-nominal
        ("What is the capital of Australia?", "Canberra, ACT", "Canberra", C),  # an abbreviation
        ("Who wrote Hamlet?", "William Shakespeare, English playwright", "William Shakespeare", C),  # a description
        ("Who wrote Hamlet?", "William Shakespeare, Christopher Marlowe", "William Shakespeare", I),
        (FRANCE, "Paris, definitely", "Paris", C),
        (FRANCE, "Paris, on the Seine", "Paris", C),
        (FRANCE, "<b>Paris</b>", "Paris", C),
        ("Which museum holds the Mona Lisa?", "The Louvre, Paris", "Louvre", C),  # no kind asked: a qualifier
        # H6: an era marker that is not the gold's makes it another year
        ("In which year did World War II end?", "1945 BC", "1945", I),
        ("When did Apollo 11 land on the Moon?", "1969 BCE", "1969", I),
        ("When did Apollo 11 land on the Moon?", "1969 AH", "1969", I),
        ("When did Apollo 11 land on the Moon?", "July 20, 1969 B.C.", "July 20, 1969", I),
        ("In which year did World War II end?", "1945 AD", "1945", C),
        ("In which year did World War II end?", "1945 CE", "1945", C),
        ("When was Rome founded?", "753 BC", "753 BC", C),
        ("When was Rome founded?", "753 AD", "753 BC", I),
    ],
)
def test_the_grader_reads_second_guesses_markup_and_eras(question: str, answer: str, gold: str, label: Label) -> None:
    assert grade(answer, gold, question=question) is label


GRADED_PRESETS = ["knowrl", "knowrl-robust", "truthrl", "truthrl-strict", "threshold"]
HOSTILE = [
    (LYON_OR_PARIS, "Lyon Paris", "Paris", "Paris"),
    (FRANCE, "Paris, Lyon", "Paris", "Paris"),
    (FRANCE, "Paris Berlin", "Paris", "Paris"),
    (FRANCE, "~~Paris~~ Lyon", "Paris", "Paris"),
    (FRANCE, "<s>Paris</s> Lyon", "Paris", "Paris"),
    (FRANCE, '<span title="Paris">Lyon</span>', "Paris", "Paris"),
    (FLUTE, "Mozart, Beethoven", "Mozart", ""),
    ("In which year did World War II end?", "1945 BC", "1945", "World War II"),
    ("When did Apollo 11 land on the Moon?", "1969 AH", "1969", "Apollo 11"),
]


@pytest.mark.parametrize("preset", GRADED_PRESETS)
async def test_no_preset_pays_the_hostile_answers_as_right(kb, preset: str) -> None:
    """H1, H2, H6 through the engine: INCORRECT under every preset that grades (each was CORRECT under all five)."""
    extra = {"threshold_t": 0.75} if preset == "threshold" else {}
    config = parse_reward_config({"preset": preset, **extra, "factuality": {"kb_path": "unused-kb-object-given"}})
    rows = [Sample(q, qa(answer), gold, title) for q, answer, gold, title in HOSTILE]
    async with RewardEngine(config, kb=kb) as engine:
        results = await engine.score(rows)
    assert {a: r.label for (_, a, _, _), r in zip(HOSTILE, results)} == {a: "INCORRECT" for _, a, _, _ in HOSTILE}
