"""A dealer's screen in the tests: enrolling a browser as a table's screen and signing a dealer in
on it, for Flask's test client (the app in-process) and for Playwright (the live stack).

Flask (a conftest imports the fixtures by name beside `app` from tests/support/app_fixtures.py):

    def test_x(dealer_at):
        screen, dealer = dealer_at("T1")           # an enrolled screen at T1, a new dealer signed in on it
        screen.get("/dealer/table"); screen.post("/dealer/call-supervisor", {"reason": "misdeal"})

Playwright (tests/browser: `live` is the stack, `people["admin"]` or a supervisor issues the code):

    dealer = make_dealer_account(live.env)
    code, link = issue_code_in_console(admin_page, table_id, "Left")
    enrol_in_browser(page, link); sign_in_at_screen(page, dealer)
"""
from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from service.screens.commands import IssueScreenCode
from service.screens.enrolment import issue_code
from service.staff.accounts import create_staff
from service.staff.commands import CreateStaff
from service.staff.passwords import pin_problems
from service.store.uow import unit_of_work

CSRF_FIELD = re.compile(r'name="csrf_token" value="([^"]+)"')
SCREEN_COOKIE = "pontoon_dealer_screen"
SESSION_COOKIE = "pontoon_dealer_session"


@dataclass(frozen=True, slots=True)
class DealerLogin:
    username: str
    pin: str
    display_name: str


def new_pin() -> str:
    """Six random digits a dealer's PIN may be (no one digit repeated, no run such as 123456)."""
    while True:
        pin = f"{secrets.randbelow(10 ** 6):06d}"
        if not pin_problems(pin):
            return pin


# ----- Flask's test client -------------------------------------------------------------------
class ScreenClient:
    """One browser at a table: the test client with its own cookies. post() carries a CSRF token
    read from a /dealer page unless told not to."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.dealer: DealerLogin | None = None      # who signed in through sign_in(), if anyone

    def get(self, path: str, **kwargs: Any) -> TestResponse:
        return self.client.get(path, **kwargs)

    def csrf_token(self) -> str:
        page = self.client.get("/dealer/enrol")     # always a page, whoever is signed in
        found = CSRF_FIELD.search(page.get_data(as_text=True))
        assert found, f"no CSRF token on the enrolment page ({page.status_code})"
        return found.group(1)

    def post(self, path: str, data: dict[str, Any] | None = None, *, csrf: bool = True,
             **kwargs: Any) -> TestResponse:
        form = dict(data or {})
        if csrf:
            form.setdefault("csrf_token", self.csrf_token())
        return self.client.post(path, data=form, **kwargs)

    def cookie(self, name: str) -> str | None:
        found = self.client.get_cookie(name, path="/dealer")
        return found.value if found is not None else None

    def enrol(self, code: str) -> TestResponse:
        return self.post("/dealer/enrol", {"code": code})

    def sign_in(self, dealer: DealerLogin) -> TestResponse:
        response = self.post("/dealer/sign-in", {"username": dealer.username, "pin": dealer.pin})
        if response.status_code == 303:
            self.dealer = dealer
        return response

    def sign_out(self) -> TestResponse:
        self.dealer = None
        return self.post("/dealer/sign-out")


def make_dealer_in(app: Any, username: str | None = None, pin: str | None = None,
                   display_name: str | None = None) -> DealerLogin:
    """A new active dealer account, made with the app's own hashing."""
    username = username or f"deal{secrets.token_hex(4)}"
    pin = pin or new_pin()
    with unit_of_work(app.extensions["pontoon.pool"]) as uow, uow.transaction():
        create_staff(CreateStaff(username, "dealer", "test", display_name=display_name, password=pin), uow,
                     app.extensions["pontoon.staff_policy"])
    return DealerLogin(username, pin, display_name or username)


def issue_code_in(app: Any, table_id: str, name: str | None = None, actor: str = "staff:test") -> str:
    """A one-time enrolment code for a screen at the table, as the console issues it."""
    with unit_of_work(app.extensions["pontoon.pool"]) as uow, uow.transaction():
        return issue_code(IssueScreenCode(table_id, name or f"screen {secrets.token_hex(2)}", actor), uow,
                          app.extensions["pontoon.staff_policy"]).code


