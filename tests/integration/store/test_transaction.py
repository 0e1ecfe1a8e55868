"""The unit of work's transaction on psycopg's own pipeline: BEGIN and COMMIT are statements of
the pipeline, BEGIN waits for no answer of its own, COMMIT goes with the last writes, and a failure
anywhere keeps every write out and leaves the connection usable."""
from __future__ import annotations

import secrets
import threading

import psycopg
import pytest

from service.store.transaction import Transaction
from tests.support.message_recorder import MessageRecorder

pytestmark = pytest.mark.integration


@pytest.fixture
def connections(database_url):
    with psycopg.connect(database_url, autocommit=True) as conn, \
            psycopg.connect(database_url, autocommit=True) as observer:
        yield conn, observer


@pytest.fixture
def table(connections):
    _, observer = connections
    name = f"tx_{secrets.token_hex(4)}"
    observer.execute(f"CREATE TABLE {name} (n int PRIMARY KEY)")
    yield name
    observer.execute(f"DROP TABLE {name}")


def test_a_transaction_needs_an_autocommit_connection(database_url):
    with psycopg.connect(database_url) as conn, pytest.raises(psycopg.ProgrammingError, match="autocommit"):
        Transaction(conn)


def test_the_first_statement_returns_before_any_answer_reaches_the_client(database_url):
    """BEGIN waits for nothing: psycopg's own transactions (autocommit off) wait for their BEGIN's
    answer in pipeline mode, before the first statement returns."""
    recorder = MessageRecorder(database_url)
    with psycopg.connect(recorder.url, autocommit=True) as conn:
        tx = Transaction(conn)
        returned = threading.Event()

        def first_statement() -> None:
            with conn.pipeline():
                tx.execute("SELECT 1")
                returned.set()
            tx.rollback()

        recorder.hold_answers()
        statement = threading.Thread(target=first_statement)
        statement.start()
        try:
            assert returned.wait(timeout=3)
        finally:
            recorder.release_answers()
            statement.join()


def test_statements_left_unread_go_with_the_commit_at_the_end(connections, table):
    conn, observer = connections
    tx = Transaction(conn)
    with conn.pipeline():
        for n in range(3):
            tx.execute(f"INSERT INTO {table} (n) VALUES (%s)", (n,))
        assert tx.execute(f"SELECT count(*) FROM {table}").fetchone() == (3,)
        tx.execute(f"INSERT INTO {table} (n) VALUES (3)")
        tx.commit()
    assert observer.execute(f"SELECT array_agg(n ORDER BY n) FROM {table}").fetchone() == ([0, 1, 2, 3],)


def test_a_read_waits_once_for_the_begin_and_every_statement_before_it(database_url):
    recorder = MessageRecorder(database_url)
    with psycopg.connect(recorder.url, autocommit=True) as conn:
        tx = Transaction(conn)
        mark = recorder.mark()
        with conn.pipeline():
            tx.execute("SELECT 1")
            assert tx.execute("SELECT 41 + 1").fetchone() == (42,)
            tx.execute("SELECT 2")
            tx.commit()
        sent = "".join(recorder.sent_since(mark))
    # One flush request for the read; the end: the sync (and psycopg's flush request after it).
    assert sent.count("H") + sent.count("S") == 3 and sent.count("S") == 1, sent


def test_a_failed_statement_keeps_every_write_out_and_rollback_recovers(connections, table):
    conn, observer = connections
    tx = Transaction(conn)
    with pytest.raises(psycopg.errors.UniqueViolation):
        with conn.pipeline():
            tx.execute(f"INSERT INTO {table} (n) VALUES (1)")
            tx.execute(f"INSERT INTO {table} (n) VALUES (1)")
            tx.execute(f"INSERT INTO {table} (n) VALUES (2)")
            tx.commit()
    assert conn.info.transaction_status == psycopg.pq.TransactionStatus.INERROR   # an explicit BEGIN's
    tx.rollback()
    assert observer.execute(f"SELECT count(*) FROM {table}").fetchone() == (0,)
    assert tx.execute("SELECT 1").fetchone() == (1,)
    tx.rollback()


def test_a_commit_in_the_middle_opens_the_next_transaction_with_the_next_statement(connections, table):
    conn, observer = connections
    tx = Transaction(conn)
    with conn.pipeline():
        tx.execute(f"INSERT INTO {table} (n) VALUES (1)")
        tx.commit()
        tx.execute(f"INSERT INTO {table} (n) VALUES (2)")
    assert conn.info.transaction_status == psycopg.pq.TransactionStatus.INTRANS
    tx.rollback()
    assert observer.execute(f"SELECT array_agg(n) FROM {table}").fetchone() == ([1],)


def test_a_failed_statement_is_raised_by_the_next_read(connections):
    conn, _ = connections
    tx = Transaction(conn)
    with pytest.raises(psycopg.errors.DivisionByZero):
        with conn.pipeline():
            tx.execute("SELECT 1 / 0")
            tx.execute("SELECT 1").fetchone()
    tx.rollback()
    assert conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
