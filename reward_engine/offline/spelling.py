"""Whether a name in an answer is the gold's name misspelt or another name: SimpleQA forgives a typo in a name
that is clearly the same name ("Hyun Won Chung"), never another person ("William Napier" for John Napier, "Dan
Brown" for Don Brown), another number ("World War I") or another district ("South West Delhi")."""

from __future__ import annotations

import re

from reward_engine.offline.answer_forms import HONORIFICS, NAME_PARTICLES
from reward_engine.offline.reading import find_word
from reward_engine.offline.text_form import fold_marks, normalize


def another_given_name(text: str, before: str, gold: str) -> bool:
    """The family name comes after a name the gold does not hold: "William Napier" for John Napier, "Just van
    Rossum" for Guido van Rossum, "Franz Xaver Wolfgang Mozart" for Wolfgang Amadeus Mozart (hostile pass 5),
    "Joliot-Curie" or "Irène Joliot-Curie" for Marie Curie (pass 6) name other people. Walks back over the raw
    words before it, and the words joined to it by a hyphen, that the gold holds (or their initials) to the first
    that it does not: a capitalised one is another person's name, unless one of the gold's own names comes before
    it ("Maria Skłodowska-Curie": her own double name). A comma or a small word ends the name ("Yes, Mozart", "the
    composer Mozart"). ``before`` is the normalised text before the family name."""
    tokens, seen, want = text.split(), 0, len(before.split())
    at = next((i for i, t in enumerate(tokens) if (seen := seen + len(normalize(t).split())) > want), None)
    if at is None:
        return False
    gold_words = set(gold.split())
    joined = normalize(tokens[at]).split()[: want - (seen - len(normalize(tokens[at]).split()))]  # "joliot"
    words = [(w, True) for w in reversed(joined)]
    for token in reversed(tokens[:at]):
        if token[-1:] in ",;:!?()\"'\u201d":
            break
        if _DOTTED_INITIALS.fullmatch(token):  # "J.S. Bach", "W.A. Mozart": one initial per letter
            words += [(c.lower(), True) for c in reversed(re.findall(r"[A-Z]", token))]
            continue
        words += [(w, token[:1].isupper()) for w in reversed(normalize(token).split())] or [("", False)]
    other, walked, others, order = False, set(), [], gold.split()
    for word, capitalised in words:
        initial = len(word) == 1 and any(g.startswith(word) for g in gold_words)
        initial = initial or any(g in full_forms(word) for g in gold_words)  # "Rob Knepper" (hostile pass 47)
        initial = initial or any(_full_of_diminutive(word, g) for g in gold_words)  # "Timothy" for Tim (pass 66)
        if word in gold_words or initial or (other and any(_spelt(word, g) for g in gold_words)):
            if other and any(len(o) == 1 for o in others) and any(len(g) == 1 for g in gold_words):
                return True  # "George H. W. Bush" for George W. Bush: an initial beside the gold's own (review 61)
            if other:
                # her own given name before it, unless the gold has a name of its own where the other one
                # stands: "Johann Christian Bach" for Johann Sebastian Bach (hostile pass 16); a gold's initial
                # spelled out is its own ("John Fitzgerald Kennedy" for John F. Kennedy: pass 18's review)
                at = next((i for i, g in enumerate(order) if _own_given(word, g)), None)
                between = set(order[at + 1 : -1]) if at is not None else set()
                spelled = {g for g in between if len(g) == 1 and any(o.startswith(g) for o in others)}
                return not any(_own_given(word, g) for g in gold_words) or bool(between - walked - spelled)
            walked.add(word)
            continue
        if not word or word in HONORIFICS or not capitalised:
            break
        other = True
        others.append(word)
    return other


def next_word(text: str, before: str) -> str:
    """The raw word after the one ``before`` (normalised text) ends at, or "" where a mark ends the name."""
    tokens, seen, want = text.split(), 0, len(before.split())
    at = next((i for i, t in enumerate(tokens) if (seen := seen + len(normalize(t).split())) > want), None)
    if at is None or at + 1 >= len(tokens) or tokens[at][-1:] in ",;:.!?()\"'\u201d-":
        return ""
    if re.search(r"['\u2019]s?$", tokens[at]):  # "Shakespeare's Hamlet": his work, no longer name (landing review)
        return ""
    return tokens[at + 1]


