"""Every route of the dealer's screen, as each kind of visitor reaches it: a browser that is no
enrolled screen is sent to enrol, an enrolled screen with nobody signed in to the sign-in, console
staff (signed in to the console in the same browser) are no dealers, and only a dealer signed in at
the table's screen deals. A new route fails here until it has its line."""
from __future__ import annotations

import re

import pytest

# Each route of the screen and who may use it: a screen with a dealer signed in (DEALER), or anyone
# (the way in: enrolment and sign-in, the static files).
DEALER, ANYONE = "dealer", "anyone"
ROUTES = {
    ("GET", "/dealer/"): ANYONE,                      # a redirect to the table's screen
    ("GET", "/dealer/enrol"): ANYONE,
    ("POST", "/dealer/enrol"): ANYONE,
    ("GET", "/dealer/sign-in"): ANYONE,
    ("POST", "/dealer/sign-in"): ANYONE,
    ("POST", "/dealer/sign-out"): ANYONE,             # signs out whoever is signed in at this screen, if anyone
    ("GET", "/dealer/static/<path:filename>"): ANYONE,
    ("GET", "/assets/<path:filename>"): ANYONE,
    ("GET", "/dealer/table"): DEALER,
    ("GET", "/dealer/table/screen"): DEALER,
    ("POST", "/dealer/shoe"): DEALER,
    ("POST", "/dealer/shoe/close"): DEALER,
    ("POST", "/dealer/rounds"): DEALER,
    ("POST", "/dealer/cards"): DEALER,
    ("POST", "/dealer/actions"): DEALER,
    ("POST", "/dealer/kitty"): DEALER,
    ("GET", "/dealer/call-supervisor"): DEALER,
    ("POST", "/dealer/call-supervisor"): DEALER,
    ("POST", "/dealer/buy-ins"): DEALER,
    ("POST", "/dealer/slips/sign"): DEALER,
}
BROWSER_ONLY = ("/dealer", "/assets/")


def _routes(app) -> set[tuple[str, str]]:
    return {(method, rule.rule) for rule in app.url_map.iter_rules() if rule.rule.startswith(BROWSER_ONLY)
            for method in rule.methods - {"HEAD", "OPTIONS"}}


def test_every_route_of_the_screen_has_a_line():
    from service.app import create_app

    assert _routes(create_app(connect=False)) == set(ROUTES)


DEALERS_ROUTES = sorted(route for route, who in ROUTES.items() if who == DEALER)


def _visit(client, method: str, path: str, csrf: str | None):
    if method == "GET":
        return client.get(path)
    return client.post(path, data={"csrf_token": csrf} if csrf else {})


@pytest.mark.parametrize("method, path", DEALERS_ROUTES, ids=[f"{m} {p}" for m, p in DEALERS_ROUTES])
def test_only_a_dealer_signed_in_at_an_enrolled_screen_reaches_a_dealers_route(
        method, path, app, screen_at, signed_in, table):
    # A browser that is no screen, with a console supervisor signed in: sent to enrol.
    console = signed_in("supervisor")
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', console.get("/console/account").get_data(as_text=True))
    answer = _visit(console.client, method, path, csrf.group(1) if csrf else None)
    assert answer.status_code in (302, 303) and "/dealer/enrol" in answer.headers["Location"], answer.status_code
    # An enrolled screen with nobody signed in: sent to the sign-in.
    screen = screen_at(table)
    answer = _visit(screen.client, method, path, screen.csrf_token())
    assert answer.status_code in (302, 303) and "/dealer/sign-in" in answer.headers["Location"], answer.status_code


def test_a_stale_form_at_the_screen_is_refused_on_the_screens_own_page(dealer_at, table):
    screen, _ = dealer_at(table)
    answer = screen.post("/dealer/shoe", {"mode": "physical", "csrf_token": "stale"})
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    assert "That touch was not taken" in page and 'href="/dealer/table"' in page and "/console" not in page


def test_a_bet_that_is_no_amount_is_refused_beside_its_seats_field(dealer_at, table):
    screen, _ = dealer_at(table)
    assert screen.post("/dealer/shoe", {"mode": "physical", "action_key": "a" * 32}).status_code == 200
    form = {"action_key": "b" * 32, "entries_as": "wagers", "entry_fields": "wager,side_bets.pair",
            "seat": ["1", "2"], "wager": ["ten", "25"], "side_bets.pair": ["", ""]}
    answer = screen.post("/dealer/rounds", form)
    page = answer.get_data(as_text=True)
    assert answer.status_code == 422
    seat_1 = page[page.index('name="wager" data-seat="1"'):page.index('name="wager" data-seat="2"')]
    assert 'aria-invalid="true"' in seat_1 and 'value="ten"' in seat_1 and "write dollars" in seat_1
    assert 'data-awaiting="wagers"' in page
