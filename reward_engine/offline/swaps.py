"""A claim that says its passage's sentence with one slot changed, which word coverage alone pays as supported.

Another word in a word's place: "Anne Frank died of typhoid at Bergen-Belsen" where the passage says "died of
typhus at Bergen-Belsen" covers every other word, so three words in four passed (hostile pass 55: "cholera" and
"measles" passed too). Two names turned round a relation: "Christine chooses Raoul over the Phantom" where it
says "chooses the Phantom over Raoul", "The Lakers beat the Celtics" where the Celtics beat the Lakers; the same
words, the other way round (comparatives such as "larger than" are ``comparatives``' to read).
"""

from __future__ import annotations

import re

from reward_engine.offline.words import STOP, WORD, stem


def _tokens(text: str) -> list[str]:
    return [w.lower() for w in WORD.findall(text)]


def _content(word: str) -> bool:
    return len(word) >= 3 and word not in STOP and not word[:1].isdigit()


# a preposition before the slot: its object is a thing named (a disease, a material, a cause), where a verb or an
# adjective in another slot is as often a paraphrase ("The Qing dynasty ended in 1912" where it "fell in 1912")
_BEFORE_A_THING = frozenset("of from by with at in on for".split())


def word_swapped(claim: str, sentences: list[str]) -> bool:
    """A content word of the claim in a slot after a preposition, or a preposition and an article, that no sentence
    fills with it, where one sentence has another content word, not the claim's, between the same neighbours: the
    claim names something else in that slot ("from the petals of" where it is "from the stigmas of ...; the petals
    are discarded": hostile pass 66; "by the alpha cells" where it is "by the beta cells": pass 67).

    >>> word_swapped("Anne Frank died of typhoid at Bergen-Belsen.", ["Anne Frank died of typhus at Bergen-Belsen."])
    True
    >>> word_swapped("Anne Frank died of typhus in Bergen-Belsen.", ["Anne Frank died of typhus at Bergen-Belsen."])
    False
    >>> word_swapped("The Qing dynasty ended in 1912.", ["The Qing dynasty fell in 1912 when Puyi abdicated."])
    False
    >>> word_swapped("It comes from the petals of it.", ["It comes from the stigmas of it; petals are not used."])
    True
    """
    said = [*_tokens(claim), ""]  # "": the sentence's end, a neighbour too ("attached to its abdomen.": pass 68)
    told = [[*_tokens(s), ""] for s in re.split(r"(?<=[.!?;])\s+", " ".join(sentences))]
    pairs = {(t[j], t[j + 1]) for t in told for j in range(len(t) - 1) if t[j + 1]}
    filled = {(_slot(t, j), t[j], t[j + 1]) for t in told for j in range(1, len(t) - 1)}
    stems = {stem(w) for w in said}
    for i in range(1, len(said) - 1):
        word = said[i]
        # a word the passage holds in this slot, or before the claim's next word, is said there ("with lyrics by"
        # where it says "and lyrics by")
        slot = _slot(said, i)
        if not _content(word) or slot is None or (word, said[i + 1]) in pairs or (slot, word, said[i + 1]) in filled:
            continue
        for there in told:
            for j in range(1, len(there) - 1):
                other = there[j]
                if _slot(there, j) != slot or there[j + 1] != said[i + 1] or other == word:
                    continue
                before, at = i - len(slot) - 1, j - len(slot) - 1  # at a sentence's end, the word before the slot
                if not said[i + 1] and (before < 0 or at < 0 or stem(said[before]) != stem(there[at])):
                    continue  # must agree too: "born in Stratford." is no "performed at the Globe in London."
                if word in other or other in word or {word, other} <= _SAME_SEASON:
                    continue  # "late" in "mid-to-late", "fall" for "autumn": the same slot said another way
                if _content(other) and stem(other) not in stems and stem(other) != stem(word):
                    return True
    return False


_SAME_SEASON = frozenset({"fall", "autumn"})
_DETERMINERS = frozenset("the a an its his her their".split())


def _slot(tokens: list[str], i: int) -> tuple[str, ...] | None:
    """The preposition before ``tokens[i]``, with the article between them ("from the"); None after another word."""
    if tokens[i - 1] in _BEFORE_A_THING:
        return (tokens[i - 1],)
    if i >= 2 and tokens[i - 1] in _DETERMINERS and tokens[i - 2] in _BEFORE_A_THING | {"to", "into", "onto"}:
        return (tokens[i - 2], "the")  # "to its abdomen" and "to the thorax" fill one slot
    return None


