"""Fixtures for the API tests: a scratch database, the app in-process, keys, tables, terminals."""
from __future__ import annotations

import os
import uuid

import pytest

from bench.processes import scratch_database
from service.config import Settings
from tests.support.api_client import Api, ok
from tests.support.app_fixtures import admin, app, app_with, as_key, client, db, make_key  # noqa: F401  (shared fixtures)

pytestmark = pytest.mark.integration


@pytest.fixture(scope="session")
def database_url():
    with scratch_database() as url:
        yield url


@pytest.fixture(scope="session")
def settings(database_url) -> Settings:
    return Settings.from_env({**os.environ, "DATABASE_URL": database_url})


@pytest.fixture
def new_table(admin, as_key, make_key):
    """new_table(shoe=None, limits=None) -> (table_id, terminal Api bound to it); with `shoe`, a
    shoe of that mode is opened."""
    def make(shoe: str | None = None, limits: dict | None = None) -> tuple[str, Api]:
        table_id = f"T-{uuid.uuid4().hex[:10]}"
        body = {"table_id": table_id, "rules": "canberra", "paytable": "canberra-standard"}
        if limits is not None:
            body["limits"] = limits
        ok(admin.post("/v1/tables", body), 201)
        terminal = as_key(make_key("terminal", table_id))
        if shoe:
            ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": shoe}), 201)
        return table_id, terminal
    return make
