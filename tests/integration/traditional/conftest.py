"""Fixtures for the player-banked game's service tests: a scratch database, the app, tables, settlement."""
from __future__ import annotations

import os
import uuid

import pytest
from flask import Flask

from bench.processes import scratch_database
from service.config import Settings
from service.settlement.connection import connect
from service.settlement.settle import settle_rounds
from tests.support.api_client import Api, ok
from tests.support.app_fixtures import admin, app, app_with, as_key, client, db, make_key, through  # noqa: F401  (shared fixtures)

pytestmark = pytest.mark.integration


@pytest.fixture(scope="session")
def database_url():
    with scratch_database("pontoon_trad") as url:
        yield url


@pytest.fixture(scope="session")
def settings(database_url) -> Settings:
    return Settings.from_env({**os.environ, "DATABASE_URL": database_url})


@pytest.fixture
def new_table(admin, as_key, make_key):
    """new_table(rules, shoe, app=None) -> (table_id, terminal Api bound to it), with a shoe of that
    mode open; with `app`, made through it and calling it."""
    def make(rules: str = "british-traditional", shoe: str = "physical", *, app: Flask | None = None
             ) -> tuple[str, Api]:
        table_id = f"P-{uuid.uuid4().hex[:10]}"
        creator = admin if app is None else through(app, admin)
        created = ok(creator.post("/v1/tables", {"table_id": table_id, "rules": rules}), 201)
        assert created["game"] == "traditional" and created["paytable"] is None
        terminal = as_key(make_key("terminal", table_id))
        terminal = terminal if app is None else through(app, terminal)
        ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": shoe}), 201)
        return table_id, terminal
    return make


@pytest.fixture
def settle(database_url):
    """settle(round_id): what the settlement worker does for a completed round, in-process."""
    with connect(database_url) as conn:
        def run(*round_ids: str) -> None:
            outcome = settle_rounds(conn, round_ids)
            assert sorted(outcome.settled) == sorted(round_ids) and not outcome.refused, outcome
        yield run
