"""The outbox relay: publishes unpublished outbox rows to Celery (rounds to settle, verifications of the
audit log and paytable evaluations to run), and keeps them when it cannot."""
from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import psycopg

from ..store.repositories.outbox import ClaimedRound, OutboxRepository
from .batches import BATCH_SIZE, batches_by_table

CLAIM_LIMIT = 2000  # outbox rows per pass: one transaction, a few messages
# While the broker or the database is away the relay tries again at least this often, so what
# waits in the outbox goes out within about a second of their return, however long they were away.
MAX_BACKOFF = 1.0

log = logging.getLogger(__name__)

Publish = Callable[[list[str]], None]            # one message settling these rounds
SendVerification = Callable[[str], None]         # one message running this verification
SendEvaluation = Callable[[str, int], None]      # one message evaluating this paytable version


class BrokerUnavailable(RuntimeError):
    """Publishing failed; the rows not published stay in the outbox for the next pass."""


@dataclass(frozen=True)
class RelayPass:
    published_rows: int
    messages: int


def relay_outbox(conn: psycopg.Connection, publish: Publish, *, limit: int = CLAIM_LIMIT, batch_size: int = BATCH_SIZE,
                 publish_errors: tuple[type[BaseException], ...] = (OSError,)) -> RelayPass:
    """Claim unpublished rows (SKIP LOCKED: relays may run side by side), publish their rounds
    in batches of one table each, and mark what went out. A round published twice is harmless
    (settlement is idempotent); a row never marked is published again on the next pass."""
    outbox = OutboxRepository(conn)
    with conn.transaction():
        claimed = outbox.claim_rounds(limit)
        if not claimed:
            return RelayPass(0, 0)
        published, messages, failure = _publish(claimed, publish, batch_size, publish_errors)
        outbox.mark([row.outbox_id for row in claimed], published)
    if failure is not None:
        raise BrokerUnavailable(f"published {len(published)} of {len(claimed)} outbox rows: {failure}") from failure
    return RelayPass(len(published), messages)


def _publish(claimed: list[ClaimedRound], publish: Publish, batch_size: int,
             publish_errors: tuple[type[BaseException], ...]) -> tuple[list[int], int, BaseException | None]:
    """Publish batch by batch until one fails: (outbox ids sent, messages sent, the failure)."""
    rows_of: dict[str, list[int]] = {}
    for row in claimed:
        rows_of.setdefault(row.round_id, []).append(row.outbox_id)   # a round may have more than one row
    rounds = [(row.round_id, row.table_id or "") for row in claimed]
    published: list[int] = []
    messages = 0
    for batch in batches_by_table(rounds, batch_size):
        try:
            publish(batch)
        except publish_errors as exc:
            return published, messages, exc
        messages += 1
        published += [row_id for round_id in batch for row_id in rows_of[round_id]]
    return published, messages, None


def relay_verifications(conn: psycopg.Connection, send: SendVerification,
                        publish_errors: tuple[type[BaseException], ...] = (OSError,)) -> int:
    """Send each unpublished verification row as a message of its own, as relay_outbox sends
    rounds; a verification sent twice runs once (its worker claims it first). Rows sent."""
    outbox = OutboxRepository(conn)
    with conn.transaction():
        claimed = outbox.claim_verifications()
        sent: list[int] = []
        failure: BaseException | None = None
        for row in claimed:
            try:
                send(row.verification_id)
            except publish_errors as exc:
                failure = exc
                break
            sent.append(row.outbox_id)
        outbox.mark([row.outbox_id for row in claimed], sent)
    if failure is not None:
        raise BrokerUnavailable(f"sent {len(sent)} of {len(claimed)} verifications: {failure}") from failure
    return len(sent)


def relay_evaluations(conn: psycopg.Connection, send: SendEvaluation,
                      publish_errors: tuple[type[BaseException], ...] = (OSError,)) -> int:
    """Send each unpublished paytable evaluation as a message of its own, as relay_verifications
    does; one sent twice runs once (its worker claims it first). Rows sent."""
    outbox = OutboxRepository(conn)
    with conn.transaction():
        claimed = outbox.claim_evaluations()
        sent: list[int] = []
        failure: BaseException | None = None
        for row in claimed:
            try:
                send(row.paytable, row.version)
            except publish_errors as exc:
                failure = exc
                break
            sent.append(row.outbox_id)
        outbox.mark([row.outbox_id for row in claimed], sent)
    if failure is not None:
        raise BrokerUnavailable(f"sent {len(sent)} of {len(claimed)} evaluations: {failure}") from failure
    return len(sent)


def run_relay(connect: Callable[[], psycopg.Connection], publish: Publish, *, interval: float = 1.0,
              send_verification: SendVerification | None = None, send_evaluation: SendEvaluation | None = None,
              housekeeping: Sequence[Callable[[psycopg.Connection], object]] = (), every: float = 10.0,
              publish_errors: tuple[type[BaseException], ...] = (OSError,),
              should_stop: Callable[[], bool] = lambda: False,
              clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep) -> None:
    """Relay forever (until `should_stop`): publish the outbox every `interval` (verifications
    and evaluations too, given `send_verification` and `send_evaluation`), back off while the
    broker or the database is away (reconnecting to the database), and run the `housekeeping` jobs (the sweep, the day's
    verification request) in turn every `every` seconds. A failed pass leaves its rows
    unpublished for the next one. `clock` gives the seconds the schedule counts (any origin: only
    its differences are used) and `sleep` waits between passes."""
    conn: psycopg.Connection | None = None
    backoff = interval
    next_housekeeping = clock() + every
    while not should_stop():
        done = RelayPass(0, 0)
        try:
            if conn is None or conn.closed or conn.broken:
                conn = connect()
            done = relay_outbox(conn, publish, publish_errors=publish_errors)
            if send_verification is not None:
                relay_verifications(conn, send_verification, publish_errors)
            if send_evaluation is not None:
                relay_evaluations(conn, send_evaluation, publish_errors)
            backoff = interval
        except BrokerUnavailable as exc:
            log.warning("broker unavailable, outbox kept for the next pass: %s", exc)
            backoff = min(backoff * 2, max(interval, MAX_BACKOFF))
        except psycopg.Error as exc:
            # A restarted or unreachable database must not end the relay: every round completed
            # meanwhile waits in the outbox until a pass on a new connection publishes it.
            log.error("database unavailable, outbox kept for the next pass: %s", " ".join(str(exc).split()))
            backoff = min(backoff * 2, max(interval, MAX_BACKOFF))
        if housekeeping and conn is not None and not conn.broken and clock() >= next_housekeeping:
            next_housekeeping = clock() + every
            for job in housekeeping:
                try:
                    job(conn)
                except psycopg.Error:
                    # What it wrote rolled back (a sweep's batch stays complete): it runs again next time.
                    log.exception("%s failed; housekeeping runs again in %.0f s", job.__name__, every)
                    break
        if done.published_rows < CLAIM_LIMIT:  # a full pass means more is waiting: go again at once
            sleep(backoff)
