"""Verifications of the audit log: the request, the worker's claim and progress, and the verdict."""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from psycopg import sql
from psycopg.rows import class_row, dict_row
from psycopg.types.json import Jsonb

from ..transaction import Statements


class VerificationStatus(StrEnum):
    """Queued until a worker takes it up, running while one checks, then its verdict: intact or
    broken, or failed when the check itself could not finish."""

    QUEUED = "queued"
    RUNNING = "running"
    INTACT = "intact"
    BROKEN = "broken"
    FAILED = "failed"


UNDER_WAY = (VerificationStatus.QUEUED, VerificationStatus.RUNNING)


@dataclass(frozen=True, slots=True)
class Verification:
    verification_id: uuid.UUID
    requested_by: str
    requested_at: datetime
    status: VerificationStatus
    attempts: int
    started_at: datetime | None
    heartbeat_at: datetime | None
    finished_at: datetime | None
    records: int
    chains: int
    shoes: int
    rounds: int
    problem_count: int
    problems: list[str]
    notes: list[str]
    error: str | None
    # Seconds since the row last showed life: its request while queued, its heartbeat while running.
    quiet_for: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", VerificationStatus(self.status))

    @property
    def under_way(self) -> bool:
        return self.status in UNDER_WAY

    @property
    def intact(self) -> bool:
        return self.status == VerificationStatus.INTACT




class VerificationsRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    def add(self, requested_by: str) -> Verification | None:
        """A new queued verification, or None when one is already under way (the one allowed)."""
        with self.db.cursor(row_factory=class_row(Verification)) as cur:
            return cur.execute(
                "INSERT INTO audit_verifications (verification_id, requested_by) VALUES (%s, %s) "
                "ON CONFLICT DO NOTHING RETURNING verification_id, requested_by, requested_at, status, attempts, "
                "started_at, heartbeat_at, finished_at, records, chains, shoes, rounds, problem_count, problems, "
                "notes, error, extract(epoch FROM now() - coalesce(heartbeat_at, requested_at))::float8 AS quiet_for",
                (uuid.uuid4(), requested_by)).fetchone()

    def get(self, verification_id: uuid.UUID) -> Verification | None:
        with self.db.cursor(row_factory=class_row(Verification)) as cur:
            return cur.execute("SELECT verification_id, requested_by, requested_at, status, attempts, started_at, "
                               "heartbeat_at, finished_at, records, chains, shoes, rounds, problem_count, problems, "
                               "notes, error, extract(epoch FROM now() - coalesce(heartbeat_at, "
                               "requested_at))::float8 AS quiet_for FROM audit_verifications WHERE verification_id = "
                               "%s",
                               (verification_id,)).fetchone()

    def under_way(self, *, lock: bool = False) -> Verification | None:
        """The verification waiting or running, if any; `lock` holds its row to the transaction's end."""
        with self.db.cursor(row_factory=class_row(Verification)) as cur:
            return cur.execute(sql.SQL(
                "SELECT verification_id, requested_by, requested_at, status, attempts, started_at, heartbeat_at, "
                "finished_at, records, chains, shoes, rounds, problem_count, problems, notes, error, extract(epoch "
                "FROM now() - coalesce(heartbeat_at, requested_at))::float8 AS quiet_for FROM audit_verifications "
                "WHERE status IN ('queued', 'running') {lock}").format(
                lock=sql.SQL("FOR UPDATE") if lock else sql.SQL(""))).fetchone()

    def asked_since(self, moment: datetime) -> bool:
        """Whether any verification was asked for at or after `moment`."""
        with self.db.cursor(row_factory=dict_row) as cur:
            found = cur.execute("SELECT EXISTS (SELECT 1 FROM audit_verifications WHERE requested_at >= %s) AS asked",
                                (moment,)).fetchone()
        return bool(found and found["asked"])

    def newest(self, limit: int) -> list[Verification]:
        with self.db.cursor(row_factory=class_row(Verification)) as cur:
            return cur.execute("SELECT verification_id, requested_by, requested_at, status, attempts, started_at, "
                               "heartbeat_at, finished_at, records, chains, shoes, rounds, problem_count, problems, "
                               "notes, error, extract(epoch FROM now() - coalesce(heartbeat_at, "
                               "requested_at))::float8 AS quiet_for FROM audit_verifications ORDER BY requested_at "
                               "DESC LIMIT %s",
                               (limit,)).fetchall()

    def claim(self, verification_id: uuid.UUID, stale_after: float) -> Verification | None:
        """Take the verification up: it is queued, or running with no sign of life for `stale_after`
        seconds (its worker died). None when it is done, or live in another worker's hands."""
        with self.db.cursor(row_factory=class_row(Verification)) as cur:
            return cur.execute(
                "UPDATE audit_verifications SET status = 'running', attempts = attempts + 1, started_at = now(), "
                "heartbeat_at = now(), records = 0, chains = 0, shoes = 0, rounds = 0 "
                "WHERE verification_id = %s AND (status = 'queued' OR (status = 'running' "
                "AND heartbeat_at < now() - make_interval(secs => %s))) RETURNING verification_id, requested_by, "
                "requested_at, status, attempts, started_at, heartbeat_at, finished_at, records, chains, shoes, "
                "rounds, problem_count, problems, notes, error, extract(epoch FROM now() - coalesce(heartbeat_at, "
                "requested_at))::float8 AS quiet_for",
                (verification_id, stale_after)).fetchone()

    def beat(self, verification_id: uuid.UUID, records: int, rounds: int) -> None:
        """The worker is alive and has checked this far."""
        self.db.execute("UPDATE audit_verifications SET heartbeat_at = now(), records = %s, rounds = %s "
                        "WHERE verification_id = %s AND status = 'running'", (records, rounds, verification_id))

    def requeue(self, verification_id: uuid.UUID) -> None:
        """Back to waiting: the check was cut off by something a later attempt may not meet."""
        self.db.execute("UPDATE audit_verifications SET status = 'queued', heartbeat_at = NULL "
                        "WHERE verification_id = %s AND status = 'running'", (verification_id,))

    def finish(self, done: Verification) -> bool:
        """Record a running verification's verdict, as `done` holds it; False when it was not running."""
        return self.db.execute(
            "UPDATE audit_verifications SET status = %s, finished_at = now(), heartbeat_at = now(), records = %s, "
            "chains = %s, shoes = %s, rounds = %s, problem_count = %s, problems = %s, notes = %s, error = %s "
            "WHERE verification_id = %s AND status = 'running' RETURNING 1",
            (done.status, done.records, done.chains, done.shoes, done.rounds, done.problem_count,
             Jsonb(done.problems), Jsonb(done.notes), done.error, done.verification_id)).fetchone() is not None
