"""Verifying the whole audit log as a job: asked for in one transaction, run by a worker, its verdict kept."""
from __future__ import annotations

import dataclasses
import logging
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import psycopg

from ..store.repositories.audit import AuditRecord, AuditRepository, chain_for
from ..store.repositories.outbox import OutboxTopic
from ..store.repositories.verifications import Verification, VerificationsRepository, VerificationStatus
from ..store.uow import UnitOfWork
from .report import Report
from .verify import verify_database

# Seconds a verification may show no sign of life (queued and not taken up, or running with no
# heartbeat) before it counts as lost: its message went missing or its worker died. Asking again
# then sends it again, and a worker takes a running one over.
STALE_AFTER = 60.0
BEAT_EVERY = 5.0       # seconds between a running verification's heartbeats
KEPT_PROBLEMS = 200    # a broken log can hold thousands; the first ones say where to look
SYSTEM_ACTOR = "system"   # who asks for the gaming day's own verification

log = logging.getLogger(__name__)


class TakenUp(Exception):
    """Another worker is running this verification and was alive a moment ago: look again once its
    heartbeat would have gone stale (a pool process killed mid-check is redelivered at once)."""

    def __init__(self, verification_id: uuid.UUID, look_again_in: float) -> None:
        super().__init__(f"verification {verification_id} is running in another worker")
        self.look_again_in = look_again_in


@dataclass(frozen=True, slots=True)
class Requested:
    verification: Verification
    joined: bool        # one was already under way, and this request joined it
    resent: bool        # ... and it had gone quiet, so it was sent to the workers again


def request_verification(uow: UnitOfWork, actor: str) -> Requested:
    """A new queued verification and the outbox row that sends it to a worker, in the caller's
    transaction; or, while one is under way, that one (sent again when it has gone quiet)."""
    for _ in range(2):   # the one under way may finish between the two statements: then add anew
        added = uow.verifications.add(actor)
        if added is not None:
            _send(uow, added.verification_id)
            return Requested(added, joined=False, resent=False)
        current = uow.verifications.under_way(lock=True)
        if current is not None:
            resend = current.quiet_for > STALE_AFTER
            if resend:
                _send(uow, current.verification_id)
            return Requested(current, joined=True, resent=resend)
    raise RuntimeError("no verification could be added or found under way")


def request_daily_verification(uow: UnitOfWork, day_began: datetime) -> Requested | None:
    """The gaming day's verification, asked for by the system in the caller's transaction, unless
    one has been asked for (by anyone) since the day began or one is still under way."""
    if uow.verifications.asked_since(day_began) or uow.verifications.under_way() is not None:
        return None
    return request_verification(uow, SYSTEM_ACTOR)


def _send(uow: UnitOfWork, verification_id: uuid.UUID) -> None:
    uow.outbox.add(OutboxTopic.VERIFY_AUDIT, payload={"verification_id": str(verification_id)})


def run_verification(conn: psycopg.Connection, verification_id: uuid.UUID, *,
                     clock: Callable[[], float] = time.monotonic) -> VerificationStatus | None:
    """Check the whole log for a queued verification (or one whose worker died) and keep the
    verdict, recording it in the audit log. `conn` is autocommit; it carries the claim, the
    heartbeats and the verdict, while the check reads its snapshot on a connection of its own.
    None when there is nothing to do: the verification is done (or unknown). TakenUp while
    another worker is running it; a lost database hands it back to the queue and raises, for a retry."""
    jobs = VerificationsRepository(conn)
    claimed = jobs.claim(verification_id, STALE_AFTER)
    if claimed is None:
        current = jobs.get(verification_id)
        if current is not None and current.under_way:
            raise TakenUp(verification_id, max(STALE_AFTER - current.quiet_for, 0.0) + BEAT_EVERY)
        return None
    last_beat = clock()

    def beat(report: Report) -> None:
        nonlocal last_beat
        if clock() - last_beat >= BEAT_EVERY:
            jobs.beat(verification_id, report.records, report.rounds)
            last_beat = clock()

    try:
        with psycopg.connect(conn.info.dsn, password=conn.info.password) as reading:
            done = _judged(claimed, verify_database(reading, progress=beat))
    except psycopg.OperationalError:
        _hand_back(jobs, verification_id)
        raise
    except Exception as exc:   # a record the check could not read: the run fails, saying why
        log.exception("verification %s could not finish", verification_id)
        done = dataclasses.replace(claimed, status=VerificationStatus.FAILED, error=f"{type(exc).__name__}: {exc}")
    with conn.transaction():
        if jobs.finish(done):
            AuditRepository(conn).append(chain_for(None), [_verdict_record(done)])
    return done.status


def _judged(claimed: Verification, report: Report) -> Verification:
    """The claimed verification with the check's findings as its verdict."""
    return dataclasses.replace(
        claimed, status=VerificationStatus.INTACT if report.intact else VerificationStatus.BROKEN,
        records=report.records, chains=report.chains, shoes=len(report.shoes), rounds=report.rounds,
        problem_count=len(report.problems), problems=[str(problem) for problem in report.problems[:KEPT_PROBLEMS]],
        notes=report.notes[:KEPT_PROBLEMS])


def _verdict_record(done: Verification) -> AuditRecord:
    """The verdict in the log itself, under the name of whoever asked for it."""
    return AuditRecord("audit_verified", {
        "verification_id": str(done.verification_id), "verdict": str(done.status), "records": done.records,
        "chains": done.chains, "shoes": done.shoes, "rounds": done.rounds, "problems": done.problem_count,
        "error": done.error}, actor=done.requested_by)


def _hand_back(jobs: VerificationsRepository, verification_id: uuid.UUID) -> None:
    try:
        jobs.requeue(verification_id)
    except psycopg.Error:
        # The database is away altogether: the row stays running until its heartbeat goes stale,
        # and the retry, or a worker sent it again, takes it over then.
        log.warning("verification %s left running: the database is unreachable", verification_id)
