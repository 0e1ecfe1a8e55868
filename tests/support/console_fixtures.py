"""Fixtures of staff in the console, in-process: accounts made with the app's own hashing and test
clients signed in as them (a conftest imports them by name beside `app`)."""
from __future__ import annotations

import secrets

import pytest

from service.staff.accounts import create_staff
from service.staff.commands import ChangePassword, CreateStaff
from service.staff.credentials import change_password
from service.store.uow import unit_of_work
from tests.integration.console.console_client import ConsoleClient, StaffLogin


@pytest.fixture
def make_staff(app):
    """make_staff(role, username=None, password=None, own_password=True) -> StaffLogin of a new
    active account. An admin sets its first password; unless not `own_password`, its person has set
    their own since (as the console makes them at their first sign-in)."""
    def make(role: str, username: str | None = None, password: str | None = None,
             own_password: bool = True) -> StaffLogin:
        username = username or f"{role[:4]}{secrets.token_hex(4)}"
        password = password or f"pw-{secrets.token_urlsafe(12)}"
        first = f"first-{secrets.token_urlsafe(12)}" if own_password and role != "dealer" else password
        policy = app.extensions["pontoon.staff_policy"]   # hashed as the app checks them
        with unit_of_work(app.extensions["pontoon.pool"]) as uow, uow.transaction():
            issued = create_staff(CreateStaff(username, role, actor="test", password=first), uow, policy)
            if first != password:
                change_password(ChangePassword(issued.account["user_id"], first, password, None), uow, policy)
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
