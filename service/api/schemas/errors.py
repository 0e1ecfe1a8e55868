"""The error body every refusal shares: code, status, message, and the details (errors, allowed, ...) that apply."""
from __future__ import annotations

import marshmallow as ma

from .rounds import LegalActionSchema
from .variants import component

# Each field (or header, or where a request was read: json, query) with its reasons, or, for a
# field holding fields (a list's items by index, a mapping's by key), the same for each of those.
FIELD_ERRORS = component(
    "FieldErrors", type="object", additionalProperties={
        "oneOf": [{"type": "array", "items": {"type": "string"}}, {"$ref": "#/components/schemas/FieldErrors"}]})


class SourceLocationSchema(ma.Schema):
    line = ma.fields.Integer(required=True, metadata={"description": "counted from 1"})
    column = ma.fields.Integer(required=True, metadata={"description": "counted from 1"})


class ErrorSchema(ma.Schema):
    code = ma.fields.String(required=True, metadata={"description": "stable machine-readable reason, e.g. "
                                                     "decision_refused, card_refused, idempotency_key_reused"})
    status = ma.fields.Integer(required=True, metadata={"description": "the HTTP status"})
    message = ma.fields.String(required=True, metadata={"description": "what went wrong, in words"})
    errors = ma.fields.Raw(metadata={**FIELD_ERRORS, "description": "each bad field (or header) with its reasons, "
                                                                    "e.g. {\"seat\": [\"...\"], \"wagers\": {\"0\": "
                                                                    "{\"wager\": [\"...\"]}}}"})
    locations = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Nested(SourceLocationSchema),
                               metadata=component("SourceLocations", "where a submitted document (a paytable's "
                                                                     "YAML) writes each bad field"))
    allowed = ma.fields.List(ma.fields.String(), metadata={"description": "the key roles that may make this "
                                                           "request (a 403 for a key of another role)"})
    legal_actions = ma.fields.List(ma.fields.Nested(LegalActionSchema),
                                   metadata={"description": "the decisions the rules allow now (409s)"})
