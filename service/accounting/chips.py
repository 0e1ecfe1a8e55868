"""Chips counted by denomination, as a slip holds them: only the configured denominations, whole
numbers of chips, and their total in cents."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..refusals import Conflict, Invalid
from .policy import AccountingPolicy

MAX_CHIPS = 1_000_000           # of one denomination on one slip: far beyond any tray or rack


def counted_chips(chips: Mapping[Any, Any] | None, policy: AccountingPolicy, *, field: str = "chips",
                  some: bool = False) -> dict[int, int]:
    """The chips as {denomination in cents: chips}, denominations given as cents (a JSON object's
    keys are text: "2500"). Invalid, naming each denomination whose count is not a whole number of
    chips; Conflict, naming it, for a denomination that is not one of this casino's chips (what the
    casino configures, not what a slip can say); `some`: at least one chip (a fill or a credit
    moves chips; a tray may be empty)."""
    if not isinstance(chips, Mapping):
        raise Invalid("the chips must be counted by denomination", code="invalid_chips",
                      errors={field: ["an object of denomination (cents) to chips, e.g. {\"2500\": 40}"]})
    counted: dict[int, int] = {}
    problems: dict[str, list[str]] = {}
    strangers: dict[str, list[str]] = {}
    offered = ", ".join(str(denomination) for denomination in policy.denominations)
    for key, count in chips.items():
        text = str(key)
        denomination = int(text) if text.isascii() and text.isdigit() else None
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_CHIPS:
            problems[text] = [f"a whole number of chips, 0 to {MAX_CHIPS:,}"]
        elif denomination is None or denomination not in policy.denominations:
            strangers[text] = [f"not a chip of this casino: the denominations are {offered} cents"]
        elif count:
            counted[denomination] = counted.get(denomination, 0) + count
    if problems:
        raise Invalid("the chips cannot be read", code="invalid_chips", errors={field: {**problems, **strangers}})
    if strangers:
        raise Conflict("a denomination is not one of this casino's chips", code="not_a_chip",
                       errors={field: strangers})
    if some and not counted:
        raise Invalid("no chips are counted", code="invalid_chips", errors={field: ["count at least one chip"]})
    return counted


def total_of(chips: Mapping[int, int]) -> int:
    return sum(denomination * count for denomination, count in chips.items())
