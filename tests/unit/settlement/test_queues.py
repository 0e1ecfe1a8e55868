"""The settlement queue is named after the database a stack serves: one per database, readable, secret-free."""
from __future__ import annotations

from service.config import Settings
from service.settlement.queues import database_identity, settlement_queue
from service.worker.celery_app import make_celery, queue_for


def test_two_databases_on_one_server_get_two_queues():
    first = settlement_queue("postgresql://postgres@127.0.0.1:5432/pontoon")
    second = settlement_queue("postgresql://postgres@127.0.0.1:5432/pontoon_demo")
    assert first != second
    assert first.startswith("pontoon.settle.pontoon.") and second.startswith("pontoon.settle.pontoon_demo.")


def test_the_same_database_named_on_another_server_or_port_gets_another_queue():
    here = settlement_queue("postgresql://postgres@127.0.0.1:5432/pontoon")
    assert settlement_queue("postgresql://postgres@10.0.0.7:5432/pontoon") != here
    assert settlement_queue("postgresql://postgres@127.0.0.1:5433/pontoon") != here


def test_a_url_and_a_conninfo_string_for_one_database_meet_on_one_queue_whoever_connects():
    # The relay and the worker may log in as different roles; the queue follows the database.
    url = settlement_queue("postgresql://relay:s3cret@127.0.0.1:5432/pontoon")
    conninfo = settlement_queue("host=127.0.0.1 port=5432 dbname=pontoon user=worker password=other")
    assert url == conninfo
    assert settlement_queue("postgresql://postgres@127.0.0.1/pontoon") == url   # 5432 is the default port


def test_no_password_reaches_the_queue_name():
    queue = settlement_queue("postgresql://pontoon:hunter2-very-secret@db.example:5432/floor")
    assert "hunter2" not in queue and "pontoon:" not in queue
    assert database_identity("postgresql://pontoon:hunter2@db.example:6543/floor") == "db.example:6543/floor"


def test_a_configured_queue_overrides_the_derived_one():
    derived = Settings.from_env({"DATABASE_URL": "postgresql://postgres@127.0.0.1:5432/pontoon"})
    configured = Settings.from_env({"DATABASE_URL": "postgresql://postgres@127.0.0.1:5432/pontoon",
                                    "PONTOON_SETTLEMENT_QUEUE": "floor-2"})
    assert queue_for(derived) == settlement_queue(derived.database_url)
    assert queue_for(configured) == "floor-2"


def test_the_app_publishes_to_and_consumes_from_its_database_queue():
    settings = Settings.from_env({"DATABASE_URL": "postgresql://postgres@127.0.0.1:5432/pontoon_x",
                                  "BROKER_URL": "redis://127.0.0.1:1/0"})
    app = make_celery(settings)
    queue = settlement_queue(settings.database_url)
    assert app.conf.task_default_queue == queue
    assert [q.name for q in app.amqp.queues.consume_from.values()] == [queue]