# a name, its initials dotted ("George W. Bush": review 61 read "George W" and lost the pair)
_SIDE = r"(?:the\s+)?[A-Z][\w'-]*(?:\s+(?:of\s+|de\s+)?(?:[A-Z]\.|[A-Z][\w'-]*))*"
# a winner's title before the loser's name: "defeated five-time defending champion Roger Federer" (review 61)
_BILLED = (
    r"(?:(?:[a-z]+-time|defending|reigning|champions?|former|world|top|seeded|rival|compatriot|title|holders?)\s+){0,4}"
)
# each relation read as one canonical direction: who beat whom, who came first, who was chosen over whom; a passive
# or a converse verb says the same pair the other way round ("the Celtics were defeated by the Lakers", "the Celtics
# lost to the Lakers", "Adams succeeded Washington": review 55 found "beat" against "defeated" and passives unread)
_WON = (
    r"beat(?:s)?(?:\s+out)?|defeat(?:s|ed)|edged\s+out|edges\s+out|overcame|overcomes|outscored|outpolled|"
    r"knock(?:s|ed)\s+out|(?:won|wins|took|claimed)\b(?P<prize>[^.;:]{0,80}?)\b(?:over|ahead\s+of)"  # "won ... over"
)
_LOST = (
    r"(?:lost|loses)\s+(?:out\s+)?to|(?:was|were|is|are|got)\s+(?:beaten|defeated|edged\s+out|outscored|outpolled|"
    r"knocked\s+out|eliminated|upset)\s+by"
)
_CHOSEN = r"(?:(?:chooses|chose|chosen|picks|picked|prefers|preferred|favou?rs|favou?red)\s+)?(?P<over>over)"
_ORDERED = re.compile(
    rf"(?P<a>{_SIDE})(?:,\s*who)?\s+(?:{_CHOSEN}|(?:(?:chooses|chose|chosen|picks|picked|prefers|preferred|favou?rs|"
    rf"favou?red)\s+)?(?P<pref>to)|(?P<won>{_WON})|(?P<lost>{_LOST})|(?P<first>preceded|precedes)|"
    rf"(?P<later>succeeded|succeeds|replaced|replaces|(?:took|takes|taken)\s+over\s+(?:[a-z]+\s+){{0,3}}?from)|"
    rf"(?:was|were|is|are)\s+(?P<first_by>succeeded|replaced)\s+by|"
    rf"(?:was|were|is|are)\s+(?P<later_by>preceded)\s+by|(?P<other>outsold|outsells|outranks|outranked))\s+"
    rf"{_BILLED}(?P<b>{_SIDE})"
)
# a win told after the winner's clause: "Germany won the Cup, defeating Argentina", "Argentina, beating Germany"
_WON_AFTER_A_COMMA = re.compile(
    rf"(?:^|(?<=[.;!?])\s+)(?P<a>{_SIDE})\b[^.;!?]*?,\s*(?:beating|defeating|edging\s+out|overcoming|knocking\s+out)\s+"
    rf"{_BILLED}(?P<b>{_SIDE})"
)


def _side(name: str) -> frozenset[str]:
    """A name's words, lower-cased, without "the", "of", "de": "John Adams" and "Adams" share one."""
    return frozenset(w.strip(".") for w in name.lower().split() if w not in ("the", "of", "de"))


def _prize(text: str) -> frozenset[str]:
    """What a win "over" someone was of: its content words, stemmed, numbers too ("2000", "election")."""
    return frozenset(stem(w) for w in _tokens(text) if _content(w) or w.isdigit())


