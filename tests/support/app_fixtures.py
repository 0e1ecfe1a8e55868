"""Fixtures of the app in-process over a folder's own scratch database: a conftest imports them
and defines `settings` (from its `database_url`), so each folder keeps its own database; `as_key`
and `admin` call the API in-process with a key."""
from __future__ import annotations

import psycopg
import pytest

from service.app import create_app
from service.store.repositories.audit import AuditRecord, AuditRepository, chain_for
from service.store.repositories.keys import KeysRepository
from tests.support.api_client import Api, flask_sender


def chained_key(conn: psycopg.Connection, role: str, table: str | None, name: str) -> str:
    """A new key's secret, its creation chained as `pontoon keys create` chains it: audit verify
    holds every key's role against its chained record."""
    key, secret = KeysRepository(conn).create(role=role, table_id=table, name=name, created_by="test")
    AuditRepository(conn).append(chain_for(None), [AuditRecord("key_created", {
        "key_id": str(key.key_id), "role": key.role, "table_id": key.table_id, "name": key.name}, actor="test")])
    return secret


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
            return chained_key(conn, role, table, f"test {role}")
    return make


@pytest.fixture
def as_key(client):
    """as_key(secret) -> an Api calling in-process with that key."""
    return lambda secret: Api(flask_sender(client), secret)


@pytest.fixture
def admin(as_key, make_key) -> Api:
    """The API as a new admin key calls it."""
    return as_key(make_key("admin"))
