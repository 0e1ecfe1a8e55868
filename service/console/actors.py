"""Who did something, as a reader knows them: a person by their name, a person's API key by its
person's name, any other key by its name (or its role and table), the service's own processes in
words; the stored actor stays one hover away."""
from __future__ import annotations

import uuid
from dataclasses import dataclass

from flask import Flask, g

from ..web.request_scope import request_uow

STAFF_PREFIX = "staff:"
# The service's own actors, as the audit log stores them.
PROCESSES = {"settlement": "the settlement worker", "system": "the service (daily)", "cli": "the command line"}


@dataclass(frozen=True, slots=True)
class Names:
    """Every person's and every key's name, read once per request that shows an actor."""

    people: dict[str, str]      # username -> display name
    keys: dict[str, str]        # key id -> how the key is named


def _key_name(name: str | None, role: str, table_id: str | None, owner: str | None = None) -> str:
    if owner:   # a person's key: what it did, they did
        return f"{owner} ({role} key{' ' + repr(name) if name else ''})"
    if name:
        return f"{name} ({role} key)"
    return f"{role} key of table {table_id}" if table_id else f"an unnamed {role} key"


def _names() -> Names:
    if "console_names" not in g:
        uow = request_uow()
        staff = uow.staff.all()
        by_id = {row.user_id: row.display_name for row in staff}
        g.console_names = Names({row.username: row.display_name for row in staff},
                                {str(row.key_id): _key_name(row.name, row.role, row.table_id,
                                                            by_id.get(row.owner_id) if row.owner_id else None)
                                 for row in uow.keys.all()})
    names: Names = g.console_names
    return names


def actor_name(actor: str | None) -> str:
    """`staff:alice` -> "Alice Martin"; a key's id -> "Pit 3 terminal (terminal key)"; "settlement"
    -> "the settlement worker"; anything else as it is stored."""
    if not actor:
        return "\u2014"
    if actor in PROCESSES:
        return PROCESSES[actor]
    names = _names()
    if actor.startswith(STAFF_PREFIX):
        username = actor[len(STAFF_PREFIX):]
        return names.people.get(username, username)
    try:
        key = str(uuid.UUID(actor))
    except ValueError:
        return actor
    return names.keys.get(key, f"key {key[:8]}\u2026")


def install(app: Flask) -> None:
    app.add_template_filter(actor_name, "actor_name")
