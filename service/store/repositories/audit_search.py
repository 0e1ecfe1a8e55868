"""Reads the audit log as a person searches it: records by time, table, round, kind and actor,
newest first, one page at a time."""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any, LiteralString

from psycopg import sql
from psycopg.rows import class_row

from ..transaction import Statements

PAGE_LIMIT = 200     # rows a page may ask for: a page is read by a person, an export by a machine


@dataclass(frozen=True, slots=True)
class AuditSearch:
    """What to look for; every criterion left None matches everything."""

    since: datetime | None = None       # at or after
    until: datetime | None = None       # before
    table_id: str | None = None
    round_id: uuid.UUID | None = None
    kind: str | None = None
    actor: str | None = None            # as recorded ("staff:alice", a key id, "system"), or a person's username
    before_id: int | None = None        # the page that follows the one whose last record had this id


@dataclass(frozen=True, slots=True)
class AuditHit:
    id: int
    chain: str
    seq: int
    at: datetime
    kind: str
    actor: str | None
    table_id: str | None
    round_id: uuid.UUID | None
    payload: dict[str, Any]


# Each criterion's condition, used when the criterion is given; together they are ANDed.
_CONDITIONS: tuple[tuple[str, LiteralString], ...] = (
    ("since", "at >= %(since)s"),
    ("until", "at < %(until)s"),
    ("table_id", "table_id = %(table_id)s"),
    ("round_id", "round_id = %(round_id)s"),
    ("kind", "kind = %(kind)s"),
    ("actor", "(actor = %(actor)s OR actor = 'staff:' || %(actor)s)"),
    ("before_id", "id < %(before_id)s"),
)


class AuditSearchRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    def search(self, query: AuditSearch, limit: int) -> list[AuditHit]:
        """Up to `limit` records matching `query`, newest (highest id) first."""
        params: dict[str, Any] = {name: getattr(query, name) for name, _ in _CONDITIONS}
        conditions = [sql.SQL(condition) for name, condition in _CONDITIONS if params[name] is not None]
        where = sql.SQL("WHERE {}").format(sql.SQL(" AND ").join(conditions)) if conditions else sql.SQL("")
        params["limit"] = max(1, min(limit, PAGE_LIMIT))
        with self.db.cursor(row_factory=class_row(AuditHit)) as cur:
            return cur.execute(sql.SQL(
                "SELECT id, chain, seq, at, kind, actor, table_id, round_id, payload FROM audit_log {where} "
                "ORDER BY id DESC LIMIT %(limit)s").format(where=where), params).fetchall()
