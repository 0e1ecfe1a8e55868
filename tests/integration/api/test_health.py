"""/healthz answers while the process lives and touches nothing; /readyz fails only when the database
does not answer, and reports a broker outage as degraded."""
from __future__ import annotations

import os

from prometheus_client.parser import text_string_to_metric_families

from service.app import create_app
from service.config import Settings


def test_healthz_and_readyz(client):
    live = client.get("/healthz")
    assert live.status_code == 200 and live.get_json() == {"status": "ok"}
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.get_json() == {"status": "ready", "checks": {"database": "ok", "broker": "ok"}}
    # The answering process is named, the same on each answer, but never by its process id.
    served_by = live.headers["X-Served-By"]
    assert ready.headers["X-Served-By"] == served_by == client.get("/healthz").headers["X-Served-By"]
    assert str(os.getpid()) not in served_by.split("-") and not served_by.isdigit(), served_by
    assert str(os.getpid()) not in live.get_data(as_text=True) + ready.get_data(as_text=True)


def test_each_app_names_its_process_apart(settings):
    """Two apps (two workers) answer under different names, each made as its app is made."""
    apps = [create_app(settings) for _ in range(2)]
    try:
        names = [app.test_client().get("/healthz").headers["X-Served-By"] for app in apps]
        assert names[0] != names[1], names
    finally:
        for app in apps:
            app.extensions["pontoon.pool"].close()


def test_a_broker_outage_leaves_the_replica_ready_but_degraded(database_url):
    """Rounds are dealt without the broker (the outbox keeps what settlement waits for): a load
    balancer must keep routing to this replica."""
    settings = Settings.from_env({**os.environ, "DATABASE_URL": database_url, "BROKER_URL": "redis://127.0.0.1:1/0"})
    app = create_app(settings)
    try:
        ready = app.test_client().get("/readyz")
        assert ready.status_code == 200
        assert ready.get_json() == {"status": "degraded", "checks": {"database": "ok", "broker": "unavailable"}}
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
        assert ready.status_code == 200 and ready.get_json()["checks"] == {"database": "ok", "broker": "unavailable"}
    finally:
        app.extensions["pontoon.pool"].close()


def test_readyz_fails_when_the_database_is_gone():
    settings = Settings.from_env({**os.environ, "DATABASE_URL": "postgresql://postgres@127.0.0.1:1/none"})
    app = create_app(settings)
    try:
        ready = app.test_client().get("/readyz")
        assert ready.status_code == 503
        assert ready.get_json()["status"] == "unavailable" and ready.get_json()["checks"]["database"] == "unavailable"
        assert app.test_client().get("/healthz").status_code == 200
    finally:
        app.extensions["pontoon.pool"].close()


def test_metrics_name_no_process(client):
    client.get("/healthz")
    metrics = client.get("/metrics").get_data(as_text=True)
    # The pid is looked for among the labels only: its digits may well turn up inside a sample's value.
    labels = [
        (name, value)
        for family in text_string_to_metric_families(metrics)
        for sample in family.samples
        for name, value in sample.labels.items()
    ]
    assert labels, "the scrape carries labelled samples"
    assert all(name != "pid" and value != str(os.getpid()) for name, value in labels)