def another_name_after(text: str, before: str, gold: str) -> bool:
    """The family name goes on into a name the gold does not hold: "King George VI." for William Lyon Mackenzie
    King names the king, not the prime minister (hostile pass 60); "Mackenzie King, prime minister" and "King led
    Canada" stop at the comma or a small word. A numeral or a suffix after it ("Henry Ford II", "King Jr.") is
    left to the other rules. ``before`` is the normalised text before the family name.

    >>> another_name_after("King George VI.", "", "william lyon mackenzie king")
    True
    >>> another_name_after("Mackenzie King, the Liberal leader.", "mackenzie", "william lyon mackenzie king")
    False
    """
    following = next_word(text, before)
    word = normalize(following).split()[:1]
    if not word or not following[:1].isupper() or word[0] in set(gold.split()) | HONORIFICS:
        return False
    return not re.fullmatch(r"(?:[IVX]+|Jr|Sr|Jnr|Snr)\W*", following)


_DOTTED_INITIALS = re.compile(r"(?:[A-Z]\.){2,3}")


# short forms that are no given name of their own, so their full form names the same person ("Timothy Berners-Lee"
# for Tim Berners-Lee); "Will", "Harry", "Kate", "Drew", "Jerry" are ("William Smith" is not Will Smith)
_DIMINUTIVES = frozenset(
    """tim bob bobby bill billy jim jimmy mike mikey rob robbie tom tommy tony ben benny dan danny dave joe joey matt
    nick greg jeff larry ron ronnie don donnie fred freddie ken kenny chuck walt vince phil doug abe zach zack liz
    lizzie sue susie becky debbie jen jenny peggy cathy kathy gabe stan bernie ernie cliff""".split()
)


def _full_of_diminutive(word: str, gold_word: str) -> bool:
    """``word`` is the full given name of the gold's short one, where the short one stands for no other name.

    >>> _full_of_diminutive("timothy", "tim"), _full_of_diminutive("william", "will")
    (True, False)
    """
    return gold_word in _DIMINUTIVES and word in full_forms(gold_word)


def _own_given(word: str, gold_word: str) -> bool:
    """``word`` is the gold's given name, spelt another way or said in full ("Maria", "Timothy")."""
    return _spelt(word, gold_word) or _full_of_diminutive(word, gold_word)


def _spelt(word: str, gold_word: str) -> bool:
    """The same given name in another spelling or language ("Maria" for Marie): same first three letters, length
    within one."""
    return word == gold_word or (len(word) >= 4 and word[:3] == gold_word[:3] and abs(len(word) - len(gold_word)) <= 1)


MIN_RESPELT = 6  # letters: a one-letter slip in a shorter name ("Iraq" for Iran, "Mali" for Bali) is another name
LONG_NAME = 9  # letters: any one letter dropped inside a name this long is a slip ("Kanchenjunga")


def compound_part(gold_raw: str) -> int:
    """For one word written with hyphens, the shortest part a slip may be in: any in a common noun ("fleur-de-lys"),
    five letters in a name ("Port-au-Prinse", "Al-Qaida"; "Al-Ahli" is another club than Al-Ahly: the reviews of
    passes 35 and 36); 0 for anything else."""
    if not re.fullmatch(r"[^\W\d_]+(?:-[^\W\d_]+)+", gold_raw.strip()):
        return 0
    return 1 if gold_raw[1:].islower() else MIN_RESPELT - 1  # "Fleur-de-lis" at a sentence's start is a noun


