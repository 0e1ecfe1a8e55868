"""Staff accounts and sessions held in memory (tests/unit/handlers/fake_staff.py), beside the
handlers' fake unit of work, so the sign-in rules are tested without PostgreSQL (the SQL itself is
tested in the console's tests)."""
from __future__ import annotations

from argon2 import PasswordHasher

from service.staff.passwords import PasswordHashing
from service.staff.policy import StaffPolicy
from tests.unit.handlers.fake_staff import FakeSession, FakeStaff
from tests.unit.handlers.fake_uow import FakeUnitOfWork

__all__ = ["CHEAP", "FakeSession", "FakeStaff", "StaffUnitOfWork"]

# The staff rules at argon2's lowest cost: the rules are under test here, not the hash's cost (the
# console's tests sign in at the real one). A policy a test varies keeps these passwords.
CHEAP = StaffPolicy(passwords=PasswordHashing(PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)))


class StaffUnitOfWork(FakeUnitOfWork):
    def __init__(self) -> None:
        super().__init__()
        self.staff = FakeStaff()
