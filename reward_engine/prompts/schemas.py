"""JSON schemas of the judge's replies, sent as ``response_format`` to endpoints with structured
outputs (``judge.structured_output``): a reply then parses by construction. The text parsers
(``parsers``) accept both forms."""

from __future__ import annotations

from reward_engine.prompts.templates import ANSWER_KINDS, CONTRADICTED, NOT_SUPPORTED, SAME_AS_GOLD, SUPPORTED

GRADE_SCHEMA = {
    "type": "object",
    "properties": {"grade": {"type": "string", "enum": ["A", "B", "C"]}},
    "required": ["grade"],
    "additionalProperties": False,
}
# The engine's own grader names the span of the answer it compared with the gold (stages.grade_guard).
GRADE_SPAN_SCHEMA = {  # grader-v6: the span first (a small judge compares better what it has just copied)
    "type": "object",
    "properties": {
        "answer_span": {"type": "string", "maxLength": 200},
        "same_as_gold": {"type": "string", "enum": list(SAME_AS_GOLD)},
    },
    "required": ["answer_span", "same_as_gold"],
    "additionalProperties": False,
}
READ_SCHEMA = {  # the grader's first call (read-v2): what kind of answer, then its span
    "type": "object",
    "properties": {
        "answer_kind": {"type": "string", "enum": list(ANSWER_KINDS)},
        "answer_span": {"type": "string", "maxLength": 200},
    },
    "required": ["answer_kind", "answer_span"],
    "additionalProperties": False,
}
COMPARE_SCHEMA = {  # its second (compare-v2): the span against the gold
    "type": "object",
    "properties": {"same_as_gold": {"type": "string", "enum": list(SAME_AS_GOLD)}},
    "required": ["same_as_gold"],
    "additionalProperties": False,
}
FITS_SCHEMA = {  # or, for a description (fits-v2): does the gold fit it
    "type": "object",
    "properties": {"gold_fits": {"type": "string", "enum": ["yes", "no"]}},
    "required": ["gold_fits"],
    "additionalProperties": False,
}
CLAIMS_SCHEMA = {
    "type": "object",
    "properties": {"claims": {"type": "array", "items": {"type": "string"}}},
    "required": ["claims"],
    "additionalProperties": False,
}
VERDICTS_SCHEMA = {
    "type": "object",
    "required": ["labels"],
    "additionalProperties": False,
    "properties": {
        "labels": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["id", "quote", "label"],  # verify-v4: the evidence quoted, then the label
                "additionalProperties": False,
                "properties": {
                    "id": {"type": "integer"},
                    "quote": {"type": "string", "maxLength": 400},
                    "label": {"type": "string", "enum": [SUPPORTED, CONTRADICTED, NOT_SUPPORTED]},
                },
            },
        }
    },
}


def verdicts_schema(n_claims: int) -> dict:
    """``VERDICTS_SCHEMA`` for exactly ``n_claims`` claims: a judge constrained by it cannot run on past the
    last claim (SmolLM2 filled its 2048-token budget with labels until the array was bounded)."""
    labels = {**VERDICTS_SCHEMA["properties"]["labels"], "minItems": n_claims, "maxItems": n_claims}
    item = labels["items"]
    labels["items"] = {
        **item,
        "properties": {**item["properties"], "id": {"type": "integer", "minimum": 1, "maximum": n_claims}},
    }
    return {**VERDICTS_SCHEMA, "properties": {"labels": labels}}


FUSED_SCHEMA = {
    "type": "object",
    "required": ["claims"],
    "additionalProperties": False,
    "properties": {
        "claims": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["claim", "label", "evidence_ids"],
                "additionalProperties": False,
                "properties": {
                    "claim": {"type": "string"},
                    "label": {"type": "string", "enum": [SUPPORTED, NOT_SUPPORTED]},
                    "evidence_ids": {"type": "array", "items": {"type": "integer"}},
                },
            },
        }
    },
}
