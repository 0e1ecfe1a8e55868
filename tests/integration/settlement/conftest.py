"""Fixtures for the settlement tests: a fresh database each, seeded rounds, a private Redis, reaped processes."""
from __future__ import annotations

import random

import pytest

from bench.casino import Casino
from bench.processes import RedisServer, SettlementProcesses
from tests.support.per_test_database import admin, app_conn, db_url  # noqa: F401  (shared fixtures)

pytestmark = pytest.mark.integration


@pytest.fixture
def database_purpose():
    return "settle"


@pytest.fixture
def casino():
    return Casino(random.Random(20240611))


@pytest.fixture
def redis(processes):
    server = RedisServer(processes).start()
    yield server
    server.stop()


@pytest.fixture
def processes(tmp_path, request):
    running = SettlementProcesses({}, tmp_path)
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
