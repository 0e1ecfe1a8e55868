"""Fixtures for the audit tests: a fresh database each, with settled rounds from seeded random play."""
from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from bench.casino import Casino
from service.app import create_app
from service.config import Settings
from service.settlement.settle import settle_rounds
from tests.integration.settlement.support import ROOT
from tests.support.per_test_database import admin, app_conn, db_url  # noqa: F401  (shared fixtures)

pytestmark = pytest.mark.integration


@pytest.fixture
def database_purpose():
    return "audit"


@pytest.fixture
def casino():
    return Casino(random.Random(7))


@pytest.fixture
def settled_casino(admin, app_conn, casino):
    """Two tables, enough rounds to close a shoe on each, all settled, and the shoes closed."""
    rounds = casino.play(60, ["T1", "T2"])
    casino.close_all_shoes()
    casino.write(admin)
    settle_rounds(app_conn, [r.round_id for r in rounds])
    return rounds


@pytest.fixture
def pontoon(db_url):
    """Run the `pontoon` command against the test database: (exit status, stdout, stderr)."""
    def run(*argv: str, stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
        # One host: records are stamped by the clock the database reads, so exports need no margin.
        env = dict(os.environ, DATABASE_URL=db_url, PONTOON_AUDIT_CLOCK_MARGIN="0")
        return subprocess.run([sys.executable, "-m", "service.cli", *argv], cwd=ROOT, env=env,
                              stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=120)
    return run


@pytest.fixture
def client(db_url):
    """The app in-process over this test's database."""
    app = create_app(Settings.from_env({**os.environ, "DATABASE_URL": db_url}))
    app.config["TESTING"] = True
    yield app.test_client()
    app.extensions["pontoon.pool"].close()
