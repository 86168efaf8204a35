"""The judge prompt templates a run uses: the project's own, or the user's files.

    reward:
      prompts: {grader: knowrl_grader.txt}     # e.g. KnowRL's exact grader template

A user template is plain text with ``str.format`` fields. Grader: ``{question}``,
``{gold}`` (aliases ``{target}``, SimpleQA's, and ``{gold_answer}``, KnowRL's) and ``{answer}``
(alias ``{predicted_answer}``), so SimpleQA's and KnowRL's templates load unchanged;
decomposition: ``{reasoning}`` (alias ``{text}``, FActScore's);
verification: ``{claims}``; fused factuality: ``{question}``, ``{evidence}``, ``{reasoning}``.
Every template may use ``{version}``. A user template's version
is its name plus a hash of its text: the hash is part of the judge cache key, so editing a
template never serves answers to the old one. The fields' contents are untrusted text and
are escaped the same way as in the project's templates.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from knowrl_io.small_files import SmallFileError, read_small_text
from reward_engine.prompts import templates as prompts
from reward_engine.prompts.templates import Template

FIELDS = {
    "grader": {"version", "question", "gold", "target", "gold_answer", "answer", "predicted_answer"},
    "decompose": {"version", "reasoning", "text", "no_claims"},
    "verify": {"version", "claims", "supported", "not_supported", "contradicted"},
    "fused": {"version", "question", "evidence", "reasoning", "supported", "not_supported"},
}


class TemplateError(ValueError):
    """A template file that cannot be used; the message names the file and the field."""


@dataclass(frozen=True)
class Templates:
    """The three judge templates of a run (the project's own by default)."""

    grader: Template = prompts.GRADER
    decompose: Template = prompts.DECOMPOSE
    verify: Template = prompts.VERIFY
    fused: Template = prompts.FUSED


def load_template(kind: str, path: str | Path) -> Template:
    """A user template file, checked for unknown fields now rather than at the first judge call."""
    path = Path(path)
    try:
        text = read_small_text(path)
    except SmallFileError as exc:
        raise TemplateError(f"prompts.{kind}: {exc}") from None
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
    template = Template(text, f"{kind}-{path.stem}-{digest}")
    try:
        template.text.format(**{name: "" for name in FIELDS[kind]})
    except KeyError as exc:
        raise TemplateError(
            f"prompts.{kind}: {path} uses the field {{{exc.args[0]}}}; known fields: {', '.join(sorted(FIELDS[kind]))}"
        ) from None
    except (IndexError, ValueError) as exc:
        raise TemplateError(
            f"prompts.{kind}: {path} is not a valid template ({exc}); write literal braces as {{{{ and }}}}"
        ) from None
    return template


def load_templates(
    grader: str | None = None, decompose: str | None = None, verify: str | None = None, fused: str | None = None
) -> Templates:
    """The project's templates, with each one given as a file replaced by it."""
    default = Templates()
    return Templates(
        load_template("grader", grader) if grader else default.grader,
        load_template("decompose", decompose) if decompose else default.decompose,
        load_template("verify", verify) if verify else default.verify,
        load_template("fused", fused) if fused else default.fused,
    )
