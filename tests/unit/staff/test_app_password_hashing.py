"""The cost the app hashes staff passwords and dealers' PINs at: argon2-cffi's default (RFC 9106's
low-memory profile) unless the app is built with another, as the tests build theirs."""
from __future__ import annotations

from argon2 import PasswordHasher

from service.app import create_app
from service.config import Settings
from tests.support.passwords import cheapest_hashing

SETTINGS = {"DATABASE_URL": "postgresql://unused"}


def cost(hasher: PasswordHasher) -> tuple[int, int, int]:
    return hasher.time_cost, hasher.memory_cost, hasher.parallelism


def test_a_casinos_app_hashes_at_argon2s_default_cost():
    app = create_app(Settings.from_env(SETTINGS), connect=False)
    assert cost(app.extensions["pontoon.staff_policy"].passwords.hasher) == cost(PasswordHasher())


def test_an_app_built_with_a_hashing_uses_it_for_sign_ins():
    hashing = cheapest_hashing()
    app = create_app(Settings.from_env(SETTINGS), connect=False, password_hashing=hashing)
    assert app.extensions["pontoon.staff_policy"].passwords is hashing
