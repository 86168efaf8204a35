"""The asked slot given to another name in a clause of its own: the answer names the gold, then hands what the
question asks to someone else ("Pete Seeger wrote it; Phil Ochs only recorded it.", "John Singleton was the first
African-American; the youngest was Orson Welles.": hostile pass 51, both paid CORRECT). One rule for what passes 16
and 41 had closed a wording at a time ("But the capital is Lyon.", "Robert Allen wrote the lyrics").

A clause gives the slot away only when it is the question said again with another name in it: every content word
but the name is the question's, so "Yuri Gagarin was the first in space" (another record), "the capital of Prussia"
(the name a modifier), "Many assume the capital is Sydney" (reported, not claimed) and "Matthew Broderick voiced
Simba" (for Simba's father) stay remarks (the pinned reviews hold these CORRECT).
"""

from __future__ import annotations

import re
from typing import Iterable

from .words import STOP, WORD, one_e_form, stem

# question words every question has: they ask, they do not describe
_ASKING = frozenset(
    "who what which whom whose when where why how name named did does do one person people called".split()
)
# words a restatement may add without saying anything new ("she actually ends up with ...")
_FILLER = frozenset("actual actually really probably only just in fact ever up them one her his true real".split())
# "Michael Keaton also played Batman": another who did it too, beside the gold, not instead of it (landing review)
_AS_WELL = re.compile(r"(?i)\b(?:also|too|as well|likewise)\b")
_NAME = re.compile(
    r"(?<![\w'])[A-Z][\w'\u2019.]*(?:-[A-Z]\w*)*(?:\s+(?:(?:de|van|von|da|del|la|le)\s+)?[A-Z][\w'\u2019.]*(?:-[A-Z]\w*)*)*"
)
_DENIED = re.compile(r"(?i)\b(?:not|never|no|neither|nor|nobody|none)\b|n['\u2019]t\b")
# a claim reported of others, a myth, a confusion: not the answer's own ("Many assume the capital is Sydney.")
_REPORTED = re.compile(
    r"(?i)\b(?:say|says|said|assumed?|assumes|believed?|believes|claim(?:s|ed)?|cited|think|thinks|"
    r"thought|call(?:s|ed)?|often|sometimes|some|many|people|rumou?r|myth|mistak\w*|confus\w*|misattribut\w*)\b"
)
# the answer's own hedge, not a belief it reports: "Paris. I guess the capital is Lyon though." (review 28)
_OWN_HEDGE = re.compile(
    r"(?i)^\W*(?:but\s+|and\s+|so\s+)?i\s+(?:think|guess|believe|suppose|reckon|bet)\s+(?:that\s+)?"
)
# a clause ends at a sentence's end (not "Jr." or an initial) or a turn ("though", "but")
_CLAUSE_END = re.compile(
    r"(?i)(?<!\bJr)(?<!\bSr)(?<!\bDr)(?<!\bSt)(?<!\bMr)(?<!\bMrs)(?<!\bMs)(?<!\b[A-Z])[.;!?](?:\s+|$)|\n"
    r"|,?\s+(?:though|but|although|while|whereas|yet)\b"
)
_RELATIVE = re.compile(r"(?i)^\W*(?:who|which|that|where|whose|whom|when)\b")
_MODIFIER = re.compile(r"(?i)\b(?:of|in|from|on|at|for|near|outside|inside|since|after|before)\s+(?:the\s+)?$")
_PRONOUN_SUBJECT = re.compile(r"(?i)^\W*(?:it|they|this|that)\b")
_YES_NO = frozenset({"yes", "no"})
# "Who wrote ...?", "Which singer had ...?": a deed's doer asked, not "Who does she marry?" or "Who was ...?"
_ASKS_THE_DOER = re.compile(
    r"(?i)^\W*(?:who|which\s+\w+|what\s+\w+)\s+"
    r"(?!(?:is|was|are|were|does|did|do|has|have|had|will|would|can|could|should|may|might)\b)[a-z]+(?:ed|s)?\b"
)
_THE_ONE = re.compile(r"(?i)\s+(?:is|was)\s+the\s+one\s+(?:who|that)\b")