def _pairs(text: str, question: str = "") -> set[tuple[frozenset[str], str, frozenset[str]]]:
    """(first name's words, relation, second name's words): the ordered pairs a text states, each relation in one
    direction (winner first, earlier first, chosen first). With ``question``, a win "over" someone counts only for a
    prize the question names ("won the 2000 election over Al Gore" says nothing of the popular vote: review 59).

    >>> [(sorted(a), r, sorted(b)) for a, r, b in _pairs("The Celtics were defeated by the Lakers.")]
    [(['lakers'], 'beat', ['celtics'])]
    >>> [(sorted(a), r, sorted(b)) for a, r, b in _pairs("John Adams succeeded George Washington.")]
    [(['george', 'washington'], 'preceded', ['adams', 'john'])]
    """
    out = {(_side(found["a"]), "beat", _side(found["b"])) for found in _WON_AFTER_A_COMMA.finditer(text)}
    for found in _ORDERED.finditer(text):
        if found["pref"] and not re.search(r"(?i)\bprefer\w*\s+\S+(?:\s+\S+){0,3}\s*$", text[: found.end("a")]):
            continue  # "to" orders a pair only after "prefers" ("prefers Raoul to the Phantom")
        if question and found["prize"] is not None:
            named = {w for w in _prize(found["prize"]) if not w[:1].isdigit()}  # the prize's words, not its year
            if not named & {stem(w) for w in _tokens(question)}:
                continue
        a = _side(found["a"])
        # the second side may be a list: "ahead of Andrés Iniesta and Xavi" puts both behind (review 59)
        more = _MORE_SIDES.match(text, found.end("b"))[0]  # never None: the pattern matches the empty string
        if more and not _LIST_ENDS.match(text, found.end("b") + len(more)):
            more = ""  # "Spain beat Italy, and Germany lost to Argentina": a clause of its own (landing review 59)
        # a win "over" someone is of its prize: "won the 2000 election over Gore" is not turned by "Gore won the
        # popular vote over Bush" (landing review 59)
        won = "beat" if found["prize"] is None else " ".join(["beat", *sorted(_prize(found["prize"]))])
        for b in [_side(found["b"]), *(_side(s) for s in _SIDE_SPLIT.split(more) if s)]:
            if found["won"]:
                out.add((a, won, b))
            elif found["lost"]:
                out.add((b, "beat", a))
            elif found["first"] or found["first_by"]:
                out.add((a, "preceded", b))
            elif found["later"] or found["later_by"]:
                out.add((b, "preceded", a))
            elif found["other"]:
                out.add((a, found["other"].lower()[:6], b))  # "outsold"/"outsells", "outranks"/"outranked"
            else:
                out.add((a, "over", b))
    return out


_LIST_ENDS = re.compile(r"\s*(?:[.;:!?,)]|$|(?:in|at|on|for|by|during|with|from|to|after|before)\b)")
_MORE_SIDES = re.compile(rf"(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+){_SIDE})*")
_SIDE_SPLIT = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+")


# what a question asks: the one chosen (not the one passed over), the winner (not the loser)
_ASKS_A_CHOICE = re.compile(
    r"(?i)\b(?:choose|chooses|chose|chosen|pick|picks|picked|prefer|prefers|preferred|select|selects|selected|"
    r"marry|marries|married|end(?:s)? up with|ended up with|go(?:es)? with|went with|favou?r|fall(?:s)? for|fell for|"
    r"leaves? with|left with)\b"
)
_ASKS_PASSED_OVER = re.compile(r"(?i)\b(?:over|instead of|rather than|reject|turn(?:s|ed)? down|passe[sd] over)\b")
_ASKS_A_WIN = re.compile(r"(?i)\b(?:won|win|wins|winner|winners|winning|victor|victorious|champions?)\b")
_ASKS_A_LOSS = re.compile(r"(?i)\b(?:lost|lose|loses|losing|loser|losers|runners?-up|beaten|defeated|beat|defeat)\b")


def asks_a_choice(question: str) -> bool:
    """Whom someone chose, married or ended up with, not whom they passed over."""
    return bool(_ASKS_A_CHOICE.search(question)) and not _ASKS_PASSED_OVER.search(question)


def asks_a_win(question: str) -> bool:
    """Who or what won, not who lost or whom the winner beat."""
    return bool(_ASKS_A_WIN.search(question)) and not _ASKS_A_LOSS.search(question)


# the loser's forms only: "Who lost ...?", the runner-up, "Whom did X beat?", "Who was beaten (in ...)?"; never "Who
# beat X?", "Whom did X lose to?" or "Who was X beaten by?", which ask for the winner (landing review 59)
_ASKS_THE_LOSER = re.compile(
    r"(?i)\b(?:who|which\s+\w+|what\s+\w+)\s+(?:lost|loses|was\s+(?:beaten|defeated|knocked\s+out|eliminated)"
    r"(?!\s+by)|finished\s+second|came\s+second)\b|\b(?:loser|losers|runners?-up)\b|"
    r"\b(?:did|does|do)\s+[\w' .-]{1,60}?\s+(?:beat|defeat|knock\s+out|eliminate)\b"
)


