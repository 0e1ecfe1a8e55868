"""Fixtures for the browser tests: one live stack for the folder's tests (gunicorn, a Celery
settlement worker and the relay over a scratch database, on ports of 8640-8649; stopped when the
folder is done), Debian's chromium driven by Playwright, staff accounts made with the `pontoon
users` command, keys, tables and terminals."""
from __future__ import annotations

import os
import secrets
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from bench.processes import Processes, scratch_database
from service.staff.commands import ChangePassword
from service.staff.credentials import change_password
from service.store.uow import UnitOfWork
from tests.support.api_client import Api, http_sender, ok
from tests.support.app_fixtures import chained_key

from .console import Person, pontoon
from .stack import LiveStack

CHROMIUM = Path("/usr/bin/chromium")
# Without the background-networking switches chromium reaches for Google's services at start, and
# this closed network refuses those connections (slowly).
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# The console's pages poll every few seconds and settlement runs in another process: an assertion
# waits this long (milliseconds) for what it expects before it fails.
EXPECT_TIMEOUT = 20_000
HERE = Path(__file__).resolve().parent


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: drives the console in chromium against a live stack")


def pytest_collection_modifyitems(config, items):
    mine = [item for item in items if item.path.resolve().is_relative_to(HERE)]
    missing = None if os.access(CHROMIUM, os.X_OK) else pytest.mark.skip(
        reason=f"{CHROMIUM} is missing and could not be installed (`make test` installs Debian's chromium)")
    for item in mine:
        item.add_marker(pytest.mark.integration)
        item.add_marker(pytest.mark.browser)
        if missing is not None:
            item.add_marker(missing)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


@pytest.fixture(scope="package")
def database_url() -> Iterator[str]:
    with scratch_database("pontoon_browser") as url:
        yield url


@pytest.fixture(scope="package")
def processes(tmp_path_factory) -> Iterator[Processes]:
    running = Processes(tmp_path_factory.mktemp("browser-stack"))
    yield running
    running.stop_all()


@pytest.fixture(scope="package")
def live(database_url, processes, tmp_path_factory) -> LiveStack:
    stack = LiveStack(database_url, processes, tmp_path_factory.mktemp("browser-run"))
    stack.start()
    return stack


@pytest.fixture(autouse=True)
def stack_logs_on_failure(request):
    """A failed test prints the stack's logs (the server's side of what the browser saw)."""
    yield
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed and "processes" in request.fixturenames:
        print(request.getfixturevalue("processes").logs())


@pytest.fixture(scope="package")
def chromium() -> Iterator[object]:
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=EXPECT_TIMEOUT)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_page(chromium, live, processes):
    """new_page() -> a page in a browser context of its own (its own cookies: one person each),
    opened on the live stack; every context is closed when the test ends."""
    contexts = []
    server_errors: list[str] = []

    def make():
        context = chromium.new_context(base_url=live.url, viewport={"width": 1360, "height": 900},
                                       accept_downloads=True)
        context.set_default_timeout(EXPECT_TIMEOUT)
        # Whatever a test asserts, no request the console's pages make may end in a server error.
        context.on("response", lambda response: server_errors.append(f"{response.status} {response.url}")
                   if response.status >= 500 else None)
        contexts.append(context)
        return context.new_page()
    yield make
    for context in contexts:
        context.close()
    assert server_errors == [], "the console answered with a server error"


@pytest.fixture
def page(new_page):
    return new_page()


@pytest.fixture(scope="package")
def make_person(live) -> object:
    """make_person(role, name=None, password=None) -> a new, active staff account of that role (made
    with `pontoon users create --password-stdin`, as an admin would at the command line)."""
    def make(role: str, name: str | None = None, password: str | None = None) -> Person:
        username = f"{role[:4]}{secrets.token_hex(3)}"
        password = password or f"pit-{secrets.token_urlsafe(12)}"
        first = f"first-{secrets.token_urlsafe(12)}"
        display = name or f"{role.title()} {username[-4:].upper()}"
        done = pontoon(live.env, "users", "create", "--username", username, "--role", role, "--name", display,
                       "--password-stdin", stdin=first + "\n")
        assert done.returncode == 0, done.stdout + done.stderr
        # The person has set their own password since (as the console makes them at first sign-in).
        with psycopg.connect(live.env["DATABASE_URL"]) as conn, conn.transaction():
            uow = UnitOfWork(conn)
            row = uow.staff.get(username)
            assert row is not None
            change_password(ChangePassword(row.user_id, first, password, None), uow)
        return Person(username, password, role, display)
    return make


@pytest.fixture(scope="package")
def people(make_person) -> dict[str, Person]:
    """One account of each role for the tests that only need someone of that role."""
    return {role: make_person(role) for role in ("admin", "operator", "supervisor", "compliance", "cage", "count")}


@pytest.fixture(scope="package")
def make_key(database_url):
    """make_key(role, table=None) -> the new key's secret."""
    def make(role: str, table: str | None = None) -> str:
        with psycopg.connect(database_url) as conn:
            return chained_key(conn, role, table, f"browser {role}")
    return make


@pytest.fixture(scope="package")
def as_key(live):
    """as_key(secret) -> an Api calling the live stack over HTTP with that key."""
    return lambda secret: Api(http_sender(live.url, timeout=30), secret)


@pytest.fixture(scope="package")
def admin_api(as_key, make_key) -> Api:
    return as_key(make_key("admin"))


@pytest.fixture(scope="package")
def new_table(admin_api, as_key, make_key):
    """new_table(shoe="physical") -> (table_id, terminal Api bound to it); the shoe of that mode
    is opened unless shoe is None."""
    def make(shoe: str | None = "physical", paytable: str = "canberra-standard") -> tuple[str, Api]:
        table_id = f"BT-{uuid.uuid4().hex[:6].upper()}"
        ok(admin_api.post("/v1/tables", {"table_id": table_id, "rules": "canberra", "paytable": paytable}), 201)
        terminal = as_key(make_key("terminal", table_id))
        if shoe:
            ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": shoe}), 201)
        return table_id, terminal
    return make


@pytest.fixture
def db(database_url) -> Iterator[psycopg.Connection]:
    """The database as its owner sees it: to look (the ledger, the audit log) and, rarely, to
    stand in for the clock."""
    with psycopg.connect(database_url, autocommit=True) as conn:
        yield conn



@pytest.fixture(scope="package")
def screen_issuer(chromium, live, people):
    """A console page signed in as an admin, which issues the screens' enrolment codes."""
    from .console import sign_in

    context = chromium.new_context(base_url=live.url)
    page = sign_in(context.new_page(), people["admin"])
    yield page
    context.close()


@pytest.fixture
def table_at_screen(new_page, live, admin_api, screen_issuer):
    """table_at_screen(rules, paytable=None) -> a new table of those rules, a page enrolled as its
    screen (its code issued in the console) with a new dealer signed in on it, at /dealer/table."""
    from tests.support.dealer_screen import (
        enrol_in_browser,
        issue_code_in_console,
        make_dealer_account,
        sign_in_at_screen,
    )

    def make(rules: str, paytable: str | None = None):
        table_id = f"DS-{uuid.uuid4().hex[:6].upper()}"
        ok(admin_api.post("/v1/tables", {"table_id": table_id, "rules": rules,
                                         **({"paytable": paytable} if paytable else {})}), 201)
        _, link = issue_code_in_console(screen_issuer, table_id, "Left")
        page = new_page()
        enrol_in_browser(page, link)
        sign_in_at_screen(page, make_dealer_account(live.env))
        page.goto("/dealer/table")
        return page
    return make
