"""The API's connection pool against PostgreSQL: the check each connection passes as it is handed
out leaves nothing behind on the server, however many requests the connection serves."""
from __future__ import annotations

import pytest

from service.store.pool import open_pool

pytestmark = pytest.mark.integration


def _prepared_statements(conn) -> int:
    return conn.execute("SELECT count(*) FROM pg_prepared_statements").fetchone()[0]


def test_handing_a_connection_out_again_and_again_prepares_nothing_more(database_url):
    pool = open_pool(database_url, min_size=1, max_size=1)
    try:
        pool.wait()
        with pool.connection() as conn:
            backend = conn.info.backend_pid
            before = _prepared_statements(conn)
        for _ in range(50):
            with pool.connection() as conn:   # each hand-out checks the connection
                assert conn.info.backend_pid == backend
        with pool.connection() as conn:
            assert conn.info.backend_pid == backend
            assert _prepared_statements(conn) == before
    finally:
        pool.close()