def asks_a_loss(question: str) -> bool:
    """Who or what lost, or whom the winner beat, not who won (nor who beat someone: the winner asked by the loss).

    >>> asks_a_loss("Who lost the Rumble in the Jungle?"), asks_a_loss("Whom did Ali beat in 1974?")
    (True, True)
    >>> asks_a_loss("Which team beat Brazil 7-1?"), asks_a_loss("Whom did Foreman lose to?")
    (False, False)
    """
    return bool(_ASKS_THE_LOSER.search(question)) and not _ASKS_A_WIN.search(question)


_ASKS_A_SUCCESSOR = re.compile(
    rf"(?i:\bwho\s+(?:(?:directly|immediately)\s+)?(?P<verb>succeeded|replaced|followed|came\s+after|preceded|"
    rf"came\s+before))\s+(?P<x>{_SIDE})"
)


def succession_turned(question: str, answer: str, gold: str) -> bool:
    """The answer puts the gold before the one the question asks the successor of, or after the one it asks the
    predecessor of: "Tony Blair succeeded Gordon Brown." to "Who succeeded Tony Blair?" (review 61: the gold named,
    CORRECT).

    >>> succession_turned("Who succeeded Tony Blair as Prime Minister?", "Tony Blair succeeded Gordon Brown.",
    ...                   "Gordon Brown")
    True
    >>> succession_turned("Who succeeded Tony Blair as Prime Minister?", "Gordon Brown succeeded Tony Blair.",
    ...                   "Gordon Brown")
    False
    """
    asked = _ASKS_A_SUCCESSOR.search(question or "")
    if not asked:
        return False
    other, named = _side(asked["x"]), _side(gold)
    later = not asked["verb"].lower().endswith(("preceded", "before"))
    for first, relation, second in _pairs(answer):
        if relation != "preceded":
            continue
        gold_first = named & first and other & second and not named & second
        gold_second = named & second and other & first and not named & first
        if (gold_first and later) or (gold_second and not later):
            return True
    return False


def on_the_losing_side(question: str, response: str, sentences: list[str]) -> bool:
    """The response names only the side a sentence puts second where the question asks for the first: "The Boston
    Celtics." to who won, where "the Lakers beat the Boston Celtics"; "Raoul." to whom she chooses, where she
    "chooses the Phantom over Raoul" (hostile pass 55 and review 55: Binary RAR paid both 1).

    >>> on_the_losing_side("Who won the 1985 NBA Finals?", "The Boston Celtics.",
    ...                    ["The Los Angeles Lakers beat the Boston Celtics in the 1985 NBA Finals."])
    True
    >>> on_the_losing_side("Which team did the Lakers beat in 1985?", "The Boston Celtics.",
    ...                    ["The Los Angeles Lakers beat the Boston Celtics in the 1985 NBA Finals."])
    False
    """
    wanted = "beat" if asks_a_win(question) else "over" if asks_a_choice(question) else None
    if wanted is None:
        return False
    # a response that states a pair itself puts forward its first side: "Roger Federer, who beat Rafael Nadal." to who
    # won, where "Nadal defeated Federer" (review 61: both names were said, so neither was read as the answer)
    own = [a for a, rel, _ in _pairs(response, question) if rel.split()[0] == wanted]
    said = own[0] if own else _side(" ".join(re.findall(r"\b[A-Z][\w'-]*", response)))
    if not said:
        return False
    asked_numbers = set(re.findall(r"\d+", question))
    pairs = []
    for sentence in sentences:
        held = set(re.findall(r"\d+", sentence))
        if held and asked_numbers and not held & asked_numbers:
            continue  # another year's final
        if any(
            re.search(rf"(?i)\b{re.escape(w)}\b(?:\s+\w+){{0,2}}\s+(?:won|wins|beat|defeated)\b", sentence)
            for w in said
        ):
            continue  # "..., but the Lakers won the 1985 Finals": the sentence gives it the win (landing review)
        pairs += [(a, b) for a, rel, b in _pairs(sentence, question) if rel.split()[0] == wanted]
    return any(said <= b for _, b in pairs) and not any(said & a for a, _ in pairs)


