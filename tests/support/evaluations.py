"""A paytable version's evaluation run here and now: the worker's own code (run_evaluation) on the
job a submission queued, for tests that drive the API in-process with no Celery worker."""
from __future__ import annotations

from service.operators.evaluation_jobs import run_evaluation
from service.settlement.connection import connect
from service.store.repositories.evaluations import EvaluationStatus


def evaluate_now(database_url: str, name: str, version: int) -> EvaluationStatus | None:
    """Measure the version as a worker taking its message would; its status afterwards."""
    with connect(database_url, "pontoon-test-evaluation") as conn:
        return run_evaluation(conn, name, version)