def one_letter_off(seg: str, gold: str, compound: int = 0) -> str | None:
    """The word of ``seg`` that spells a one-word ``gold`` of ``MIN_RESPELT`` letters or more with one slip inside
    it: a letter swapped for one that sounds alike ("bishkeq", "ashgabad", "columbia" for Colombia), or a vowel,
    an "h" or a doubled letter added or dropped ("libria", "bosphorus"; any letter inside a ``LONG_NAME``):
    SimpleQA forgives a misspelt name that is clearly the same name.
    Not another name one letter away ("Iceland" for Ireland) and never a letter added at an end ("Dominican").
    A compound split in two ("coat hanger", "coat-hanger" for the Coathanger) is the gold's spelling too. A
    ``compound`` gold (one word written with hyphens: "fleur-de-lis") may have its slip in any part ("fleur-de-lys",
    hostile pass 34); a gold of several words, a name ("Dan Brown" for Don Brown), may not."""
    if compound and " " in gold:
        words, size = seg.split(), len(gold.split())
        for i in range(len(words) - size + 1):
            run = words[i : i + size]
            slipped = [w for w, g in zip(run, gold.split()) if w != g]
            if (
                [len(w) for w in run] == [len(w) for w in gold.split()]
                and len(slipped) == 1
                and len(slipped[0]) >= compound
                and one_letter_off("".join(run), gold.replace(" ", ""))
            ):
                return " ".join(run)
        return None
    if " " in gold or len(gold) < MIN_RESPELT or not gold.isalpha() or find_word(seg, gold) >= 0:
        return None
    words = seg.split()
    for first, second in zip(words, words[1:]):
        if first + second == gold and min(len(first), len(second)) >= 3:
            return f"{first} {second}"
    for word in words:
        if word[:1] != gold[:1]:
            continue
        if len(word) == len(gold):
            slips = [(a, b) for a, b in zip(word, gold) if a != b]
            if len(slips) == 1 and any(set(slips[0]) <= group for group in _SOUND_ALIKE):
                return word
        elif abs(len(word) - len(gold)) == 1:
            short, long_ = sorted((word, gold), key=len)
            for i in range(1, len(long_) - 1):
                extra = long_[i]
                alike = extra in "aeiouyh" or extra in (long_[i - 1], long_[i + 1]) or not extra.isascii()
                if long_[:i] + long_[i + 1 :] == short and (alike or len(short) >= LONG_NAME):
                    return word
    return None


_SOUND_ALIKE = (
    frozenset("aeiouy"),
    frozenset("ckq"),
    frozenset("csz"),
    frozenset("td"),
    frozenset("bp"),
    frozenset("gj"),
    frozenset("fvw"),
)


_VOWELS = re.compile(r"[aeiou\s]+")


def _skeleton(name: str) -> str:
    """A name's consonants in order, doubled letters once: "Hyoong Won Choong" and "Hyungwon Chung" agree."""
    return re.sub(r"(.)\1+", r"\1", _VOWELS.sub("", name))


def _numerals(text: str) -> list[str]:
    """The roman numerals among normalised words ("world war ii": ["ii"]): a skeleton drops their vowels."""
    return [numeral for numeral in _ROMAN.findall(text) if numeral]


# a whole word that is a valid Roman numeral: "ii", "xiv", "li" and "lii" (Super Bowls LI and LII: hostile pass 18)
_ROMAN = re.compile(r"\b(?=[ivxl]+\b)((?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3}))\b")


def _another_given_name_by_a_vowel(said: str, given: str) -> bool:
    """A given name of three letters or fewer that a vowel turns into another ("Dan" for Don, "Tim" for Tom): another
    person, not a typo; a consonant that sounds alike ("Zak" for Zac) and any other word of the name ("Stan Lea",
    "Sun Yat-sun") may be slips (the review of pass 35).

    >>> _another_given_name_by_a_vowel("dan", "don"), _another_given_name_by_a_vowel("zak", "zac")
    (True, False)
    """
    slips = [(a, b) for a, b in zip(said, given) if a != b]
    short = len(said) == len(given) <= 3 and given not in _PARTICLES
    return short and len(slips) == 1 and set(slips[0]) <= set("aeiouy")


_PARTICLES = NAME_PARTICLES  # "La Corbusier", "Von Morrison": slips


