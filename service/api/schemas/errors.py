"""The error body every refusal shares: code, status, message, and the details (errors, allowed, ...) that apply."""
from __future__ import annotations

import marshmallow as ma

from .rounds import LegalActionSchema


class ErrorSchema(ma.Schema):
    code = ma.fields.String(required=True, metadata={"description": "stable machine-readable reason, e.g. "
                                                     "decision_refused, card_refused, idempotency_key_reused"})
    status = ma.fields.Integer(required=True, metadata={"description": "the HTTP status"})
    message = ma.fields.String(required=True)
    errors = ma.fields.Dict(metadata={"description": "each bad field (or header) with its reasons"})
    locations = ma.fields.Dict(metadata={"description": "where a submitted document (a paytable's YAML) writes "
                                               "each bad field: {field: {line, column}}, counted from 1"})
    allowed = ma.fields.List(ma.fields.String(), metadata={"description": "the key roles that may make this "
                                                           "request (a 403 for a key of another role)"})
    legal_actions = ma.fields.List(ma.fields.Nested(LegalActionSchema),
                                   metadata={"description": "the decisions the rules allow now (409s)"})
