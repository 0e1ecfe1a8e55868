"""Amounts as a dealer types them, in dollars as the chips read ("25", "12.50"), into the cents
every handler takes; a field that is not an amount gets a message in words."""
from __future__ import annotations

import re

from ..web.schemas.base import MAX_CENTS

# Dollars, with a thousands comma or not, and at most two places of cents: "25", "1,000", "12.5", "$7.25".
DOLLARS = re.compile(r"^\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$")
WRITTEN_AS = "write dollars, and cents after a point if any: e.g. 25 or 12.50"


class AmountProblem(ValueError):
    """A field that writes no amount: its message says why, to be shown beside the field."""


def cents_of(text: str, *, allow_zero: bool = False) -> int:
    """The cents `text` writes; AmountProblem saying why when it writes none (or 0, unless allowed)."""
    match = DOLLARS.match(text.strip())
    if match is None:
        raise AmountProblem(WRITTEN_AS)
    dollars, part = match.groups()
    cents = int(dollars.replace(",", "")) * 100 + int((part or "0").ljust(2, "0"))
    if cents == 0 and not allow_zero:
        raise AmountProblem("must be more than $0")
    if cents > MAX_CENTS:
        raise AmountProblem("is more than any table takes")
    return cents


def optional_cents(text: str | None) -> int | None:
    """An amount a field may leave empty (a seat not playing, no side bet): None when empty or 0."""
    if text is None or not text.strip():
        return None
    cents = cents_of(text, allow_zero=True)
    return cents or None


def dollars_of(cents: int | None) -> str:
    """Cents written back into a field as a dealer would type them: 2500 -> "25", 1250 -> "12.50"."""
    if cents is None:
        return ""
    dollars, rest = divmod(cents, 100)
    return f"{dollars}" if rest == 0 else f"{dollars}.{rest:02d}"
