"""What the REST API and the console share about table games accounting: the casino's accounting
policy as the app holds it, whose signature a caller's role makes a step, and the gaming day a
query names (the current one by default)."""
from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from flask import current_app

from ..accounting.policy import AccountingPolicy
from ..roles import Role
from ..store.repositories.accounting import Capacity

EXTENSION = "pontoon.accounting"

# A terminal's key signs for the table's dealer (it is the dealer's station); a person signs as
# what their role is.
CAPACITY_OF_ROLE: Mapping[str, Capacity] = {Role.SUPERVISOR: Capacity.SUPERVISOR, Role.TERMINAL: Capacity.DEALER,
                                            Role.DEALER: Capacity.DEALER, Role.CAGE: Capacity.CAGE}


def accounting_policy() -> AccountingPolicy:
    """The app's policy, made from its settings when the app was built."""
    found: AccountingPolicy = current_app.extensions[EXTENSION]
    return found


def capacity_of(role: str) -> Capacity:
    """Whose signature a step by this role is; the tasks' table (access.py) says which roles may
    sign at all, so a role without one never reaches here."""
    return CAPACITY_OF_ROLE[role]


def day_asked(query: Mapping[str, Any], policy: AccountingPolicy) -> date:
    """The gaming day a checked query names, or the current one."""
    day: date | None = query.get("gaming_day")
    return day if day is not None else policy.gaming_day()
