"""Evaluations of paytable versions (migration 0018): the request, the worker's claim, and the
figures or why there are none."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from ..transaction import Statements


class EvaluationStatus(StrEnum):
    """Queued until a worker takes it up, running while it measures, then done (with its figures)
    or failed (with the reason)."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


UNDER_WAY = (EvaluationStatus.QUEUED, EvaluationStatus.RUNNING)


@dataclass(frozen=True, slots=True)
class EvaluationRow:
    """A paytable version's evaluation as its row holds it."""

    paytable: str
    version: int
    requested_by: str
    requested_at: datetime
    status: EvaluationStatus
    attempts: int
    started_at: datetime | None
    finished_at: datetime | None
    house_edge_percent: float | None
    rtp_percent: float | None
    detail: dict[str, Any] | None
    error: str | None
    # Seconds since the row last showed life: its request while queued, its start while running.
    quiet_for: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", EvaluationStatus(self.status))

    @property
    def under_way(self) -> bool:
        return self.status in UNDER_WAY


class EvaluationsRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    def request(self, paytable: str, version: int, requested_by: str, stale_after: float) -> EvaluationRow | None:
        """A queued evaluation of the version: a new one, or one asked for again because it failed
        or has shown no life for `stale_after` seconds (its message or its worker was lost). None
        while one is live or done: it stands."""
        with self.db.cursor(row_factory=class_row(EvaluationRow)) as cur:
            return cur.execute(
                "INSERT INTO paytable_evaluations AS e (paytable, version, requested_by) VALUES (%(paytable)s, "
                "%(version)s, %(requested_by)s) "
                "ON CONFLICT (paytable, version) DO UPDATE SET status = 'queued', requested_by = %(requested_by)s, "
                "requested_at = now(), started_at = NULL, finished_at = NULL, error = NULL "
                "WHERE e.status = 'failed' "
                "OR (e.status = 'queued' AND e.requested_at < now() - make_interval(secs => %(stale_after)s)) "
                "OR (e.status = 'running' AND e.started_at < now() - make_interval(secs => %(stale_after)s)) "
                "RETURNING e.paytable, e.version, e.requested_by, e.requested_at, e.status, e.attempts, "
                "e.started_at, e.finished_at, e.house_edge_percent, e.rtp_percent, e.detail, e.error, "
                "extract(epoch FROM now() - coalesce(e.started_at, e.requested_at))::float8 AS quiet_for",
                {"paytable": paytable, "version": version, "requested_by": requested_by,
                 "stale_after": stale_after}).fetchone()

    def get(self, paytable: str, version: int) -> EvaluationRow | None:
        with self.db.cursor(row_factory=class_row(EvaluationRow)) as cur:
            return cur.execute(
                "SELECT paytable, version, requested_by, requested_at, status, attempts, started_at, finished_at, "
                "house_edge_percent, rtp_percent, detail, error, "
                "extract(epoch FROM now() - coalesce(started_at, requested_at))::float8 AS quiet_for "
                "FROM paytable_evaluations WHERE paytable = %s AND version = %s", (paytable, version)).fetchone()

    def claim(self, paytable: str, version: int, stale_after: float) -> EvaluationRow | None:
        """Take the evaluation up: it is queued, or running with no sign of life for `stale_after`
        seconds (its worker died). None when it is done, failed, unknown, or in another worker's hands."""
        with self.db.cursor(row_factory=class_row(EvaluationRow)) as cur:
            return cur.execute(
                "UPDATE paytable_evaluations SET status = 'running', attempts = attempts + 1, started_at = now() "
                "WHERE paytable = %s AND version = %s AND (status = 'queued' OR (status = 'running' "
                "AND started_at < now() - make_interval(secs => %s))) "
                "RETURNING paytable, version, requested_by, requested_at, status, attempts, started_at, finished_at, "
                "house_edge_percent, rtp_percent, detail, error, 0::float8 AS quiet_for",
                (paytable, version, stale_after)).fetchone()

    def finish(self, paytable: str, version: int, *, house_edge_percent: float, rtp_percent: float,
               detail: dict[str, Any]) -> bool:
        """Record a running evaluation's figures; False when it was not running (any more)."""
        return self.db.execute(
            "UPDATE paytable_evaluations SET status = 'done', finished_at = now(), house_edge_percent = %s, "
            "rtp_percent = %s, detail = %s WHERE paytable = %s AND version = %s AND status = 'running' RETURNING 1",
            (house_edge_percent, rtp_percent, Jsonb(detail), paytable, version)).fetchone() is not None

    def fail(self, paytable: str, version: int, error: str) -> bool:
        """Record why a running evaluation could not finish; False when it was not running."""
        return self.db.execute(
            "UPDATE paytable_evaluations SET status = 'failed', finished_at = now(), error = %s "
            "WHERE paytable = %s AND version = %s AND status = 'running' RETURNING 1",
            (error, paytable, version)).fetchone() is not None

    def requeue(self, paytable: str, version: int) -> None:
        """Back to waiting: the run was cut off by something a later attempt may not meet."""
        self.db.execute("UPDATE paytable_evaluations SET status = 'queued', started_at = NULL "
                        "WHERE paytable = %s AND version = %s AND status = 'running'", (paytable, version))
