"""The roles a caller acts in: a staff account's, or an API key's (a dealer terminal's among them)."""
from __future__ import annotations

from enum import StrEnum


class Role(StrEnum):
    ADMIN = "admin"
    OPERATOR = "operator"
    SUPERVISOR = "supervisor"
    COMPLIANCE = "compliance"
    TERMINAL = "terminal"       # a dealer terminal's key: it acts at its own table only


# A person's roles: a terminal is a machine at a table, never someone signed in to the console.
STAFF_ROLES: tuple[Role, ...] = tuple(role for role in Role if role is not Role.TERMINAL)
