"""The outbox: work for the settlement workers, written in the transaction that makes it due."""
from __future__ import annotations

import uuid
from enum import StrEnum

from psycopg.types.json import Jsonb

from ..transaction import Statements


class OutboxTopic(StrEnum):
    """What an outbox row asks a worker to do."""

    SETTLE_ROUND = "settle_round"     # settle the round the row names
    VERIFY_AUDIT = "verify_audit"     # check the whole audit log for the verification its payload names


class OutboxRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    def add(self, topic: OutboxTopic, round_id: uuid.UUID | None = None, payload: dict | None = None) -> None:
        self.db.execute("INSERT INTO outbox (topic, round_id, payload) VALUES (%s, %s, %s)",
                          (topic, round_id, Jsonb(payload or {})))