def misspelt_name(seg: str, gold: str, gold_raw: str) -> bool:
    """SimpleQA forgives typos in a person's name that is clearly the same name: a gold of capitalised words
    (no digits), an answer of about as many words that starts alike and keeps the consonants (one dropped
    from a long name at most: "Hyun Won Chung" for "Hyung Won Chung"). Roman numerals are numbers, never
    typos: "World War I" is not World War II, nor "Louis XIV" Louis XVI (issue #74).

    >>> misspelt_name("hyun won chung", "hyung won chung", "Hyung Won Chung")
    True
    >>> misspelt_name("dan brown", "don brown", "Don Brown"), misspelt_name("anne hathaway", "ann hathaway", "Ann X")
    (False, True)
    >>> misspelt_name("robert di niro", "robert de niro", "Robert De Niro")
    True
    """
    words = gold_raw.split()
    if len(words) < 2 or not all(w[:1].isupper() for w in words) or re.search(r"\d", gold_raw):
        return False
    if not seg or seg[0] != gold[0] or abs(len(seg.split()) - len(gold.split())) > 1:
        return False
    if _numerals(seg) != _numerals(gold):
        return False
    said, want = seg.split(), gold.split()
    if _bearings(said, want) - _bearings(want):
        return False  # "South West Delhi" for South East Delhi: another district, no slip (hostile pass 43)
    # the given name; in a two-word name either word ("Amy Tin" for Amy Tan: the review of pass 36)
    checked = zip(said, want) if len(want) == 2 else zip(said[:1], want[:1])
    if len(said) == len(want) and any(_another_given_name_by_a_vowel(a, b) for a, b in checked):
        return False  # "Dan Brown" for Don Brown: a short name one vowel away is another name (pass 34's probe)
    a, b = _skeleton(seg), _skeleton(gold)
    if a == b:
        return True
    if len(b) < 8 or abs(len(a) - len(b)) != 1:
        return False
    short, long_ = sorted((a, b), key=len)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


# words that tell one place from its neighbour: one for another is never a misspelling
_BEARINGS = frozenset("north south east west northern southern eastern western upper lower inner outer central".split())


def _bearings(words: list[str], joined: list[str] = ()) -> set[str]:  # type: ignore[assignment]
    """The bearing words of a name, "southeast" read as south and east ("Southeast Asia" is South East Asia); a
    bearing that makes a word of ``joined`` with its neighbour is no bearing ("South End" for Southend, "West
    Minster" for Westminster: review 44).

    >>> sorted(_bearings(["southeast", "asia"])), _bearings(["south", "end", "united"], ["southend", "united"])
    (['east', 'south'], set())
    """
    found = set()
    for i, word in enumerate(words):
        glued = {word + words[i + 1]} if i + 1 < len(words) else set()
        glued |= {words[i - 1] + word} if i else set()
        if {_skeleton(g) for g in glued} & {_skeleton(j) for j in joined}:
            continue  # "North Hampton" for Northampton too
        parts = [word[:5], word[5:]] if word[:5] in ("north", "south") and word[5:] in ("east", "west") else [word]
        found |= _BEARINGS.intersection(parts)
    return found


# English given names and their common short forms: "Rob Knepper" is Robert Knepper, "Bill Clinton" William Clinton
# (hostile pass 47: INCORRECT, "Rob" read as another given name). Only forms that stand for one full name here.
_SHORT_FORMS = {
    "robert": "rob robbie bob bobby bert",
    "william": "will bill billy willie willy liam",
    "michael": "mike mikey mick mickey",
    "james": "jim jimmy jamie",
    "thomas": "tom tommy",
    "richard": "rick ricky rich richie dick",
    "joseph": "joe joey",
    "david": "dave davy",
    "daniel": "dan danny",
    "stephen": "steve stevie",
    "steven": "steve stevie",
    "christopher": "chris kit",
    "matthew": "matt",
    "nicholas": "nick nicky",
    "anthony": "tony",
    "andrew": "andy drew",
    "edward": "ed eddie ted teddy ned",
    "theodore": "ted teddy theo",
    "benjamin": "ben benny",
    "samuel": "sam sammy",
    "patrick": "pat paddy",
    "katherine": "kate katie kathy kat",
    "catherine": "cathy kate katie cat",
    "elizabeth": "liz lizzie beth betty eliza",
    "jennifer": "jen jenny",
    "susan": "sue susie",
    "margaret": "maggie meg peggy",
    "gregory": "greg",
    "jeffrey": "jeff",
    "john": "johnny jack",
    "lawrence": "larry",
    "ronald": "ron ronnie",
    "donald": "don donnie",
    "frederick": "fred freddie",
    "henry": "harry hank",
    "kenneth": "ken kenny",
    "timothy": "tim timmy",
    "charles": "charlie chuck",
    "alexander": "alex sandy",
    "walter": "walt",
    "vincent": "vince",
    "philip": "phil",
    "douglas": "doug",
    "gerald": "gerry jerry",
    "abraham": "abe",
    "zachary": "zach zack",
    "nathaniel": "nate nat",
    "joshua": "josh",
    "victoria": "vicky tori",
    "rebecca": "becky",
    "deborah": "debbie deb",
    "jacqueline": "jackie",
    "frances": "fran",
    "francis": "frank",
    "franklin": "frank",
    "raymond": "ray",
    "leonard": "leo len lenny",
    "gabriel": "gabe",
    "maximilian": "max",
    "augustus": "gus",
    "eugene": "gene",
    "stanley": "stan",
    "bernard": "bernie",
    "ernest": "ernie",
    "clifford": "cliff",
    "leslie": "les",
}


