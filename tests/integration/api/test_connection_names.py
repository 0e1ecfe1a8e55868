"""Every process names its connections, so pg_stat_activity says which part of the service holds
a lock or runs a statement; a name given in the database URL is kept."""
from __future__ import annotations

from psycopg.conninfo import make_conninfo

from service.settlement.connection import connect
from service.store.pool import open_pool


def _name(conn) -> str:
    return conn.execute("SHOW application_name").fetchone()[0]


def test_the_api_pool_names_its_connections(app):
    with app.extensions["pontoon.pool"].connection() as conn:
        assert _name(conn) == "pontoon-api"


def test_settlement_and_the_relay_name_theirs(database_url, db):
    with connect(database_url) as settler, connect(database_url, "pontoon-relay") as relay:
        assert _name(settler) == "pontoon-settlement"
        assert _name(relay) == "pontoon-relay"
        names = {row[0] for row in db.execute(
            "SELECT application_name FROM pg_stat_activity WHERE pid IN (%s, %s)",
            (settler.info.backend_pid, relay.info.backend_pid))}
        assert names == {"pontoon-settlement", "pontoon-relay"}


def test_a_name_set_in_the_url_is_kept(database_url):
    url = make_conninfo(database_url, application_name="api-replica-2")
    with connect(url) as settler:
        assert _name(settler) == "api-replica-2"
    pool = open_pool(url, min_size=1, max_size=1)
    try:
        with pool.connection() as conn:
            assert _name(conn) == "api-replica-2"
    finally:
        pool.close()
