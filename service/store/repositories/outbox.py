"""The outbox: work for the settlement workers, written in the transaction that makes it due."""
from __future__ import annotations

import uuid

import psycopg
from psycopg.types.json import Jsonb


class OutboxRepository:
    def __init__(self, conn: psycopg.Connection) -> None:
        self.conn = conn

    def add(self, topic: str, round_id: uuid.UUID | None = None, payload: dict | None = None) -> None:
        self.conn.execute("INSERT INTO outbox (topic, round_id, payload) VALUES (%s, %s, %s)",
                          (topic, round_id, Jsonb(payload or {})))
