"""Fixtures for the settlement tests: a fresh database each, seeded rounds, a private Redis, reaped processes."""
from __future__ import annotations

import random

import psycopg
import pytest

from service.settlement.connection import connect

from .simulate import Casino
from .support import Processes, RedisServer, fresh_database

pytestmark = pytest.mark.integration


@pytest.fixture
def db_url():
    with fresh_database("settle") as url:
        yield url


@pytest.fixture
def admin(db_url):
    """The database superuser (tests only: to look, and to break things on purpose)."""
    with psycopg.connect(db_url, autocommit=True) as conn:
        yield conn


@pytest.fixture
def app_conn(db_url):
    """A connection as the application sees it: acting as pontoon_app."""
    with connect(db_url) as conn:
        yield conn


@pytest.fixture
def casino():
    return Casino(random.Random(20240611))


@pytest.fixture
def redis():
    server = RedisServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def processes(tmp_path, request):
    running = Processes({}, tmp_path)
    yield running
    running.kill_all()
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        print(running.logs())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)
