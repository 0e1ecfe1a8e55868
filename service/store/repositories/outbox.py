"""The outbox: work for the workers, written in the transaction that makes it due, and claimed and
marked by the relay that sends it."""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from enum import StrEnum

from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from ..transaction import Statements


class OutboxTopic(StrEnum):
    """What an outbox row asks a worker to do."""

    SETTLE_ROUND = "settle_round"     # settle the round the row names
    VERIFY_AUDIT = "verify_audit"     # check the whole audit log for the verification its payload names
    EVALUATE_PAYTABLE = "evaluate_paytable"   # measure the paytable version its payload names


@dataclass(frozen=True, slots=True)
class ClaimedRound:
    """An outbox row asking for a round's settlement, claimed for publishing."""
    outbox_id: int
    round_id: str
    table_id: str | None            # None: the round is not in this database


@dataclass(frozen=True, slots=True)
class ClaimedVerification:
    """An outbox row asking for a verification of the audit log, claimed for sending."""
    outbox_id: int
    verification_id: str


@dataclass(frozen=True, slots=True)
class ClaimedEvaluation:
    """An outbox row asking for a paytable version's evaluation, claimed for sending."""
    outbox_id: int
    paytable: str
    version: int


class OutboxRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    def add(self, topic: OutboxTopic, round_id: uuid.UUID | None = None, payload: dict | None = None) -> None:
        self.db.execute("INSERT INTO outbox (topic, round_id, payload) VALUES (%s, %s, %s)",
                        (topic, round_id, Jsonb(payload or {})))

    def claim_rounds(self, limit: int) -> list[ClaimedRound]:
        """Unpublished rounds to settle, oldest first, locked for the caller's transaction (SKIP
        LOCKED: relays may run side by side)."""
        with self.db.cursor(row_factory=class_row(ClaimedRound)) as cur:
            return cur.execute(
                "SELECT o.id AS outbox_id, o.round_id::text AS round_id, r.table_id "
                "FROM outbox o LEFT JOIN rounds r USING (round_id) "
                "WHERE o.published_at IS NULL AND o.topic = %s ORDER BY o.id LIMIT %s FOR UPDATE OF o SKIP LOCKED",
                (OutboxTopic.SETTLE_ROUND, limit)).fetchall()

    def claim_verifications(self) -> list[ClaimedVerification]:
        """Unpublished verifications, oldest first, locked for the caller's transaction."""
        with self.db.cursor(row_factory=class_row(ClaimedVerification)) as cur:
            return cur.execute(
                "SELECT id AS outbox_id, payload->>'verification_id' AS verification_id FROM outbox "
                "WHERE published_at IS NULL AND topic = %s ORDER BY id FOR UPDATE SKIP LOCKED",
                (OutboxTopic.VERIFY_AUDIT,)).fetchall()

    def claim_evaluations(self) -> list[ClaimedEvaluation]:
        """Unpublished evaluations, oldest first, locked for the caller's transaction."""
        with self.db.cursor(row_factory=class_row(ClaimedEvaluation)) as cur:
            return cur.execute(
                "SELECT id AS outbox_id, payload->>'paytable' AS paytable, (payload->>'version')::int AS version "
                "FROM outbox WHERE published_at IS NULL AND topic = %s ORDER BY id FOR UPDATE SKIP LOCKED",
                (OutboxTopic.EVALUATE_PAYTABLE,)).fetchall()

    def mark(self, claimed: list[int], published: list[int]) -> None:
        """Every claimed row counts an attempt; only those whose message went out are marked published."""
        self.db.execute("UPDATE outbox SET attempts = attempts + 1, "
                        "published_at = CASE WHEN id = ANY(%s) THEN now() END WHERE id = ANY(%s)",
                        (published, claimed))
