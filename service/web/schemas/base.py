"""The base every request schema shares: unknown fields are an error, never silently dropped."""
from __future__ import annotations

from typing import Any

import marshmallow as ma

# Bounds that keep any accepted number inside PostgreSQL's bigint and any name a sane size.
MAX_CENTS = 10**12
TABLE_ID_PATTERN = r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}"
NAME_PATTERN = r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}"
MAX_NAME_LENGTH = 64     # what both patterns allow, stated as a length too


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


# One line of plain text (a key's name, a reason): no C0 or C1 control character (a newline would
# break `pontoon keys list` and the logs apart), no DEL, and no bidirectional mark or override
# (which would show an audit reader other text than is stored). Written as a pattern, so the
# OpenAPI document states it.
ONE_LINE_TEXT = r"^[^\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]*$"


def table_id_text() -> list:
    """The validators of a table id: what the table URL converter takes."""
    return [ma.validate.Length(min=1, max=MAX_NAME_LENGTH), Pattern(f"^{TABLE_ID_PATTERN}$")]


def file_name_text() -> list:
    """The validators of a rules file's or paytable's name (a file stem)."""
    return [ma.validate.Length(min=1, max=MAX_NAME_LENGTH), Pattern(f"^{NAME_PATTERN}$")]


def one_line_text() -> Pattern:
    return Pattern(ONE_LINE_TEXT, error="must be one line of text: no control characters, line breaks "
                                        "or bidirectional marks")


class RequestSchema(ma.Schema):
    class Meta:
        unknown = ma.RAISE


def cents(**kwargs) -> ma.fields.Integer:
    """A whole number of cents: strict (no "500", no 500.0, no true), within bigint."""
    return ma.fields.Integer(strict=True, validate=ma.validate.Range(min=kwargs.pop("minimum", 1), max=MAX_CENTS),
                             **kwargs)
