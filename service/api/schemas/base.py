"""The base every request schema shares: unknown fields are an error, never silently dropped."""
from __future__ import annotations

import marshmallow as ma

# Bounds that keep any accepted number inside PostgreSQL's bigint and any name a sane size.
MAX_CENTS = 10**12
TABLE_ID_PATTERN = r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}"
NAME_PATTERN = r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}"


class RequestSchema(ma.Schema):
    class Meta:
        unknown = ma.RAISE


def cents(**kwargs) -> ma.fields.Integer:
    """A whole number of cents: strict (no "500", no 500.0, no true), within bigint."""
    return ma.fields.Integer(strict=True, validate=ma.validate.Range(min=kwargs.pop("minimum", 1), max=MAX_CENTS),
                             **kwargs)