def order_turned(claim: str, passage: str, same_occasion: bool = False) -> bool:
    """The claim's two names stand the other way round the same relation in the passage. With ``same_occasion``
    (to contradict, not just to withhold support) a passage sentence that dates or scores the pair must share a
    number with the claim: "Federer beat Nadal in a Wimbledon final" is no contradiction of "Nadal beat Federer in
    the 2008 final", a rematch may have gone the other way (review 57), where "in 1985" against "the 1985 Finals" is.

    >>> order_turned("Christine chooses Raoul over the Phantom.", "Christine chooses the Phantom over Raoul.")
    True
    >>> order_turned("The Lakers beat the Celtics in 1985.", "The Lakers beat the Celtics in 1985.")
    False
    >>> order_turned("The Celtics beat the Lakers in 1985.", "The Celtics lost to the Lakers in 1985.")
    True
    >>> order_turned("Federer beat Nadal in a final.", "Nadal beat Federer in the 2008 final.", same_occasion=True)
    False
    """
    stated = _pairs(claim)
    numbers = set(re.findall(r"\d+", claim))
    sentences = [(s, _pairs(s)) for s in re.split(r"(?<=[.;!?])\s+", passage)]

    def said(a: frozenset[str], rel: str, b: frozenset[str], told: set) -> bool:
        return any(r == rel and a & x and b & y for x, r, y in told)

    everywhere = {pair for _, told in sentences for pair in told}
    for sentence, told in sentences:
        if not told or (same_occasion and (held := set(re.findall(r"\d+", sentence))) and not held & numbers):
            continue
        if any(said(b, rel, a, told) and not said(a, rel, b, everywhere) for a, rel, b in stated):
            return True
    return False


# a move or change "from" one thing "to" another (or "to" one "from" the other): its two ends, as words
_END = r"[^,.;:!?]{1,40}?"
_STOPS_AN_END = r"(?=\s+(?:on|in|at|for|by|during|after|before|when|while|since|and|but|the\s+next)\b|[,.;:!?]|$)"
_FROM_TO = re.compile(
    rf"(?i)\b(?:from|out\s+of)\s+(?P<a>{_END})\s+(?:and\s+)?(?:to|into)\s+(?P<b>{_END}){_STOPS_AN_END}"
)  # "flows out of Lake Titicaca and into Lake Poopó" (hostile pass 67)
_TO_FROM = re.compile(rf"(?i)\b(?:to|into)\s+(?P<b>{_END})\s+(?:from|out\s+of)\s+(?P<a>{_END}){_STOPS_AN_END}")
# a question asking where something moved, switched or changed to: the far end of the move
_ASKS_THE_END = re.compile(
    r"(?i)\b(?:move|moved|moves|moving|switch|switched|switches|change|changed|changes|transfer|transferred|"
    r"relocate|relocated|relocates|go|went|goes|convert|converted|rename|renamed)\b(?:\s+\w+){0,3}\s+(?:to|into)"
    r"(?:\s*\?|\s+(?:on|in|at|for|during|after|before|when)\b)|^\W*(?:to|into)\s+(?:which|what|whom)\b"
)


def _ends(text: str) -> list[tuple[str, frozenset[str], frozenset[str]]]:
    """(the verb before it, stemmed, or "", the start's words, the end's words) of each move the text states."""
    out = []
    for pattern in (_FROM_TO, _TO_FROM):
        for found in pattern.finditer(text):
            a, b = (frozenset(w for w in _tokens(found[k]) if w not in STOP) for k in ("a", "b"))
            before = [w for w in _tokens(text[: found.start()])[-3:] if w not in STOP]
            if a and b and a != b:
                out.append((stem(before[-1]) if before else "", a, b))
    return out


# verbs of a move made once: a road "runs from Boston to New York" both ways (landing review 59)
_MOVING = ("mov", "reloc", "switch", "transfer", "chang", "return", "went", "go", "convert", "renam", "migrat", "fled")
_MOVING += ("flow", "drain", "empt", "discharg")  # a river's course runs one way (hostile pass 67)


