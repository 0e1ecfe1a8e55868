"""Who may open what in the console: every console route (read from the app's url_map) against
every staff role, allowed or refused as the console's role matrix
(tests/support/console_access.py) says; a new console route fails here until
it is given a line. A refusal is the 403 page; an allowed request is anything but a refusal or an
error (a made-up table, round or account is simply not found)."""
from __future__ import annotations

import uuid

import pytest

from tests.support.console_access import CONSOLE_ACCESS, PARAMETER, PUBLIC, ROLES, console_routes
from tests.support.dealer_screen import new_pin

pytestmark = pytest.mark.integration

# What a route's parameters are filled with: nothing that exists, so nothing is changed.
SAMPLES = {"username": "nobody-at-all", "key_id": str(uuid.uuid4()), "name": "no-such-paytable", "version": "1",
           "round_id": str(uuid.uuid4()), "table_id": "no-such-table", "verification_id": str(uuid.uuid4()),
           "change_id": "999999", "screen_id": str(uuid.uuid4()), "call_id": str(uuid.uuid4())}


def test_every_console_route_has_a_line_in_the_table(app):
    assert console_routes(app) - PUBLIC == set(CONSOLE_ACCESS), \
        "a console route without a line in CONSOLE_ACCESS (or a line without its route)"


def test_the_nav_offers_each_role_the_pages_it_may_open():
    from service.console.auth import PAGES
    for _label, path, roles in PAGES:
        assert frozenset(roles) == CONSOLE_ACCESS[("GET", path)], path


@pytest.mark.parametrize("role", ROLES)
def test_each_role_opens_only_its_routes(signed_in, role):
    console = signed_in(role)
    wrong = []
    for (method, rule), allowed in sorted(CONSOLE_ACCESS.items()):
        path = PARAMETER.sub(lambda match: SAMPLES[match.group(1)], rule)
        response = console.get(path) if method == "GET" else console.post(path, {})
        refused = response.status_code == 403
        if role in allowed and (refused or response.status_code >= 500):
            wrong.append(f"{method} {rule}: {response.status_code}, expected allowed")
        elif role not in allowed and not refused:
            wrong.append(f"{method} {rule}: {response.status_code}, expected 403")
    assert wrong == []


def test_a_dealer_opens_no_console_page(make_staff, browser):
    """A dealer signs in at a table's screen, never in the console: their sign-in here is refused, so
    every route above, the accounting pages among them, stays closed to them."""
    login = make_staff("dealer", password=new_pin())
    console = browser()
    assert console.sign_in(login.username, login.password, role="dealer").status_code != 302
    for (method, rule) in sorted(CONSOLE_ACCESS):
        if method == "GET" and rule.startswith(("/console/cage", "/console/count", "/console/statement")):
            assert console.get(rule).status_code == 302, rule      # to the sign-in page
