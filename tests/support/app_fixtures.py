"""Fixtures of the app in-process over a folder's own scratch database: a conftest imports them
and defines `settings` (from its `database_url`), so each folder keeps its own database; `as_key`
and `admin` call the API in-process with a key; `app_with` builds an app whose units of work hold
the collaborators a test gives them."""
from __future__ import annotations

import secrets as tokens
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest
from flask import Flask

from service.app import create_app
from service.roles import PERSONAL_KEY_ROLES
from service.store.repositories.audit import AuditRecord, AuditRepository, chain_for
from service.store.repositories.keys import KeysRepository
from service.store.repositories.staff import StaffRepository
from service.store.uow import ShuffleSource, UnitOfWork
from tests.support.api_client import Api, flask_sender, owner_password
from tests.support.passwords import cheapest_hashing


def chained_person(conn: psycopg.Connection, role: str, password: str, username: str | None = None) -> uuid.UUID:
    """A new staff account of `role` with `password` as its own (as if its person had set it at
    their first sign-in), its creation chained as the service chains it."""
    row = StaffRepository(conn).add(username=username or f"{role[:4]}-{tokens.token_hex(4)}",
                                    display_name=f"test {role}", role=role,
                                    password_hash=cheapest_hashing().hash(password),
                                    created_by="test")
    assert row is not None
    AuditRepository(conn).append(chain_for(None), [AuditRecord("staff_created", {
        "user_id": str(row.user_id), "username": row.username, "display_name": row.display_name,
        "role": row.role}, actor="test")])
    return row.user_id


def chained_key(conn: psycopg.Connection, role: str, table: str | None, name: str,
                owner_id: uuid.UUID | None = None) -> str:
    """A new key's secret, its creation chained as `pontoon keys create` chains it: audit verify
    holds every key's role and owner against its chained record. A key of a role that acts for a
    person belongs to one: `owner_id`'s, else a new account's whose password is the key's
    owner_password."""
    return chained_key_with_id(conn, role, table, name, owner_id)[1]


def chained_key_with_id(conn: psycopg.Connection, role: str, table: str | None, name: str,
                        owner_id: uuid.UUID | None = None) -> tuple[str, str]:
    """chained_key's key: (its id, its secret)."""
    secret = KeysRepository.new_secret()
    if owner_id is None and role in PERSONAL_KEY_ROLES:
        owner_id = chained_person(conn, role, owner_password(secret))
    key, secret = KeysRepository(conn).create(role=role, table_id=table, name=name, created_by="test",
                                              owner_id=owner_id, secret=secret)
    AuditRepository(conn).append(chain_for(None), [AuditRecord("key_created", {
        "key_id": str(key.key_id), "role": key.role, "table_id": key.table_id, "name": key.name,
        "owner_id": str(owner_id) if owner_id else None}, actor="test")])
    return str(key.key_id), secret


@pytest.fixture(scope="session")
def app(settings):
    app = create_app(settings, password_hashing=cheapest_hashing())
    app.config["TESTING"] = True
    yield app
    app.extensions["pontoon.pool"].close()


@pytest.fixture
def app_with(settings):
    """app_with(testing=True, shuffle_source=None, **repositories) -> an app over the same database
    whose requests' units of work shuffle their virtual shoes from `shuffle_source` and hold
    `repositories` (name -> class over the connection) in place of their own."""
    apps = []

    def make(*, testing: bool = True, shuffle_source: ShuffleSource | None = None, **repositories) -> Flask:
        @contextmanager
        def open_unit_of_work(pool) -> Iterator[UnitOfWork]:
            with pool.connection() as conn:
                uow = UnitOfWork(conn, shuffle_source=shuffle_source)
                for name, repository in repositories.items():
                    setattr(uow, name, repository(conn))
                yield uow

        app = create_app(settings, open_unit_of_work=open_unit_of_work, password_hashing=cheapest_hashing())
        app.config["TESTING"] = testing   # testing: an error the app does not answer reaches the test
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.extensions["pontoon.pool"].close()


def through(app: Flask, api: Api) -> Api:
    """The same key, calling `app`."""
    return Api(flask_sender(app.test_client()), api.secret)


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
