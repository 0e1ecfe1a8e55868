"""The Celery tasks: settle a batch of rounds (from the relay), the sweep for lost messages, a
verification of the whole audit log asked for in the console, and a paytable version's evaluation."""
from __future__ import annotations

import logging
import time
import uuid
from typing import NoReturn

import psycopg
from celery import Celery, Task
from celery.exceptions import Reject

from ..audit.jobs import TakenUp, run_verification
from ..operators.evaluation_jobs import UnderWayElsewhere, run_evaluation
from ..settlement.connection import process_connection
from ..settlement.queues import database_identity
from ..settlement.settle import SettlementRefused, normalise_ids, settle_rounds
from ..settlement.sweep import sweep_stale_rounds
from ..store.repositories.rounds import RoundStatus
from ..store.repositories.settlement import SettlementRepository

SETTLE_ROUNDS = "pontoon.settle_rounds"
SWEEP = "pontoon.sweep"
VERIFY_AUDIT = "pontoon.verify_audit"
EVALUATE_PAYTABLE = "pontoon.evaluate_paytable"
LOCKED_RETRY_SECONDS = 5
LOCKED_RETRIES = 12   # a minute of waiting on another settler; after that the sweep owns the rounds
# Looks at a verification another worker is running before leaving it to that worker for good:
# an hour, beyond the longest check of the log a casino keeps on line.
TAKEN_UP_RETRIES = 60
# Seconds a worker holds a message of rounds it does not know before handing it back: a message
# that only this worker listens for then circulates slowly instead of spinning a core.
UNKNOWN_ROUNDS_PAUSE = 1.0

log = logging.getLogger(__name__)


def settle_rounds_task(task: Task, round_ids: list[str]) -> dict:
    """Settle a batch. Rounds another settler held are retried later (that settler may roll
    back); refused rounds fail the task loudly once the rest of the batch has committed."""
    conn = process_connection(task.app.conf.pontoon_database_url)
    rounds = SettlementRepository(conn)
    outcome = settle_rounds(conn, round_ids)
    outcome.log(log)
    if round_ids and not outcome.settled and not outcome.refused and not rounds.statuses(normalise_ids(round_ids)):
        _hand_back(task, round_ids)
    log.info("settled %d rounds (%d not settleable, %d refused)", len(outcome.settled),
             len(outcome.not_settleable), len(outcome.refused))
    if outcome.refused:
        raise SettlementRefused(outcome.refused)
    pending = [round_id for round_id, status in rounds.statuses(outcome.not_settleable).items()
               if status is RoundStatus.COMPLETE]
    if pending and task.request.retries < LOCKED_RETRIES:
        raise task.retry(args=[pending], countdown=LOCKED_RETRY_SECONDS, max_retries=LOCKED_RETRIES)
    return outcome.summary()


def _hand_back(task: Task, round_ids: list[str]) -> NoReturn:
    """None of these rounds is in this worker's database: they belong to another casino floor or
    stack whose worker shares this queue. Acknowledging would lose them until that stack's sweep;
    rejecting returns the message to the broker for the worker that knows them."""
    log.warning("%d rounds unknown to %s: message returned to queue %s", len(round_ids),
                database_identity(task.app.conf.pontoon_database_url), task.app.conf.task_default_queue)
    time.sleep(task.app.conf.pontoon_unknown_rounds_pause)
    raise Reject(f"rounds unknown to {database_identity(task.app.conf.pontoon_database_url)}", requeue=True)


def sweep_task(task: Task, older_than_seconds: float = 60.0) -> dict:
    """Settle rounds complete for longer than `older_than_seconds` whose message went missing."""
    conn = process_connection(task.app.conf.pontoon_database_url)
    outcome = sweep_stale_rounds(conn, older_than_seconds)
    outcome.log(log, "settled by the sweep")
    if outcome.refused:
        raise SettlementRefused(outcome.refused)
    return outcome.summary()


def verify_audit_task(task: Task, verification_id: str) -> dict:
    """Run a verification of the whole audit log. A second delivery of one that is done returns at
    once; of one another worker is running, it looks again when that worker would have gone quiet
    (and takes it over if it has)."""
    conn = process_connection(task.app.conf.pontoon_database_url)
    try:
        verdict = run_verification(conn, uuid.UUID(verification_id))
    except TakenUp as taken:
        raise task.retry(countdown=taken.look_again_in, max_retries=TAKEN_UP_RETRIES) from None
    log.info("verification %s: %s", verification_id, verdict or "taken up elsewhere or done already")
    return {"verification_id": verification_id, "verdict": verdict}


def evaluate_paytable_task(task: Task, paytable: str, version: int) -> dict:
    """Measure a paytable version's house edge and RTP and keep them for its approval. A second
    delivery of one that is done returns at once; of one another worker has, it looks again when
    that worker would have gone quiet (and takes it over if it has)."""
    conn = process_connection(task.app.conf.pontoon_database_url)
    try:
        status = run_evaluation(conn, paytable, version)
    except UnderWayElsewhere as taken:
        raise task.retry(countdown=taken.look_again_in, max_retries=TAKEN_UP_RETRIES) from None
    log.info("evaluation of %s@%s: %s", paytable, version, status or "taken up elsewhere or done already")
    return {"paytable": paytable, "version": version, "status": status}


def register_tasks(app: Celery) -> None:
    """Attach the tasks to `app` by name (the relay publishes by name, never importing them)."""
    common = {"bind": True, "acks_late": True, "reject_on_worker_lost": True, "ignore_result": True,
              # A dropped database connection is worth retrying; anything else is a real failure.
              "autoretry_for": (psycopg.OperationalError,), "retry_backoff": True, "max_retries": 5}
    app.task(name=SETTLE_ROUNDS, **common)(settle_rounds_task)
    app.task(name=SWEEP, **common)(sweep_task)
    app.task(name=VERIFY_AUDIT, **common)(verify_audit_task)
    app.task(name=EVALUATE_PAYTABLE, **common)(evaluate_paytable_task)
