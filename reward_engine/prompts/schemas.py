"""JSON schemas of the judge's replies, sent as ``response_format`` to endpoints with structured
outputs (``judge.structured_output``): a reply then parses by construction. The text parsers
(``parsers``) accept both forms."""

from __future__ import annotations

from reward_engine.prompts.templates import CONTRADICTED, NOT_SUPPORTED, SUPPORTED

GRADE_SCHEMA = {
    "type": "object",
    "properties": {"grade": {"type": "string", "enum": ["A", "B", "C"]}},
    "required": ["grade"],
    "additionalProperties": False,
}
# The engine's own grader (grader-v4) also names the span of the answer it graded (stages.grade_guard).
GRADE_SPAN_SCHEMA = {
    "type": "object",
    "properties": {
        "grade": {"type": "string", "enum": ["A", "B", "C"]},
        "answer_span": {"type": "string", "maxLength": 200},
    },
    "required": ["grade", "answer_span"],
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
                "required": ["id", "label"],
                "additionalProperties": False,
                "properties": {
                    "id": {"type": "integer"},
                    "label": {"type": "string", "enum": [SUPPORTED, CONTRADICTED, NOT_SUPPORTED]},
                },
            },
        }
    },
}

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
