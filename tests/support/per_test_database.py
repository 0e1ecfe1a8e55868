"""Fixtures of a fresh, migrated database for each test, seen by its owner (`admin`: to look, and to
break things on purpose) and by the application (`app_conn`, acting as pontoon_app): a conftest
imports them and names the databases with a `database_purpose` fixture."""
from __future__ import annotations

import psycopg
import pytest

from bench.processes import scratch_database
from service.settlement.connection import connect


@pytest.fixture
def db_url(database_purpose):
    with scratch_database(f"pontoon_test_{database_purpose}") as url:
        yield url


@pytest.fixture
def admin(db_url):
    """The database superuser: the one who can disable a trigger and edit rows by hand."""
    with psycopg.connect(db_url, autocommit=True) as conn:
        yield conn


@pytest.fixture
def app_conn(db_url):
    """A connection as the application sees it: acting as pontoon_app."""
    with connect(db_url) as conn:
        yield conn
