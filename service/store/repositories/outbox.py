"""The outbox: work for the settlement workers, written in the transaction that makes it due."""
from __future__ import annotations

import uuid

from psycopg.types.json import Jsonb

from ..transaction import Statements


class OutboxRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    def add(self, topic: str, round_id: uuid.UUID | None = None, payload: dict | None = None) -> None:
        self.db.execute("INSERT INTO outbox (topic, round_id, payload) VALUES (%s, %s, %s)",
                          (topic, round_id, Jsonb(payload or {})))