def move_turned(claim: str, passage: str) -> bool:
    """The claim's move "from" one end "to" the other is the passage's the other way round: "moved from channel
    314 to channel 41" where it "moved from channel 41 to channel 314" (hostile pass 59: supported).

    >>> move_turned("Faction moved from channel 314 to channel 41.", "Faction moved from channel 41 to channel 314.")
    True
    >>> move_turned("Faction moved from channel 41 to channel 314.", "Faction moved from channel 41 to channel 314.")
    False
    """
    told = [(v, a, b) for v, a, b in _ends(passage) if not v or v.startswith(_MOVING)]

    def said(verb: str, a: frozenset[str], b: frozenset[str]) -> bool:
        return any(x == a and y == b and (not verb or v == verb) for v, x, y in told)

    # the same verb: "returned from London to Paris" is not turned by "went from Paris to London" (review 44)
    return any(said(verb, b, a) and not said("", a, b) for verb, a, b in _ends(claim))


def only_the_start(question: str, response: str, sentences: list[str]) -> bool:
    """To where something moved, the response names the end it left (or gives the move turned round): "Channel
    41." where it "moved from channel 41 to channel 314" (hostile pass 59: Binary RAR paid 1).

    >>> said = ["In 2017, Faction moved from channel 41 to channel 314 on Sirius XM."]
    >>> asked = "What channel did Faction move to on Sirius XM?"
    >>> only_the_start(asked, "Channel 41.", said), only_the_start(asked, "Channel 314.", said)
    (True, False)
    >>> only_the_start(asked, "From channel 314 to channel 41.", said)
    True
    """
    if not _ASKS_THE_END.search(question):
        return False
    if any(move_turned(response, s) for s in sentences):
        return True
    clauses = [c for s in sentences for c in re.split(r"[;,]|\band\b", s)]
    dated = [c for c in clauses if set(re.findall(r"\d+", c)) & set(re.findall(r"\d+", question)) and _ends(c)]
    told = [pair for c in dated or clauses for pair in _ends(c)]  # the asked year's move (review 59)
    said = frozenset(w for w in _tokens(response) if w not in STOP)
    if not said or any(said & (b - a) for _, a, b in told):
        return False  # the end of a move ("Real Madrid." where he moved there, then on: review 59)
    return any(said & (a - b) for _, a, b in told)  # "Cassius Clay." for what he changed his name to (review 59)


_PARTICLES = r"(?:de|del|della|der|den|di|du|da|dos|das|la|le|van|von|bin|ibn|al)"
_NAME = rf"[A-Z][\w'-]*(?:\s+(?:(?:{_PARTICLES}|of)\s+)*[A-Z][\w'.-]*)*"  # "Guillermo del Toro", "Ignatius of Loyola"
_LISTED = re.compile(r",\s*|,?\s+and\s+")  # the names of a list: "A, B and C"
_SUFFIX = re.compile(r"(?i)^(?:jr|sr|[ivx]+)\.?,?$")


def _last(name: str) -> str:
    """A name's last word, its generation left out: "King" of "Martin Luther King Jr.", "Toro" of "del Toro"."""
    words = [w for w in name.replace(",", " ").split() if not _SUFFIX.match(w)] or name.split()
    return words[-1].strip(".").lower()


_NAMES = rf"{_NAME}(?:(?:,\s*|,?\s+and\s+){_NAME})*"
_IRREGULAR = {"wrote": "write", "written": "write", "won": "win", "built": "build", "made": "make", "led": "lead",
              "drew": "draw", "drawn": "draw", "sang": "sing", "sung": "sing", "found": "find"}  # fmt: skip
_DEED = rf"(?P<verb>[a-z]{{3,}}ed|{'|'.join(_IRREGULAR)})"
_DONE_BY = re.compile(rf"(?P<doers>{_NAMES})\s+(?:(?:first|later|also|jointly|famously)\s+)?{_DEED}\b")
_BY_WHOM = re.compile(rf"\b{_DEED}\s+by\s+(?P<doers>{_NAMES})")


def _agents(text: str, whole: bool = False) -> dict[str, set[str]]:
    """Each deed's doers in ``text`` by their last names: "James Watson and Francis Crick proposed" and "data
    obtained by Rosalind Franklin" give {"propos": {"watson", "crick"}, "obtain": {"franklin"}}; ``whole``: by
    every word of their names ("Michelangelo" is the passage's "Michelangelo Buonarroti": hostile pass 69)."""
    out: dict[str, set[str]] = {}
    for pattern in (_DONE_BY, _BY_WHOM):
        for found in pattern.finditer(text):
            verb = found["verb"].lower()
            deed = _IRREGULAR.get(verb) or stem(verb)
            for name in _LISTED.split(found["doers"]):
                last = _last(name)
                if last not in STOP:
                    out.setdefault(deed, set()).add(last)
                words = {w.lower() for w in name.split() if w.lower() not in STOP}
                if whole and words:
                    out.setdefault(deed, set()).update(words)
    return out


