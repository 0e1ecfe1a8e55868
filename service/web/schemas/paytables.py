"""Paytable requests, as a body to the API and a form in the console: a submitted document, a
decision on a draft, an assignment to a table, each with its reason."""
from __future__ import annotations

import marshmallow as ma

from .base import RequestSchema, file_name_text, one_line_text, storable_text

MAX_REASON = 2000
MAX_DOCUMENT_CHARS = 65_536


def _not_blank(value: str) -> None:
    if not value.strip():
        raise ma.ValidationError("must say why")


def reason_field(**kwargs) -> ma.fields.String:
    return ma.fields.String(validate=[ma.validate.Length(min=1, max=MAX_REASON), _not_blank, storable_text,
                                      one_line_text()],
                            metadata={"description": "why: kept in the audit log with who and when"}, **kwargs)


class SubmitVersionSchema(RequestSchema):
    reason = reason_field(required=True)
    yaml = ma.fields.String(validate=ma.validate.Length(min=1, max=MAX_DOCUMENT_CHARS),
                            metadata={"description": "the paytable as YAML text, as in paytables/*.yaml"})
    content = ma.fields.Dict(keys=ma.fields.String(), metadata={"description": "the paytable as a JSON object "
                                                                "(the same fields as the YAML)"})

    @ma.validates_schema
    def _one_document(self, data: dict, **_) -> None:
        if ("yaml" in data) == ("content" in data):
            raise ma.ValidationError("send the paytable as exactly one of yaml (text) or content (object)",
                                     field_name="content")


class DecisionSchema(RequestSchema):
    reason = reason_field(required=True)


class ApprovalSchema(DecisionSchema):
    """An approval: the approver confirms it is them, whichever way they call."""
    password = ma.fields.String(required=True, validate=ma.validate.Length(min=1, max=1024),
                                metadata={"description": "the approver's own password (the person the key belongs "
                                                         "to), asked again for every approval; never stored"})
    totp = ma.fields.String(load_default="", validate=ma.validate.Length(max=16),
                            metadata={"description": "the approver's authenticator code, when they enrolled one"})


class AssignPaytableSchema(RequestSchema):
    version = ma.fields.Integer(strict=True, required=True, validate=ma.validate.Range(min=1, max=10**6),
                                metadata={"description": "an approved version of the table's paytable"})
    reason = reason_field(required=True)


class ProposeTableRulesSchema(RequestSchema):
    rules = ma.fields.String(required=True, validate=file_name_text(),
                             metadata={"description": "another rules file of the table's game, by its stem in "
                                                      "rules_config/ (e.g. british-royal-pontoon)"})
    reason = reason_field(required=True)
