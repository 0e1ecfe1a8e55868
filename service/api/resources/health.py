"""/healthz (the process answers) and /readyz (the database and the broker answer)."""
from __future__ import annotations

import os

from flask import Blueprint, current_app
from kombu import Connection

BROKER_TIMEOUT = 0.5
DATABASE_TIMEOUT = 2.0


def blueprint() -> Blueprint:
    health = Blueprint("health", __name__)

    @health.get("/healthz")
    def healthz():
        return {"status": "ok", "pid": os.getpid()}

    @health.get("/readyz")
    def readyz():
        checks = {"database": _database(), "broker": _broker(current_app.extensions["pontoon.settings"].broker_url)}
        ready = all(state == "ok" for state in checks.values())
        return {"status": "ready" if ready else "unavailable", "checks": checks}, 200 if ready else 503

    return health


def _database() -> str:
    pool = current_app.extensions.get("pontoon.pool")
    if pool is None:
        return "unavailable"
    try:
        with pool.connection(timeout=DATABASE_TIMEOUT) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:  # readiness reports any failure; it moves no money
        current_app.logger.warning("readyz: database: %s", type(exc).__name__)
        return "unavailable"
    return "ok"


def _broker(broker_url: str) -> str:
    """Whatever broker the URL names (Redis, RabbitMQ, ...), connected to as Celery would."""
    try:
        with Connection(broker_url, connect_timeout=BROKER_TIMEOUT,
                        transport_options={"socket_timeout": BROKER_TIMEOUT,
                                           "socket_connect_timeout": BROKER_TIMEOUT}) as broker:
            broker.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=BROKER_TIMEOUT)
    except Exception as exc:  # readiness reports any failure; it moves no money
        current_app.logger.warning("readyz: broker: %s", type(exc).__name__)
        return "unavailable"
    return "ok"
