"""Staff accounts and sessions held in memory (tests/unit/handlers/fake_staff.py), beside the
handlers' fake unit of work, so the sign-in rules are tested without PostgreSQL (the SQL itself is
tested in the console's tests)."""
from __future__ import annotations

from service.staff.policy import StaffPolicy
from tests.support.passwords import cheapest_hashing
from tests.unit.handlers.fake_staff import FakeSession, FakeStaff
from tests.unit.handlers.fake_uow import FakeUnitOfWork

__all__ = ["CHEAP", "FakeSession", "FakeStaff", "StaffUnitOfWork"]

# The staff rules at argon2's lowest cost: the rules are under test here, not the hash's cost (the
# browser tests sign in at the real one). A policy a test varies keeps these passwords.
CHEAP = StaffPolicy(passwords=cheapest_hashing())


class StaffUnitOfWork(FakeUnitOfWork):
    def __init__(self) -> None:
        super().__init__()
        self.staff = FakeStaff()
