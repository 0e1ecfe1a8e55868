"""Password hashing at argon2's lowest cost, for tests about who may sign in, not about the hash's
cost (the browser tests sign in against the stack at the real one)."""
from __future__ import annotations

from argon2 import PasswordHasher

from service.staff.passwords import PasswordHashing


def cheapest_hashing() -> PasswordHashing:
    """argon2id at one pass over one megabyte: each hash and check a millisecond, not a tenth of a second."""
    return PasswordHashing(PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
