"""The roles a caller acts in: a staff account's, or an API key's (a dealer terminal's among them)."""
from __future__ import annotations

from enum import StrEnum


class Role(StrEnum):
    ADMIN = "admin"
    OPERATOR = "operator"
    SUPERVISOR = "supervisor"
    COMPLIANCE = "compliance"
    TERMINAL = "terminal"       # a dealer terminal's key: it acts at its own table only
    DEALER = "dealer"           # a person who deals, signed in with a PIN at a table's enrolled screen
    CAGE = "cage"               # a cashier at the cage: issues the chips of a fill and takes those of a credit
    COUNT = "count"             # a member of the count team: counts the drop boxes' cash and markers


# A person's roles: a terminal is a machine at a table, never someone who signs in.
STAFF_ROLES: tuple[Role, ...] = tuple(role for role in Role if role is not Role.TERMINAL)
# The people who sign in to the console: a dealer signs in only at a table's screen.
CONSOLE_ROLES: tuple[Role, ...] = tuple(role for role in STAFF_ROLES if role is not Role.DEALER)
# The roles an API key may have: a dealer is a person at a screen, never a key.
KEY_ROLES: tuple[Role, ...] = tuple(role for role in Role if role is not Role.DEALER)
# The keys that draft, approve, void or manage access: each belongs to a person (a staff account of
# its role), whose actions its requests are.
PERSONAL_KEY_ROLES: tuple[Role, ...] = (Role.ADMIN, Role.OPERATOR, Role.SUPERVISOR)