# one word for a verb's forms and its doer: "wrote", "written" and "writer" are "write" (review 52)
_FORMS = {
    "wrote": "write", "written": "write", "writ": "write", "writer": "write", "sang": "sing", "sung": "sing",
    "singer": "sing", "drew": "draw", "drawn": "draw", "won": "win", "winner": "win", "led": "lead", "leader": "lead",
    "built": "build", "builder": "build", "made": "make", "maker": "make", "gave": "give", "given": "give",
    "took": "take", "taken": "take", "began": "begin", "begun": "begin", "ran": "run", "found": "find",
    "flew": "fly", "flown": "fly", "shot": "shoot", "spoke": "speak", "spoken": "speak", "chose": "choose",
    "chosen": "choose", "beat": "beat", "beaten": "beat", "held": "hold", "holder": "hold",
    "author": "write", "authored": "write",
}  # fmt: skip


def with_verb_bases(words: Iterable[str]) -> set[str]:
    """``words`` with each irregular verb form's base added: "won" meets the question's "win" (hostile pass 60:
    "The Steelers won Super Bowl XIV" did not answer "When did the Steelers win ...?").

    >>> sorted(with_verb_bases({"won", "cup"}))
    ['cup', 'win', 'won']
    """
    words = set(words)
    return words | {_FORMS.get(w) or _PAST_FORMS[w] for w in words if w in _FORMS or w in _PAST_FORMS}


# irregular past forms beyond ``_FORMS`` (which also names doers), for matching a question's verb only
_PAST_FORMS = {
    "sank": "sink", "sunk": "sink", "fell": "fall", "fallen": "fall", "rose": "rise", "risen": "rise",
    "died": "die", "born": "bear", "bore": "bear", "came": "come", "became": "become", "went": "go", "gone": "go",
    "saw": "see", "seen": "see", "knew": "know", "known": "know", "grew": "grow", "grown": "grow", "sold": "sell",
    "told": "tell", "thought": "think", "taught": "teach", "brought": "bring", "bought": "buy", "caught": "catch",
    "fought": "fight", "met": "meet", "left": "leave", "lost": "lose", "paid": "pay", "said": "say", "sent": "send",
    "spent": "spend", "stood": "stand", "struck": "strike", "swam": "swim", "swum": "swim", "threw": "throw",
    "thrown": "throw", "wore": "wear", "worn": "wear", "froze": "freeze", "frozen": "freeze", "hung": "hang",
    "dug": "dig", "drove": "drive", "driven": "drive", "rode": "ride", "ridden": "ride", "broke": "break",
    "broken": "break", "stole": "steal", "stolen": "steal", "ate": "eat", "eaten": "eat", "hid": "hide",
    "hidden": "hide", "lay": "lie", "lain": "lie", "sat": "sit", "slew": "slay", "slain": "slay", "shook": "shake",
    "woke": "wake", "woken": "wake", "laid": "lay", "won": "win", "sang": "sing", "wrote": "write",
}  # fmt: skip


_DOER = re.compile(r"^(?P<base>\w{4,}?)(?:er|or)$")  # "inventor", "director", "painter": invent, direct, paint


def _form(word: str) -> str:
    word = word.strip("'\u2019").lower()
    if word in _FORMS:
        return _FORMS[word]
    doer = _DOER.match(word)
    # the doer as its deed's past tense: "composer" is "composed" ("compos"), not "compos" stemmed to "compo"
    return stem(doer["base"] + "ed" if doer and word not in _NOT_DOERS else word)


_NOT_DOERS = frozenset("after other under over never ever either neither number order border water member".split())


def _stems(text: str) -> set[str]:
    """Content words as one form each, quotes off ("'Draft" is "draft": review 52)."""
    return one_e_form({_form(w) for w in WORD.findall(text) if w.strip("'\u2019").lower() not in STOP})


def _foreign_names(clause: str, asked: set[str], key: set[str]) -> list[re.Match[str]]:
    """Capitalised runs that share no word with the question; a single capitalised word opening the clause is left (it
    opens a sentence as often as it names: "Fourteen lines.", "Humans have one heart") unless the question's deed or
    "is the one who" follows it ("Raphael painted the ceiling": review 52)."""
    out = []
    for found in _NAME.finditer(clause):
        run = found.group(0).rstrip(".")
        after = clause[found.end() :].split()
        if (
            found.start() == 0
            and len(run.split()) == 1
            and not (_THE_ONE.match(clause[found.end() :]) or (after and _stems(after[0]) & key))
        ):
            continue
        words = _stems(run)
        if words and not words & asked:  # "Anthony Stark", "Abe Simpson": the question's own (review 40)
            out.append(found)
    return out


