"""Who may open what in the console, from a signed-in browser: every console route (read from the
app's url_map) against every role, as the REST API's role matrix does for its routes; each role's
navigation shows its pages only; a form posted without its CSRF token is refused."""
from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect

from service.app import create_app
from tests.support.console_access import (
    CONSOLE_ACCESS,
    EVERY_ROLE,
    PARAMETER,
    PIT,
    PUBLIC,
    ROLES,
    STATEMENT,
    console_routes,
)
from tests.support.scripted_rounds import SIMPLE_PUSH, play_script

from .console import LOGIN, shot, sign_in, visit

# Keep the matrix cheap and harmless: an empty export; a version that does not exist (measuring one
# takes seconds); an account and a key that do not exist. An allowed POST carries an empty form and
# stops at its checks (422 or 404), changing nothing.
QUERIES = {"/console/audit/export": "?to=2000-01-01", "/console/reports.csv": "?period=day"}
NAV = {"Floor": EVERY_ROLE, "Paytables": EVERY_ROLE, "Recall": PIT, "Cage": frozenset({"cage"}),
       "Count": frozenset({"count"}), "Statement": STATEMENT, "Reports": frozenset({"compliance"}),
       "Audit": frozenset({"compliance"}), "Access": frozenset({"admin"})}


def test_every_console_route_has_a_line_in_the_table():
    assert console_routes(create_app(connect=False)) - PUBLIC == set(CONSOLE_ACCESS), \
        "a console route without a line (or a line without its route)"


@pytest.fixture(scope="module")
def places(new_table) -> dict[str, str]:
    """A table with a finished round and a round open: the paths' parameters."""
    table_id, terminal = new_table(shoe=None)
    done = play_script(terminal, table_id, [{"seat": 1, "wager": 1000}], SIMPLE_PUSH)
    open_round = play_script(terminal, table_id, [{"seat": 1, "wager": 1000}], SIMPLE_PUSH, new_shoe=False,
                             stop_after=2)
    assert open_round["status"] == "open"
    return {"table_id": table_id, "round_id": done["round_id"], "name": "canberra-standard", "version": "999",
            "username": f"nobody{uuid.uuid4().hex[:6]}", "key_id": str(uuid.uuid4()),
            "verification_id": str(uuid.uuid4()), "screen_id": str(uuid.uuid4()), "call_id": str(uuid.uuid4()),
            "change_id": "999999"}


def path_of(rule: str, places: dict[str, str]) -> str:
    return PARAMETER.sub(lambda m: places[m.group(1)], rule) + QUERIES.get(rule, "")


def call(page, method: str, path: str, token: str):
    if method == "GET":
        return page.request.get(path, max_redirects=0)
    return page.request.post(path, form={"csrf_token": token}, max_redirects=0)


@pytest.mark.parametrize("role", ROLES)
def test_each_role_sees_only_its_pages(new_page, people, places, role):
    page = sign_in(new_page(), people[role])
    visit(page, "/console/account")
    expect(page.get_by_role("navigation").get_by_role("link")).to_have_text(
        [label for label, roles in NAV.items() if role in roles])
    if role == "operator":
        shot(page, "account")
    token = page.locator("header input[name=csrf_token]").input_value()
    wrong = []
    for method, rule in sorted(CONSOLE_ACCESS):
        reply = call(page, method, path_of(rule, places), token)
        allowed = role in CONSOLE_ACCESS[(method, rule)]
        refused = reply.status in (401, 403) or (reply.status == 302 and "/console/login" in reply.headers["location"])
        if (allowed and (refused or reply.status >= 500)) or (not allowed and reply.status != 403):
            wrong.append((method, rule, reply.status))
    assert wrong == [], f"{role}: routes answered against the table"
    if role != "compliance":
        visit(page, "/console/audit")
        expect(page.get_by_role("heading", level=1)).to_have_text("Not for your role")
        if role == "operator":
            shot(page, "not-for-your-role")


def test_without_a_session_every_page_sends_to_sign_in(page, places):
    visit(page, "/console/login")
    token = page.locator("input[name=csrf_token]").input_value()
    for method, rule in sorted(CONSOLE_ACCESS):
        reply = call(page, method, path_of(rule, places), token)
        assert reply.status == 302 and LOGIN.search(reply.headers["location"]), (method, rule, reply.status)


def test_a_form_posted_without_its_csrf_token_is_refused(page, people, places, db):
    person = people["supervisor"]
    sign_in(page, person)
    visit(page, f"/console/tables/{places['table_id']}")
    page.get_by_role("link", name=re.compile(r"void this round", re.I)).click()
    page.get_by_label(re.compile(r"reason", re.I)).fill("dealer dropped the shoe")
    page.locator("main form input[name=csrf_token]").evaluate("input => input.remove()")
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Form refused")
    shot(page, "csrf-refused")

    header = page.locator("header form")
    visit(page, "/console/floor")
    header.locator("input[name=csrf_token]").evaluate("input => input.remove()")
    header.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Form refused")
    visit(page, "/console/floor")
    expect(page).not_to_have_url(LOGIN)                    # still signed in: the sign-out was refused
    assert db.execute("SELECT status FROM rounds WHERE table_id = %s ORDER BY opened_at DESC LIMIT 1",
                      (places["table_id"],)).fetchone()[0] == "open", "and nothing was voided"
