"""The outbox relay in-process: publishes batches per table, and verifications one by one, marks rows,
keeps them when the broker is away."""
from __future__ import annotations

import signal
import threading
import uuid
from datetime import UTC, datetime, timedelta

import psycopg
import pytest
from psycopg.types.json import Jsonb

from bench.processes import wait_for
from service.audit.jobs import request_daily_verification, run_verification
from service.config import Settings
from service.settlement.connection import connect
from service.settlement.relay import MAX_BACKOFF, BrokerUnavailable, relay_outbox, relay_verifications, run_relay
from service.store.repositories.verifications import VerificationStatus
from service.store.uow import UnitOfWork
from service.worker.celery_app import PUBLISH_ERRORS, celery_publisher, make_celery

pytestmark = pytest.mark.integration


def unpublished(admin) -> int:
    return admin.execute("SELECT count(*) FROM outbox WHERE published_at IS NULL").fetchone()[0]


def test_relay_batches_rounds_by_table_and_marks_them(admin, app_conn, casino):
    rounds = casino.play(9, ["T1", "T2", "T3"])
    casino.write(admin)
    sent: list[list[str]] = []
    done = relay_outbox(app_conn, sent.append, batch_size=2)
    assert done.published_rows == 9 and done.messages == len(sent) == 6   # 3 tables x ceil(3 / 2)
    table_of = {r.round_id: r.table_id for r in rounds}
    assert all(len({table_of[i] for i in batch}) == 1 for batch in sent)
    assert sorted(i for batch in sent for i in batch) == sorted(table_of)
    assert unpublished(admin) == 0
    assert relay_outbox(app_conn, sent.append).published_rows == 0


def test_a_failed_publish_keeps_the_rest_for_the_next_pass(admin, app_conn, casino):
    casino.play(6, ["T1", "T2"])
    casino.write(admin)
    calls = []

    def flaky(batch):
        calls.append(batch)
        if len(calls) == 2:
            raise ConnectionError("broker went away")

    with pytest.raises(BrokerUnavailable):
        relay_outbox(app_conn, flaky, publish_errors=(ConnectionError,))
    assert unpublished(admin) == 3  # the first table's batch went out, the second did not
    assert admin.execute("SELECT min(attempts), max(attempts) FROM outbox").fetchone() == (1, 1)
    again: list[list[str]] = []
    assert relay_outbox(app_conn, again.append).published_rows == 3
    assert unpublished(admin) == 0


def test_publishing_to_a_stopped_broker_raises_and_keeps_the_outbox(admin, app_conn, casino, redis):
    casino.play(3, ["T1"])
    casino.write(admin)
    app = make_celery(Settings.from_env({"BROKER_URL": redis.url, "DATABASE_URL": "postgresql://unused"}))
    redis.stop()
    with pytest.raises(BrokerUnavailable):
        relay_outbox(app_conn, celery_publisher(app), publish_errors=PUBLISH_ERRORS)
    assert unpublished(admin) == 3
    redis.start()
    assert relay_outbox(app_conn, celery_publisher(app), publish_errors=PUBLISH_ERRORS).published_rows == 3
    assert unpublished(admin) == 0


def test_a_broker_that_stops_answering_is_unavailable_not_a_wait_without_end(admin, app_conn, casino, redis):
    casino.play(3, ["T1"])
    casino.write(admin)
    app = make_celery(Settings.from_env({"BROKER_URL": redis.url, "DATABASE_URL": "postgresql://unused"}))
    redis.process.send_signal(signal.SIGSTOP)   # alive, connected, silent
    outcome: list[BaseException | None] = []

    def publish_once() -> None:
        try:
            relay_outbox(app_conn, celery_publisher(app), publish_errors=PUBLISH_ERRORS)
            outcome.append(None)
        except BaseException as exc:
            outcome.append(exc)

    try:
        relay = threading.Thread(target=publish_once, daemon=True)
        relay.start()
        relay.join(timeout=120)   # a bound for the test alone: without a socket timeout it never returns
        assert outcome and isinstance(outcome[0], BrokerUnavailable), outcome
    finally:
        redis.process.send_signal(signal.SIGCONT)
    assert unpublished(admin) == 3