def given_to_another(text: str, question: str | None, golds: Iterable[str]) -> bool:
    """A clause that says the question again with a name that is neither the gold's nor the question's in its
    place: the answer commits to that name for (part of) what is asked.

    >>> q = "Who wrote the anti-war song 'Draft Dodger Rag'?"
    >>> given_to_another("Pete Seeger wrote it; Phil Ochs only recorded it.", q, ["Phil Ochs"])
    True
    >>> given_to_another("Phil Ochs wrote it; Pete Seeger recorded it.", q, ["Phil Ochs"])
    False
    >>> given_to_another("Phil Ochs; it was not Pete Seeger who wrote it.", q, ["Phil Ochs"])
    False
    >>> given_to_another("Phil Ochs. He also wrote Ramblin' Boy.", q, ["Phil Ochs"])
    False
    >>> given_to_another("Neil Armstrong. Yuri Gagarin was the first in space.",
    ...                  "Who was the first person to walk on the Moon?", ["Neil Armstrong"])
    False
    """
    golds = [g for g in golds if g]
    if not question or any(g.strip().strip(".").lower() in _YES_NO for g in golds):
        return False
    asked = _stems(question)
    gold_words = set().union(*(_stems(g) for g in golds)) if golds else set()
    key = {w for w in asked - gold_words if w not in _ASKING}
    doer_asked = bool(_ASKS_THE_DOER.match(question))  # "Who played Nicole?": the slot is the subject
    owned = {m.lower() for m in re.findall(r"\b([A-Z]\w+)['\u2019]s\b", question)}  # "Simba's father": not Simba
    earlier_name = False
    for clause in _CLAUSE_END.split(text):
        clause = _OWN_HEDGE.sub("", (clause or "").strip(" ,:-\u2014"))  # "I guess the capital is Lyon": its own
        if not clause:
            continue
        names = _foreign_names(clause, asked, key)
        follows_another, earlier_name = earlier_name, bool([n for n in names if not _stems(n.group(0)) & gold_words])
        if len(names) != 1 or _DENIED.search(clause) or _REPORTED.search(clause) or _RELATIVE.match(clause):
            continue
        if _AS_WELL.search(clause):
            continue
        if follows_another and _PRONOUN_SUBJECT.match(clause):
            continue  # "He also directed Ratatouille; it was voiced by Patton Oswalt": "it" is the film
        found = names[0]
        name = found.group(0).rstrip(".")
        named = _stems(
            name
        )  # the gold, part of it or a form holding it ("Brazilian Portuguese"); "Percy Shelley" is not
        if named <= gold_words or gold_words <= named or _MODIFIER.search(clause[: found.start()]):
            continue
        rest = _stems(clause[: found.start()] + " " + clause[found.end() :]) - _FILLER - _ASKING
        if not rest & key or any(re.search(rf"(?i)\b{re.escape(w)}\b(?!['\u2019]s)", clause) for w in owned):
            continue
        extra = rest - key
        possessive = name.endswith(("'s", "\u2019s"))
        if doer_asked and not (possessive or _as_the_doer(clause, found, key)):
            continue  # "Arianne Zucker. Actually, she also played Sami Brady.": another role, not another player
        if not extra or (possessive and len(extra) == 1):  # "19 was Sam Smith's debut album"
            return True
    return False


def _as_the_doer(clause: str, found: re.Match[str], key: set[str]) -> bool:
    """The name stands where the question's doer stands: before the deed ("Pete Seeger wrote it"), after "by" ("was
    won by Argentina") or a verb "to be" ("the Web's inventor was Vint Cerf"), or as "the one who"."""
    before = clause[: found.start()]
    if not any(_stems(w) & key for w in before.split()) or _THE_ONE.match(clause[found.end() :]):
        return True
    return bool(
        re.search(
            r"(?i)\b(?:by|is|was|are|were|(?:goes|went|belongs)\s+to)\s+(?:(?:actually|really|in fact|truly),?\s+)?$",
            before,
        )
    )  # "credit for directing it goes to Roman Polanski" (review 52)
