"""Reading a browser form's chips and amounts: a number of chips per denomination (fields named
`chips.<cents>`) and amounts in dollars as the chips read ("25", "1,000", "12.50"), each problem
named at its field for the page to show beside it."""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from .schemas.base import MAX_CENTS

CHIPS_PREFIX = "chips."
_DOLLARS = re.compile(r"^\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$")


class FormProblems(ValueError):
    """Fields that cannot be read: field name -> what is wrong with it."""

    def __init__(self, problems: dict[str, list[str]]) -> None:
        super().__init__("; ".join(f"{name}: {' '.join(messages)}" for name, messages in problems.items()))
        self.problems = problems


def chips_of_form(form: Mapping[str, str], denominations: Iterable[int]) -> dict[str, int]:
    """{denomination in cents (as text): chips} of the form's `chips.<cents>` fields that are not
    empty; FormProblems naming each field that is no whole number of chips."""
    chips: dict[str, int] = {}
    problems: dict[str, list[str]] = {}
    for denomination in denominations:
        name = f"{CHIPS_PREFIX}{denomination}"
        text = (form.get(name) or "").strip().replace(",", "")
        if not text:
            continue
        if not text.isascii() or not text.isdigit() or len(text) > 7:
            problems[name] = ["a whole number of chips"]
            continue
        chips[str(denomination)] = int(text)
    if problems:
        raise FormProblems(problems)
    return chips


def cents_of_dollars(text: str | None, field: str, *, allow_zero: bool = False) -> int:
    """The cents a field's dollars write; FormProblems naming the field when they write none."""
    match = _DOLLARS.match((text or "").strip())
    if match is None:
        raise FormProblems({field: ["write dollars, and cents after a point if any: e.g. 25 or 12.50"]})
    whole, part = match.groups()
    cents = int(whole.replace(",", "")) * 100 + int((part or "0").ljust(2, "0"))
    if cents > MAX_CENTS or (cents == 0 and not allow_zero):
        raise FormProblems({field: ["more than $0" if cents == 0 else "more than any table holds"]})
    return cents
