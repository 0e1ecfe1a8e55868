"""Fixtures for the store's own tests: a scratch database."""
from __future__ import annotations

import pytest

from bench.processes import scratch_database

pytestmark = pytest.mark.integration


@pytest.fixture(scope="session")
def database_url():
    with scratch_database() as url:
        yield url
