"""Staff handlers on a unit of work in memory, with argon2 made cheap: the rules are under test
here, not the hash's cost (the console's tests use the real parameters)."""
from __future__ import annotations

import pytest
from argon2 import PasswordHasher

from service.staff import passwords

from .fake_staff import StaffUnitOfWork

_CHEAP = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)


@pytest.fixture(autouse=True)
def cheap_hashes(monkeypatch):
    monkeypatch.setattr(passwords, "_hasher", lambda: _CHEAP)


@pytest.fixture
def uow() -> StaffUnitOfWork:
    return StaffUnitOfWork()
