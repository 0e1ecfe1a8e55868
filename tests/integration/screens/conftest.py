"""Fixtures for the dealer's screen's access tests: a scratch database, the app in-process, tables,
staff in the console (test clients signed in as them) and screens enrolled at tables (test clients
with a dealer signed in)."""
from __future__ import annotations

import dataclasses
import os
import uuid

import pytest

from bench.processes import scratch_database
from service.config import Settings
from tests.support.api_client import ok
from tests.support.app_fixtures import admin, app, as_key, client, db, make_key  # noqa: F401  (shared fixtures)
from tests.support.console_fixtures import browser, make_staff, signed_in  # noqa: F401  (shared fixtures)
from tests.support.dealer_screen import dealer_at, make_dealer, screen_at  # noqa: F401  (shared fixtures)

pytestmark = pytest.mark.integration


@pytest.fixture(scope="session")
def database_url():
    with scratch_database() as url:
        yield url


@pytest.fixture(scope="session")
def settings(database_url) -> Settings:
    return Settings.from_env({**os.environ, "DATABASE_URL": database_url})




@pytest.fixture
def table(admin) -> str:
    """A new Canberra table (no shoe open yet): its id."""
    table_id = f"S-{uuid.uuid4().hex[:6].upper()}"
    ok(admin.post("/v1/tables", {"table_id": table_id, "rules": "canberra", "paytable": "canberra-standard"}), 201)
    return table_id


@pytest.fixture
def clock_moved(app, monkeypatch):
    """clock_moved(delta): the app's sign-in policy reads its clock `delta` ahead from now on."""
    def move(delta):
        policy = app.extensions["pontoon.staff_policy"]
        monkeypatch.setitem(app.extensions, "pontoon.staff_policy",
                            dataclasses.replace(policy, clock=lambda: policy.clock() + delta))
    return move
