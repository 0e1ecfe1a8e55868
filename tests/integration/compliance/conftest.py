"""Fixtures for the compliance tests: a scratch database for the session, the app in-process,
keys of every role, tables with their terminals, and a settler."""
from __future__ import annotations

import os
import uuid

import pytest

from bench.processes import scratch_database
from service.config import Settings
from service.settlement.connection import connect
from service.settlement.settle import settle_rounds
from tests.support.api_client import Api, ok
from tests.support.app_fixtures import admin, app, as_key, client, db, make_key  # noqa: F401  (shared fixtures)
from tests.support.evaluations import evaluate_now

pytestmark = pytest.mark.integration

@pytest.fixture(scope="session")
def database_url():
    with scratch_database("pontoon_cmp") as url:
        yield url


@pytest.fixture(scope="session")
def settings(database_url) -> Settings:
    # One host: the records' stamps and the database read one clock, so exports need no margin.
    return Settings.from_env({**os.environ, "DATABASE_URL": database_url, "GAMING_DAY_STARTS": "06:00",
                              "PONTOON_TZ": "Australia/Sydney", "PONTOON_AUDIT_CLOCK_MARGIN": "0"})


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


@pytest.fixture
def evaluate(database_url):
    """evaluate(name, version): run the evaluation worker's code on the version now."""
    return lambda name, version: evaluate_now(database_url, name, version)