def agent_swapped(claim: str, passage: str) -> bool:
    """The claim gives a deed to someone the passage names in another role, where the passage gives that deed to
    others: "Rosalind Franklin proposed the double helix using data obtained by James Watson" against "Watson and
    Crick proposed the double helix, using data obtained by Rosalind Franklin" (hostile pass 65: supported, every
    word there).

    >>> p = "Watson and Crick proposed the double helix, using X-ray data obtained by Rosalind Franklin."
    >>> agent_swapped("Rosalind Franklin proposed the double helix.", p), agent_swapped("Crick proposed it.", p)
    (True, False)
    """
    told, whole = _agents(passage), _agents(passage, whole=True)
    named = {w.lower() for w in WORD.findall(passage) if w[:1].isupper()}
    return any(
        deed in told and doers <= named and not doers & (whole if alone else told)[deed]
        for deed, doers, alone in _doers(claim)
    )


def _doers(claim: str) -> list[tuple[str, set[str], bool]]:
    """The claim's deeds, their doers' last names, and whether each doer is named by one word ("Michelangelo
    painted ...": any word of the passage's doer may be his; "Elton John" is not "John Lennon")."""
    last, whole = _agents(claim), _agents(claim, whole=True)
    return [(deed, doers, whole.get(deed, set()) == doers) for deed, doers in last.items()]


_WHO_DID = re.compile(r"(?i)^\W*who\s+(?P<verb>[a-z]{3,}ed|" + "|".join(_IRREGULAR) + r")\s+(?P<what>[^?]+?)\s*\??\s*$")
_A_NAME = re.compile(rf"^\W*(?P<name>{_NAME})\W*$")
_DONE_TO = re.compile(
    rf"(?P<what>[^,;]+?)\s+(?:was|were|is|are|had\s+been|has\s+been)\s+{_DEED}\s+by\s+(?P<doers>{_NAMES})"
)


_NEXT_DEED = re.compile(r"\s+(?:[a-z]+ed|flew|wrote|won|sang|made|built|led|drew|ran|took|gave|became|went)\b")


def done_by_another(question: str, response: str, sentences: list[str]) -> bool:
    """A who-did question answered with a bare name, where an answering sentence says the asked thing was done by
    others and names the answer in another role: "Charles Lindbergh." to who built the Spirit of St. Louis, against
    "The Spirit of St. Louis was built by Ryan Airlines ..., and Charles Lindbergh flew it" (hostile pass 67).

    >>> said = ["The Spirit of St. Louis was built by Ryan Airlines, and Charles Lindbergh flew it."]
    >>> asked = "Who built the Spirit of St. Louis?"
    >>> done_by_another(asked, "Charles Lindbergh.", said), done_by_another(asked, "Ryan Airlines.", said)
    (True, False)
    """
    asked = _WHO_DID.match(question)
    said = _A_NAME.match(re.sub(r"(?i)\s+(?:did|built|wrote|made)\s+(?:it|them)\s*\.?\s*$", "", response))
    if not asked or not said:
        return False
    deed = _IRREGULAR.get(asked["verb"].lower()) or stem(asked["verb"].lower())
    what = {w for w in _tokens(asked["what"]) if w not in STOP}
    name = _last(said["name"])
    for sentence in sentences:
        named = {w.lower() for w in WORD.findall(sentence) if w[:1].isupper()}
        for found in _DONE_TO.finditer(sentence):
            verb = found["verb"].lower()
            if (_IRREGULAR.get(verb) or stem(verb)) != deed or not what & set(_tokens(found["what"])):
                continue
            listed = _LISTED.split(found["doers"])
            if len(listed) > 1 and _NEXT_DEED.match(sentence[found.end() :]):
                listed = listed[:-1]  # ", and Charles Lindbergh flew it": the subject of the next clause
            doers = {_last(n) for n in listed}
            if name not in doers and name in named:
                return True
    return False
