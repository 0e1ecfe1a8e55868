"""/healthz (the process answers; it touches nothing) and /readyz (this replica can serve the floor:
the database answers; a broker outage, which the outbox absorbs, is reported as degraded)."""
from __future__ import annotations

from enum import StrEnum

from flask import Blueprint, current_app
from kombu import Connection

from ...store.pool import CHECKOUT_TIMEOUT

BROKER_TIMEOUT = 0.5


class Check(StrEnum):
    OK = "ok"
    UNAVAILABLE = "unavailable"


class Readiness(StrEnum):
    READY = "ready"            # the database and the broker answer
    DEGRADED = "degraded"      # the database answers; the broker does not: rounds are dealt, settlement waits
    UNAVAILABLE = "unavailable"   # the database does not answer: nothing at a table can be done here


def blueprint() -> Blueprint:
    health = Blueprint("health", __name__)

    @health.get("/healthz")
    def healthz():
        return {"status": "ok"}

    @health.get("/readyz")
    def readyz():
        checks = {"database": _database(), "broker": _broker(current_app.extensions["pontoon.settings"].broker_url)}
        if checks["database"] is not Check.OK:
            return {"status": Readiness.UNAVAILABLE, "checks": checks}, 503
        status = Readiness.READY if checks["broker"] is Check.OK else Readiness.DEGRADED
        return {"status": status, "checks": checks}, 200

    return health


def _database() -> Check:
    """Whether a connection can be had and answers, within the time a request waits for one."""
    pool = current_app.extensions.get("pontoon.pool")
    if pool is None:
        return Check.UNAVAILABLE
    try:
        with pool.connection(timeout=CHECKOUT_TIMEOUT) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:  # readiness reports any failure; it moves no money
        current_app.logger.warning("readyz: database: %s", type(exc).__name__)
        return Check.UNAVAILABLE
    return Check.OK


def _broker(broker_url: str) -> Check:
    """Whatever broker the URL names (Redis, RabbitMQ, ...), connected to as Celery would."""
    try:
        with Connection(broker_url, connect_timeout=BROKER_TIMEOUT,
                        transport_options={"socket_timeout": BROKER_TIMEOUT,
                                           "socket_connect_timeout": BROKER_TIMEOUT}) as broker:
            broker.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=BROKER_TIMEOUT)
    except Exception as exc:  # readiness reports any failure; it moves no money
        current_app.logger.warning("readyz: broker: %s", type(exc).__name__)
        return Check.UNAVAILABLE
    return Check.OK
