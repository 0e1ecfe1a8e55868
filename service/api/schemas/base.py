"""The base every request schema shares: unknown fields are an error, never silently dropped."""
from __future__ import annotations

from typing import Any

import marshmallow as ma

# Bounds that keep any accepted number inside PostgreSQL's bigint and any name a sane size.
MAX_CENTS = 10**12
TABLE_ID_PATTERN = r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}"
NAME_PATTERN = r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}"


class Pattern(ma.validate.Regexp):
    """A Regexp the whole value must match. `re.match` lets "$" match before a final newline, so
    "T1\n" would pass "^T1$" and be stored as a name no path can reach; the documented pattern
    (OpenAPI's, ECMA's "$") is the same."""

    def __call__(self, value: Any) -> Any:
        if self.regex.fullmatch(value) is None:
            raise ma.ValidationError(self.error.format(input=value, regex=self.regex.pattern))
        return value


def storable_text(value: str) -> None:
    """Text PostgreSQL can keep: no NUL character (no text column holds one) and no unpaired
    surrogate (which has no UTF-8 form). JSON can carry both; the answer is a 422, not a 500."""
    if "\x00" in value:
        raise ma.ValidationError("must not contain a NUL character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ma.ValidationError("must be valid Unicode text (an unpaired surrogate is not)") from None


class RequestSchema(ma.Schema):
    class Meta:
        unknown = ma.RAISE


def cents(**kwargs) -> ma.fields.Integer:
    """A whole number of cents: strict (no "500", no 500.0, no true), within bigint."""
    return ma.fields.Integer(strict=True, validate=ma.validate.Range(min=kwargs.pop("minimum", 1), max=MAX_CENTS),
                             **kwargs)
