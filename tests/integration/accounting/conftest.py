"""Fixtures for table games accounting against PostgreSQL: a scratch database, the app in-process,
tables of both games with their terminals, keys of each role, settlement in-process, and staff in
the console and dealers at screens."""
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
from tests.support.console_fixtures import browser, make_staff, signed_in  # noqa: F401  (shared fixtures)
from tests.support.dealer_screen import dealer_at, make_dealer, screen_at  # noqa: F401  (shared fixtures)

pytestmark = pytest.mark.integration

GAMES = {"canberra": {"rules": "canberra", "paytable": "canberra-standard"},
         "traditional": {"rules": "british-traditional"}}


@pytest.fixture(scope="session")
def database_url():
    with scratch_database("pontoon_books") as url:
        yield url


@pytest.fixture(scope="session")
def settings(database_url) -> Settings:
    return Settings.from_env({**os.environ, "DATABASE_URL": database_url})


@pytest.fixture
def new_table(admin, as_key, make_key):
    """new_table(game="canberra", shoe="physical") -> (table_id, its terminal's Api), a shoe open."""
    def make(game: str = "canberra", shoe: str | None = "physical") -> tuple[str, Api]:
        table_id = f"A-{uuid.uuid4().hex[:8]}"
        ok(admin.post("/v1/tables", {"table_id": table_id, **GAMES[game]}), 201)
        terminal = as_key(make_key("terminal", table_id))
        if shoe:
            ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": shoe}), 201)
        return table_id, terminal
    return make


@pytest.fixture
def key_of(as_key, make_key):
    """key_of(role) -> the API as a new key of that role calls it."""
    return lambda role: as_key(make_key(role))


@pytest.fixture
def settle(database_url):
    """settle(*round_ids): what the settlement worker does for completed rounds, in-process."""
    with connect(database_url) as conn:
        def run(*round_ids: str) -> None:
            outcome = settle_rounds(conn, list(round_ids))
            assert sorted(outcome.settled) == sorted(round_ids) and not outcome.refused, outcome
        yield run

