"""What the judge is sent and what it must answer: ``templates`` (the prompts and how a row's
fields go into them), ``schemas`` (the replies' JSON schemas), ``parsers`` (strict readers of
the replies) and ``files`` (a user's own template files). The names are re-exported here."""

from reward_engine.labels import Label
from reward_engine.prompts.files import TemplateError, Templates, load_template, load_templates
from reward_engine.prompts.parsers import (
    FusedClaim,
    parse_claims,
    parse_fused,
    parse_grade,
    parse_verdicts,
)
from reward_engine.prompts.schemas import CLAIMS_SCHEMA, FUSED_SCHEMA, GRADE_SCHEMA, VERDICTS_SCHEMA
from reward_engine.prompts.templates import (
    DECOMPOSE,
    DECOMPOSE_VERSION,
    FUSED,
    FUSED_VERSION,
    GRADER,
    GRADER_VERSION,
    NO_CLAIMS,
    NOT_SUPPORTED,
    SUPPORTED,
    VERIFY,
    VERIFY_VERSION,
    Template,
    claim_blocks,
    decompose_messages,
    fused_messages,
    grader_messages,
    passage_tag,
    untrusted,
    verify_messages,
)

__all__ = [
    "CLAIMS_SCHEMA",
    "DECOMPOSE",
    "DECOMPOSE_VERSION",
    "FUSED",
    "FUSED_SCHEMA",
    "FUSED_VERSION",
    "FusedClaim",
    "GRADER",
    "GRADER_VERSION",
    "GRADE_SCHEMA",
    "Label",
    "NOT_SUPPORTED",
    "NO_CLAIMS",
    "SUPPORTED",
    "Template",
    "TemplateError",
    "Templates",
    "VERDICTS_SCHEMA",
    "VERIFY",
    "VERIFY_VERSION",
    "claim_blocks",
    "decompose_messages",
    "fused_messages",
    "grader_messages",
    "load_template",
    "load_templates",
    "parse_claims",
    "parse_fused",
    "parse_grade",
    "parse_verdicts",
    "passage_tag",
    "untrusted",
    "verify_messages",
]