def _full_forms_of() -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for full, forms in _SHORT_FORMS.items():
        for short in forms.split():
            out.setdefault(short, set()).add(full)
    return {short: frozenset(fulls) for short, fulls in out.items()}


_FULL_FORMS = _full_forms_of()  # each short form: the full names it stands for ("kate": katherine, catherine)


def full_forms(word: str) -> frozenset[str]:
    """The full given names a short form (lower case) stands for; only that way round: "Rob" is a Robert, but a
    "William Smith" is not Will Smith (Willard), nor "Andrew Barrymore" Drew (review 47).

    >>> sorted(full_forms("kate")), full_forms("robert"), full_forms("paris")
    (['catherine', 'katherine'], frozenset(), frozenset())
    """
    return _FULL_FORMS.get(word, frozenset())


def given_names_as_written(response: str, evidence: str) -> str:
    """A short given name written as the evidence writes it before the same family name: "Rob Knepper" as "Robert
    Knepper" where it says "Robert Knepper" (hostile pass 47: Binary RAR read "Rob" as another name).

    >>> given_names_as_written("Rob Knepper.", "Robert Knepper played Samuel Sullivan.")
    'Robert Knepper.'
    >>> given_names_as_written("Rob Knepper.", "Robert Smith and Jane Knepper.")
    'Rob Knepper.'
    """

    def full(found: re.Match[str]) -> str:
        for form in full_forms(found[1].lower()):
            written = re.search(rf"\b({form})\s+{re.escape(found[2])}\b", evidence, re.IGNORECASE)
            if written:
                return f"{written[1]} {found[2]}"
        return found[0]

    return _GIVEN_AND_FAMILY.sub(full, umlauts_as_written(response, evidence))


_UMLAUT_SPELT = re.compile(r"(?i)ae|oe|ue")


def umlauts_as_written(response: str, evidence: str) -> str:
    """A name's "ae", "oe", "ue" (the spelling of "ä", "ö", "ü") as the evidence, its marks folded, writes it:
    "Nykaenen" where it says "Nykänen" (hostile pass 57: Binary RAR read another name and paid a right answer 0).

    >>> umlauts_as_written("Matti Nykaenen.", "Matti Nykanen won four golds."), umlauts_as_written("Goethe.", "Goethe")
    ('Matti Nykanen.', 'Goethe.')
    """
    said = set(re.findall(r"\w+", fold_marks(evidence).lower()))

    def folded(found: re.Match[str]) -> str:
        word = found[0]
        if word.lower() in said:
            return word
        plain = _UMLAUT_SPELT.sub(lambda m: m[0][0], word)
        return plain if plain.lower() in said else word

    return re.sub(r"\b[A-Z]\w*(?:ae|oe|ue)\w*", folded, response) if _UMLAUT_SPELT.search(response) else response


_GIVEN_AND_FAMILY = re.compile(r"\b([A-Z][a-z]+)\s+([A-Z][\w'-]+)")
