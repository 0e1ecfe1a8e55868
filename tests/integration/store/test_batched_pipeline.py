"""The batched pipeline: statements wait in the client until a result is read or the pipeline
ends, and results, errors and the commit are what psycopg's own pipeline gives."""
from __future__ import annotations

import secrets
import socket
import struct
import threading
import time

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from service.store.batched_pipeline import batched_pipeline

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


class MessageRecorder:
    """A TCP relay between one client and PostgreSQL that keeps the type of every message the
    client sends once its session has started (the protocol's first byte of each message)."""

    def __init__(self, database_url: str) -> None:
        params = conninfo_to_dict(database_url)
        self._server = (params.get("host") or "127.0.0.1", int(params.get("port") or 5432))
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.url = make_conninfo(database_url, host="127.0.0.1", port=self._listener.getsockname()[1],
                                 sslmode="disable", gssencmode="disable")
        self.types: list[str] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._serve, daemon=True).start()

    def sent_since(self, mark: int) -> list[str]:
        with self._lock:
            return self.types[mark:]

    def mark(self) -> int:
        with self._lock:
            return len(self.types)

    def _serve(self) -> None:
        client, _ = self._listener.accept()
        server = socket.create_connection(self._server)
        threading.Thread(target=self._relay, args=(server, client, None), daemon=True).start()
        self._relay(client, server, bytearray())

    def _relay(self, source: socket.socket, sink: socket.socket, record: bytearray | None) -> None:
        started = False   # the startup message has a length and no type byte
        while chunk := source.recv(65536):
            sink.sendall(chunk)
            if record is None:
                continue
            record += chunk
            while len(record) >= 5:
                at = 0 if not started else 1
                length = struct.unpack("!i", record[at:at + 4])[0]
                if len(record) < at + length:
                    break
                if started:
                    with self._lock:
                        self.types.append(chr(record[0]))
                started = True
                del record[:at + length]
        sink.close()


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
