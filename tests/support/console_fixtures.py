"""Fixtures of staff in the console, in-process: accounts made with the app's own hashing and test
clients signed in as them (a conftest imports them by name beside `app`)."""
from __future__ import annotations

import secrets

import pytest

from service.staff.accounts import create_staff
from service.staff.commands import CreateStaff
from service.store.uow import unit_of_work
from tests.integration.console.console_client import ConsoleClient, StaffLogin


@pytest.fixture
def make_staff(app):
    """make_staff(role, username=None, password=None) -> StaffLogin of a new active account."""
    def make(role: str, username: str | None = None, password: str | None = None) -> StaffLogin:
        username = username or f"{role[:4]}{secrets.token_hex(4)}"
        password = password or f"pw-{secrets.token_urlsafe(12)}"
        with unit_of_work(app.extensions["pontoon.pool"]) as uow, uow.transaction():
            create_staff(CreateStaff(username, role, actor="test", password=password), uow)
        return StaffLogin(username, password, role)
    return make


@pytest.fixture
def browser(app):
    """browser() -> a new ConsoleClient (its own cookies), signed in to nothing."""
    return lambda: ConsoleClient(app.test_client())


@pytest.fixture
def signed_in(make_staff, browser):
    """signed_in(role) -> a ConsoleClient signed in as a new account of that role (who: `.login`)."""
    def sign(role: str) -> ConsoleClient:
        login = make_staff(role)
        console = browser()
        assert console.sign_in(login.username, login.password, role=role).status_code == 302
        return console
    return sign
