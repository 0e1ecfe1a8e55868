"""Fixtures for the compliance tests: a scratch database for the session, the app in-process,
keys of every role, tables with their terminals, and a settler."""
from __future__ import annotations

import contextlib
import os
import secrets
import uuid
from collections.abc import Iterator

import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import make_conninfo

from service.api.app import create_app
from service.config import Settings
from service.settlement.connection import connect
from service.settlement.settle import settle_rounds
from service.store.migrate import migrate
from service.store.repositories.keys import KeysRepository

from .client import Api, flask_sender, ok

pytestmark = pytest.mark.integration

BASE_URL = os.environ.get("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/pontoon")


@contextlib.contextmanager
def scratch_database(prefix: str = "pontoon_cmp") -> Iterator[str]:
    """A uniquely named database, migrated, dropped at the end."""
    name = f"{prefix}_{secrets.token_hex(4)}"
    url = make_conninfo(BASE_URL, dbname=name)
    migrate(url)
    try:
        yield url
    finally:
        with psycopg.connect(make_conninfo(BASE_URL, dbname="postgres"), autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@pytest.fixture(scope="session")
def database_url():
    with scratch_database() as url:
        yield url


@pytest.fixture(scope="session")
def settings(database_url) -> Settings:
    return Settings.from_env({**os.environ, "DATABASE_URL": database_url, "GAMING_DAY_STARTS": "06:00",
                              "PONTOON_TZ": "Australia/Sydney"})


@pytest.fixture(scope="session")
def app(settings):
    app = create_app(settings)
    app.config["TESTING"] = True
    yield app
    app.extensions["pontoon.pool"].close()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def db(database_url):
    """The database as its owner sees it: to look, and to set things up."""
    with psycopg.connect(database_url, autocommit=True) as conn:
        yield conn


@pytest.fixture
def make_key(database_url):
    """make_key(role, table=None) -> the new key's secret."""
    def make(role: str, table: str | None = None) -> str:
        with psycopg.connect(database_url) as conn:
            _, secret = KeysRepository(conn).create(role=role, table_id=table, name=f"test {role}", created_by="test")
        return secret
    return make


@pytest.fixture
def as_key(client):
    return lambda secret: Api(flask_sender(client), secret)


@pytest.fixture
def admin(as_key, make_key) -> Api:
    return as_key(make_key("admin"))


@pytest.fixture
def operator(as_key, make_key) -> Api:
    return as_key(make_key("operator"))


@pytest.fixture
def second_operator(as_key, make_key) -> Api:
    return as_key(make_key("operator"))


@pytest.fixture
def supervisor(as_key, make_key) -> Api:
    return as_key(make_key("supervisor"))


@pytest.fixture
def compliance(as_key, make_key) -> Api:
    return as_key(make_key("compliance"))


@pytest.fixture
def new_table(admin, as_key, make_key):
    """new_table(shoe=None, prefix="C") -> (table_id, terminal Api bound to it)."""
    def make(shoe: str | None = None, prefix: str = "C") -> tuple[str, Api]:
        table_id = f"{prefix}-{uuid.uuid4().hex[:10]}"
        ok(admin.post("/v1/tables", {"table_id": table_id, "rules": "canberra", "paytable": "canberra-standard"}), 201)
        terminal = as_key(make_key("terminal", table_id))
        if shoe:
            ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": shoe}), 201)
        return table_id, terminal
    return make


@pytest.fixture
def settle(database_url):
    """settle(round_ids): run the settlement worker's code on them now."""
    def run(round_ids) -> None:
        with connect(database_url) as conn:
            outcome = settle_rounds(conn, list(round_ids))
        assert not outcome.refused, outcome.refused
    return run
