"""Staff handlers on a unit of work in memory (fake_staff.CHEAP is the policy they are given)."""
from __future__ import annotations

import pytest

from .fake_staff import StaffUnitOfWork


@pytest.fixture
def uow() -> StaffUnitOfWork:
    return StaffUnitOfWork()
