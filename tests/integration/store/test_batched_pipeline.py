"""The batched pipeline: statements wait in the client until a result is read or the pipeline
ends, and results, errors and the commit are what psycopg's own pipeline gives."""
from __future__ import annotations

import secrets
import threading
import time

import psycopg
import pytest

from service.store.batched_pipeline import batched_pipeline
from tests.support.message_recorder import MessageRecorder

pytestmark = pytest.mark.integration


def _lock_is_held(observer: psycopg.Connection, key: int, patience: float) -> bool:
    """Whether some session holds advisory lock `key`, looking for up to `patience` seconds."""
    deadline = time.monotonic() + patience
    while True:
        held = observer.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 "
                                "AND objid = %s AND granted", (key,)).fetchone()[0]
        if held or time.monotonic() >= deadline:
            return bool(held)
        time.sleep(0.02)


@pytest.fixture
def connections(database_url):
    with psycopg.connect(database_url) as conn, psycopg.connect(database_url, autocommit=True) as observer:
        yield conn, observer


def test_a_statement_waits_in_the_client_until_a_result_is_read(connections):
    conn, observer = connections
    key = secrets.randbelow(2**31)
    with batched_pipeline(conn):
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (key,))
        assert not _lock_is_held(observer, key, patience=0.5)   # not sent yet
        assert conn.execute("SELECT 41 + 1").fetchone() == (42,)
        assert _lock_is_held(observer, key, patience=0)          # went with the read
    conn.rollback()
    assert not _lock_is_held(observer, key, patience=0)


def _first_statement_returns(url: str, recorder: MessageRecorder, pipeline) -> bool:
    """Whether a transaction's first statement, made in `pipeline` and not read, returns while no
    answer from the server reaches the client."""
    with psycopg.connect(url) as conn:
        returned = threading.Event()

        def first_statement() -> None:
            with pipeline(conn):
                conn.execute("SELECT 1")
                returned.set()
            conn.rollback()

        recorder.hold_answers()
        statement = threading.Thread(target=first_statement)
        statement.start()
        try:
            return returned.wait(timeout=3)
        finally:
            recorder.release_answers()
            statement.join()


def test_a_transactions_begin_goes_out_without_waiting_for_its_answer(database_url):
    recorder = MessageRecorder(database_url)
    assert _first_statement_returns(recorder.url, recorder, batched_pipeline)


def test_psycopgs_own_pipeline_waits_for_the_answer_to_begin(database_url):
    """The difference the batched pipeline makes, seen by the same probe (so the test above can fail)."""
    recorder = MessageRecorder(database_url)
    assert not _first_statement_returns(recorder.url, recorder, lambda conn: conn.pipeline())


def test_psycopgs_own_pipeline_sends_a_statement_at_once(connections):
    """The difference the batched pipeline makes, seen by the same probe (so the test above can fail)."""
    conn, observer = connections
    key = secrets.randbelow(2**31)
    with conn.pipeline():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (key,))
        assert _lock_is_held(observer, key, patience=5)
    conn.rollback()


def test_statements_left_unread_go_with_the_commit_at_the_end(connections, database_url):
    conn, observer = connections
    table = f"batched_{secrets.token_hex(4)}"
    observer.execute(f"CREATE TABLE {table} (n int PRIMARY KEY)")
    with batched_pipeline(conn):
        for n in range(3):
            conn.execute(f"INSERT INTO {table} (n) VALUES (%s)", (n,))
        first = conn.execute(f"SELECT count(*) FROM {table}")
        conn.execute(f"INSERT INTO {table} (n) VALUES (3)")
        conn.execute("COMMIT", prepare=False)
        assert first.fetchone() == (3,)
    assert observer.execute(f"SELECT array_agg(n ORDER BY n) FROM {table}").fetchone() == ([0, 1, 2, 3],)


def test_a_failed_statement_fails_the_pipeline_and_leaves_the_connection_usable(connections):
    conn, observer = connections
    table = f"batched_{secrets.token_hex(4)}"
    observer.execute(f"CREATE TABLE {table} (n int PRIMARY KEY)")
    with pytest.raises(psycopg.errors.UniqueViolation):
        with batched_pipeline(conn):
            conn.execute(f"INSERT INTO {table} (n) VALUES (1)")
            conn.execute(f"INSERT INTO {table} (n) VALUES (1)")
            conn.execute(f"INSERT INTO {table} (n) VALUES (2)")
            conn.execute("COMMIT", prepare=False)
    conn.rollback()
    assert observer.execute(f"SELECT count(*) FROM {table}").fetchone() == (0,)
    assert conn.execute("SELECT 1").fetchone() == (1,)


def test_a_failed_statement_is_raised_by_the_next_read(connections):
    conn, _ = connections
    with pytest.raises(psycopg.errors.DivisionByZero):
        with batched_pipeline(conn):
            conn.execute("SELECT 1 / 0")
            conn.execute("SELECT 1").fetchone()
    conn.rollback()


def test_pipelines_do_not_nest(connections):
    conn, _ = connections
    with batched_pipeline(conn):
        with pytest.raises(RuntimeError, match="in a pipeline already"):
            with batched_pipeline(conn):
                pass
    assert conn._pipeline is None


def test_the_end_of_a_pipeline_sends_its_sync_after_its_statements_and_no_flush_request(database_url):
    """The server sends every result at a sync, so a flush request after it (psycopg's own pipeline
    sends one) would only wake the server again."""
    recorder = MessageRecorder(database_url)
    with psycopg.connect(recorder.url) as conn:
        conn.execute("SELECT 1").fetchone()
        conn.rollback()
        mark = recorder.mark()
        with batched_pipeline(conn):
            assert conn.execute("SELECT 41 + 1").fetchone() == (42,)
            conn.execute("SELECT 2")
            conn.execute("COMMIT", prepare=False)
        sent = "".join(recorder.sent_since(mark))
    # A read: BEGIN, then the statement (parse, bind, describe, execute) and a flush request. The end:
    # the unread statement, COMMIT, and the sync, last.
    assert sent.endswith("S") and "H" not in sent.rsplit("E", 2)[-1], sent
    assert sent.count("H") == 1, sent


def test_psycopgs_own_pipeline_sends_a_flush_request_after_its_sync(database_url):
    """The difference, seen by the same recorder (so the test above can fail)."""
    recorder = MessageRecorder(database_url)
    with psycopg.connect(recorder.url) as conn:
        conn.execute("SELECT 1").fetchone()
        conn.rollback()
        mark = recorder.mark()
        with conn.pipeline():
            conn.execute("SELECT 41 + 1").fetchone()
            conn.execute("COMMIT", prepare=False)
        sent = "".join(recorder.sent_since(mark))
    assert sent.endswith("SH"), sent