def enrolled_screen_in(app: Any, table_id: str, name: str | None = None) -> ScreenClient:
    screen = ScreenClient(app.test_client())
    response = screen.enrol(issue_code_in(app, table_id, name))
    assert response.status_code == 303, response.get_data(as_text=True)
    return screen


@pytest.fixture
def make_dealer(app):
    """make_dealer(username=None, pin=None, display_name=None) -> DealerLogin of a new dealer."""
    return lambda *args, **kwargs: make_dealer_in(app, *args, **kwargs)


@pytest.fixture
def screen_at(app):
    """screen_at(table_id, name=None) -> a ScreenClient enrolled as a screen of the table, nobody signed in."""
    return lambda table_id, name=None: enrolled_screen_in(app, table_id, name)


@pytest.fixture
def dealer_at(app):
    """dealer_at(table_id, name=None, dealer=None) -> (ScreenClient, DealerLogin): a screen enrolled at
    the table and a dealer (new, unless given) signed in on it."""
    def sign(table_id: str, name: str | None = None, dealer: DealerLogin | None = None
             ) -> tuple[ScreenClient, DealerLogin]:
        screen = enrolled_screen_in(app, table_id, name)
        dealer = dealer or make_dealer_in(app)
        response = screen.sign_in(dealer)
        assert response.status_code == 303, response.get_data(as_text=True)
        return screen, dealer
    return sign


# ----- Playwright, against the live stack -------------------------------------------------------
def make_dealer_account(env: dict[str, str], username: str | None = None,
                        display_name: str | None = None) -> DealerLogin:
    """A new dealer account made with `pontoon users create --role dealer --password-stdin`, as an
    admin would at the command line."""
    from tests.browser.console import pontoon

    username = username or f"deal{secrets.token_hex(3)}"
    display_name = display_name or f"Dealer {username[-4:].upper()}"
    pin = new_pin()
    done = pontoon(env, "users", "create", "--username", username, "--role", "dealer", "--name", display_name,
                   "--password-stdin", stdin=pin + "\n")
    assert done.returncode == 0, done.stdout + done.stderr
    return DealerLogin(username, pin, display_name)


def issue_code_in_console(page: Any, table_id: str, name: str) -> tuple[str, str]:
    """(code, link) issued on the table's screens page by the admin or supervisor signed in on `page`."""
    from playwright.sync_api import expect

    page.goto(f"/console/tables/{table_id}/screens")
    page.locator("input[name=name]").fill(name)
    page.get_by_role("button", name="Issue a code").click()
    expect(page.locator("#issued-code")).to_be_visible()
    return page.locator("#issued-code").inner_text().strip(), page.locator("#issued-link").get_attribute("href")


def enrol_in_browser(page: Any, link: str) -> None:
    """Open the console's link on the screen and enrol it; the sign-in page follows."""
    from playwright.sync_api import expect

    page.goto(link)
    page.get_by_role("button", name="Enrol this screen").click()
    expect(page).to_have_url(re.compile(r"/dealer/sign-in"))


def submit_sign_in_at_screen(page: Any, username: str, pin: str) -> None:
    """Type a username and a PIN into the dealer's sign-in form on the enrolled screen `page` shows."""
    page.goto("/dealer/sign-in")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=pin]").fill(pin)
    page.locator("input[name=pin]").press("Enter")


def sign_in_at_screen(page: Any, dealer: DealerLogin) -> None:
    """Sign the dealer in on the enrolled screen `page` shows, waiting until the sign-in is behind it."""
    from playwright.sync_api import expect

    submit_sign_in_at_screen(page, dealer.username, dealer.pin)
    expect(page).not_to_have_url(re.compile(r"/dealer/(sign-in|enrol)"))


def sign_out_at_screen(page: Any) -> None:
    from playwright.sync_api import expect

    page.locator("[data-action=sign-out]").click()
    expect(page).to_have_url(re.compile(r"/dealer/sign-in\?signed_out=1"))


def screen_cookies(context: Any) -> Iterator[dict[str, Any]]:
    """The screen's own cookies in a Playwright browser context."""
    return (cookie for cookie in context.cookies() if cookie["name"] in (SCREEN_COOKIE, SESSION_COOKIE))
