"""A paytable version's evaluation as a job: asked for in the caller's transaction (a draft's
submission asks for it), run by a worker, its figures kept for approval to take."""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import psycopg

from ..refusals import Invalid, NotFound
from ..rules import Ref, parse_paytable
from ..store.repositories.evaluations import EvaluationRow, EvaluationsRepository, EvaluationStatus
from ..store.repositories.outbox import OutboxTopic
from ..store.repositories.paytables import PaytablesRepository
from ..store.uow import UnitOfWork
from .commands import EvaluatePaytableVersion

# Seconds an evaluation may show no sign of life (queued and not taken up, or running) before it
# counts as lost: its message went missing or its worker died. The exact analysis of a paytable
# not analysed before, or the simulation's 20 seconds, on a busy machine, is well within it.
STALE_AFTER = 300.0

log = logging.getLogger(__name__)


class UnderWayElsewhere(Exception):
    """Another worker took this evaluation up a moment ago: look again once it would have gone stale."""

    def __init__(self, paytable: str, version: int, look_again_in: float) -> None:
        super().__init__(f"the evaluation of {Ref(paytable, version)} is running in another worker")
        self.look_again_in = look_again_in


@dataclass(frozen=True, slots=True)
class Requested:
    evaluation: EvaluationRow
    sent: bool          # False: one was live or done already, and stands


def request_evaluation(uow: UnitOfWork, name: str, version: int, actor: str) -> Requested:
    """A queued evaluation of the version and the outbox row that sends it to a worker, in the
    caller's transaction; or the one live or done already."""
    queued = uow.evaluations.request(name, version, actor, STALE_AFTER)
    if queued is not None:
        uow.outbox.add(OutboxTopic.EVALUATE_PAYTABLE, payload={"paytable": name, "version": version})
        return Requested(queued, sent=True)
    standing = uow.evaluations.get(name, version)
    if standing is None:   # cannot be: the row was there for the request to stand against
        raise RuntimeError(f"no evaluation of {Ref(name, version)} could be asked for or found")
    return Requested(standing, sent=False)


def evaluate_version(cmd: EvaluatePaytableVersion, uow: UnitOfWork) -> dict:
    """Ask for a version's evaluation (again: one never asked for, failed, or lost on its way);
    one live or done stands. The version's figures come from a worker, never from this request."""
    if uow.paytables.get(cmd.name, cmd.version) is None:
        raise NotFound(f"no version {cmd.version} of paytable {cmd.name!r}")
    return evaluation_view(request_evaluation(uow, cmd.name, cmd.version, cmd.actor).evaluation)


def evaluation_of(uow: UnitOfWork, name: str, version: int) -> dict:
    """A version's evaluation as it stands; one never asked for reads as status None."""
    if uow.paytables.get(name, version) is None:
        raise NotFound(f"no version {version} of paytable {name!r}")
    found = uow.evaluations.get(name, version)
    if found is None:
        return {"paytable": name, "version": version, "status": None, "requested_by": None, "requested_at": None,
                "attempts": 0, "started_at": None, "finished_at": None, "house_edge_percent": None,
                "rtp_percent": None, "method": None, "detail": None, "error": None, "quiet_for": 0.0}
    return evaluation_view(found)


def evaluation_view(found: EvaluationRow) -> dict[str, Any]:
    return {"paytable": found.paytable, "version": found.version, "status": found.status,
            "requested_by": found.requested_by, "requested_at": found.requested_at, "attempts": found.attempts,
            "started_at": found.started_at, "finished_at": found.finished_at,
            "house_edge_percent": found.house_edge_percent, "rtp_percent": found.rtp_percent,
            "method": (found.detail or {}).get("method"), "detail": found.detail, "error": found.error,
            "quiet_for": found.quiet_for}


def run_evaluation(conn: psycopg.Connection, name: str, version: int) -> EvaluationStatus | None:
    """Measure a queued evaluation (or one whose worker died) and keep its figures, or why there
    are none. `conn` is autocommit: the claim is seen at once, and the figures are written when
    the measuring is done. None when there is nothing to do: done already, or unknown.
    UnderWayElsewhere while another worker has it; a lost database hands it back to the queue and
    raises, for a retry."""
    # The analysis (numba and its compiled kernels) is loaded by the worker that takes an
    # evaluation, when it takes one: a worker that only settles rounds starts without it.
    from .evaluation import evaluate_paytable

    jobs = EvaluationsRepository(conn)
    claimed = jobs.claim(name, version, STALE_AFTER)
    if claimed is None:
        current = jobs.get(name, version)
        if current is not None and current.status == EvaluationStatus.RUNNING:
            raise UnderWayElsewhere(name, version, max(STALE_AFTER - current.quiet_for, 0.0) + 1.0)
        return None
    try:
        row = PaytablesRepository(conn).get(name, version)
        if row is None:   # cannot be: the evaluation's row refers to it
            raise LookupError(f"no version {version} of paytable {name!r}")
        measured = evaluate_paytable(parse_paytable(str(Ref(name, version)), row.content))
    except psycopg.OperationalError:
        _hand_back(jobs, name, version)
        raise
    except Invalid as exc:   # the paytable names no rules it can be measured under
        jobs.fail(name, version, exc.message)
        return EvaluationStatus.FAILED
    except Exception as exc:   # the analysis itself could not finish: say why, for the operators
        log.exception("the evaluation of %s could not finish", Ref(name, version))
        jobs.fail(name, version, f"{type(exc).__name__}: {exc}")
        return EvaluationStatus.FAILED
    jobs.finish(name, version, house_edge_percent=measured.house_edge_percent, rtp_percent=measured.rtp_percent,
                detail=measured.detail)
    return EvaluationStatus.DONE


def _hand_back(jobs: EvaluationsRepository, name: str, version: int) -> None:
    try:
        jobs.requeue(name, version)
    except psycopg.Error:
        # The database is away altogether: the row stays running until it goes stale, and the
        # retry, or a request made again, takes it over then.
        log.warning("the evaluation of %s left running: the database is unreachable", Ref(name, version))
