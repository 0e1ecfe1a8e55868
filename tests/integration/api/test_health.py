"""/healthz answers while the process lives; /readyz only when the database and broker answer."""
from __future__ import annotations

import os

from service.app import create_app
from service.config import Settings


def test_healthz_and_readyz(client):
    assert client.get("/healthz").status_code == 200
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.get_json()["checks"] == {"database": "ok", "broker": "ok"}
    assert ready.headers["X-Served-By"] == str(os.getpid())


def test_readyz_fails_when_the_broker_is_gone(database_url):
    settings = Settings.from_env({**os.environ, "DATABASE_URL": database_url, "BROKER_URL": "redis://127.0.0.1:1/0"})
    app = create_app(settings)
    try:
        ready = app.test_client().get("/readyz")
        assert ready.status_code == 503 and ready.get_json()["checks"]["broker"] == "unavailable"
        assert app.test_client().get("/healthz").status_code == 200
    finally:
        app.extensions["pontoon.pool"].close()


def test_readyz_checks_a_broker_of_another_kind_too(database_url):
    """An AMQP broker (RabbitMQ) is connected to as Celery would; none listens on this port."""
    settings = Settings.from_env({**os.environ, "DATABASE_URL": database_url,
                                  "BROKER_URL": "amqp://guest:guest@127.0.0.1:1//"})
    app = create_app(settings)
    try:
        ready = app.test_client().get("/readyz")
        assert ready.status_code == 503 and ready.get_json()["checks"] == {"database": "ok", "broker": "unavailable"}
    finally:
        app.extensions["pontoon.pool"].close()


def test_readyz_fails_when_the_database_is_gone():
    settings = Settings.from_env({**os.environ, "DATABASE_URL": "postgresql://postgres@127.0.0.1:1/none"})
    app = create_app(settings)
    try:
        ready = app.test_client().get("/readyz")
        assert ready.status_code == 503 and ready.get_json()["checks"]["database"] == "unavailable"
    finally:
        app.extensions["pontoon.pool"].close()
