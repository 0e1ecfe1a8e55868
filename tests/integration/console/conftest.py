"""Fixtures for the console tests: a scratch database, the app in-process, staff accounts and
browsers (test clients) signed in as them."""
from __future__ import annotations

import os

import pytest

from bench.processes import scratch_database
from service.config import Settings
from tests.support.app_fixtures import app, client, db, make_key  # noqa: F401  (shared fixtures)
from tests.support.console_fixtures import browser, make_staff, signed_in  # noqa: F401  (shared fixtures)
from tests.support.evaluations import evaluate_now

pytestmark = pytest.mark.integration


@pytest.fixture(scope="session")
def database_url():
    with scratch_database() as url:
        yield url


@pytest.fixture(scope="session")
def settings(database_url) -> Settings:
    return Settings.from_env({**os.environ, "DATABASE_URL": database_url})





@pytest.fixture
def evaluate(database_url):
    """evaluate(name, version): run the evaluation worker's code on the version now."""
    return lambda name, version: evaluate_now(database_url, name, version)