def test_the_relay_outlives_its_database_connection_and_publishes_on_a_new_one(admin, db_url, casino):
    """A database restart (here: its backend terminated) ends one pass, not the relay: rounds that
    complete afterwards are still published."""
    opened: list[psycopg.Connection] = []
    attempts: list[int] = []
    sent: list[str] = []
    stop = threading.Event()

    def reconnecting():
        attempts.append(len(attempts))
        if len(attempts) == 2:
            raise psycopg.OperationalError("the server is starting up")   # the first reconnect fails too
        conn = connect(db_url, "pontoon-relay")
        opened.append(conn)
        return conn

    relay = threading.Thread(target=run_relay, args=(reconnecting, sent.extend),
                             kwargs={"interval": 0.05, "should_stop": stop.is_set}, daemon=True)
    relay.start()
    try:
        wait_for(lambda: opened, 10, "the relay to connect")
        admin.execute("SELECT pg_terminate_backend(%s)", (opened[0].info.backend_pid,))
        rounds = casino.play(3, ["T1"])
        casino.write(admin)
        # A pass publishes its rounds, then marks them in the transaction that claimed them.
        wait_for(lambda: (len(sent) >= 3 and not unpublished(admin)) or not relay.is_alive(), 10,
                 "the rounds completed after the restart to be published and marked")
        assert relay.is_alive()
        assert sorted(sent) == sorted(r.round_id for r in rounds)
        assert len(attempts) == 3 and len(opened) == 2 and opened[0].broken
        assert unpublished(admin) == 0
    finally:
        stop.set()
        relay.join(timeout=10)
        for conn in opened:
            conn.close()


def test_the_relay_keeps_house_and_backs_off_by_its_own_clock(db_url, casino, admin):
    """The housekeeping jobs run every `every` seconds of the relay's clock; each pass the broker
    refuses doubles the wait before the next, to at most MAX_BACKOFF, and the first it takes
    brings the wait back to `interval`."""
    rounds = casino.play(3, ["T1"])
    casino.write(admin)
    now = [0.0]
    waits: list[float] = []
    kept: list[float] = []
    sent: list[str] = []
    opened: list[psycopg.Connection] = []

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        now[0] += seconds

    def publish(batch: list[str]) -> None:
        if now[0] < 2.0:
            raise ConnectionError("the broker is away")
        sent.extend(batch)

    def connecting() -> psycopg.Connection:
        opened.append(connect(db_url, "pontoon-relay"))
        return opened[-1]

    try:
        run_relay(connecting, publish, interval=0.25, housekeeping=[lambda conn: kept.append(now[0])], every=1.0,
                  publish_errors=(ConnectionError,), should_stop=lambda: now[0] >= 4.0,
                  clock=lambda: now[0], sleep=sleep)
    finally:
        for conn in opened:
            conn.close()
    assert MAX_BACKOFF == 1.0
    # Refused at 0, 0.5 and 1.5; published at 2.5, then nothing waits.
    assert waits == [0.5, 1.0, 1.0] + [0.25] * 6
    assert sorted(sent) == sorted(r.round_id for r in rounds) and unpublished(admin) == 0
    assert kept == [1.5, 2.5, 3.5]
    assert len(opened) == 1


def ask_for_verifications(admin, how_many: int) -> list[str]:
    """Outbox rows sending verifications, as asking in the console writes them (each its own)."""
    ids = [str(uuid.uuid4()) for _ in range(how_many)]
    for verification_id in ids:
        admin.execute("INSERT INTO outbox (topic, payload) VALUES ('verify_audit', %s)",
                      (Jsonb({"verification_id": verification_id}),))
    return ids


def test_verifications_go_out_one_message_each_and_rounds_stay_for_their_own_pass(admin, app_conn, casino):
    casino.play(3, ["T1"])
    casino.write(admin)
    asked = ask_for_verifications(admin, 2)
    sent: list[str] = []
    assert relay_verifications(app_conn, sent.append) == 2
    assert sent == asked
    assert unpublished(admin) == 3, "the rounds are relay_outbox's"
    assert relay_verifications(app_conn, sent.append) == 0 and sent == asked
    rounds: list[list[str]] = []
    assert relay_outbox(app_conn, rounds.append).published_rows == 3
    assert unpublished(admin) == 0


def test_a_verification_the_broker_refused_is_sent_on_the_next_pass(admin, app_conn):
    asked = ask_for_verifications(admin, 2)
    sent: list[str] = []

    def flaky(verification_id: str) -> None:
        if sent:
            raise ConnectionError("broker went away")
        sent.append(verification_id)

    with pytest.raises(BrokerUnavailable):
        relay_verifications(app_conn, flaky, (ConnectionError,))
    assert sent == asked[:1] and unpublished(admin) == 1
    again: list[str] = []
    assert relay_verifications(app_conn, again.append) == 1 and again == asked[1:]


def test_the_days_verification_is_asked_for_once_and_not_beside_one_under_way(app_conn, admin):
    def ask(day_began: datetime):
        uow = UnitOfWork(app_conn)
        with uow.transaction():
            return request_daily_verification(uow, day_began)

    today = datetime.now(UTC) - timedelta(hours=1)
    first = ask(today)
    assert first is not None and first.verification.requested_by == "system"
    assert ask(today) is None, "asked for already today"
    # The next gaming day begins after the first request, while its verification is still queued.
    tomorrow = first.verification.requested_at + timedelta(microseconds=1)
    assert ask(tomorrow) is None, "yesterday's is still under way"
    assert run_verification(app_conn, first.verification.verification_id) == VerificationStatus.INTACT
    second = ask(tomorrow)
    assert second is not None and second.verification.verification_id != first.verification.verification_id
