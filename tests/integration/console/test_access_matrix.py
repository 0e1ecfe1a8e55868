"""Who may open what in the console: every console route (read from the app's url_map) against
every staff role, allowed or refused as the table below says; a new console route fails here until
it is given a line. A refusal is the 403 page; an allowed request is anything but a refusal or an
error (a made-up table, round or account is simply not found)."""
from __future__ import annotations

import re
import uuid

import pytest

pytestmark = pytest.mark.integration

ROLES = ("admin", "operator", "supervisor", "compliance")
EVERY_ROLE = frozenset(ROLES)

CONSOLE_ACCESS: dict[tuple[str, str], frozenset[str]] = {
    ("GET", "/console/access"): frozenset({"admin"}),
    ("POST", "/console/access/accounts"): frozenset({"admin"}),
    ("POST", "/console/access/accounts/<username>/deactivate"): frozenset({"admin"}),
    ("POST", "/console/access/accounts/<username>/reset-password"): frozenset({"admin"}),
    ("POST", "/console/access/accounts/<username>/role"): frozenset({"admin"}),
    ("POST", "/console/access/keys"): frozenset({"admin"}),
    ("POST", "/console/access/keys/<key_id>/revoke"): frozenset({"admin"}),
    ("GET", "/console/access/review"): frozenset({"admin"}),
    ("GET", "/console/access/review.csv"): frozenset({"admin"}),
    ("GET", "/console/account"): EVERY_ROLE,
    ("POST", "/console/account/password"): EVERY_ROLE,
    ("POST", "/console/account/totp"): EVERY_ROLE,
    ("POST", "/console/account/totp/remove"): EVERY_ROLE,
    ("GET", "/console/audit"): frozenset({"compliance"}),
    ("GET", "/console/audit/export"): frozenset({"compliance"}),
    ("POST", "/console/audit/verify"): frozenset({"compliance"}),
    ("GET", "/console/floor"): EVERY_ROLE,
    ("GET", "/console/floor/rows"): EVERY_ROLE,
    ("GET", "/console/paytables"): EVERY_ROLE,
    ("GET", "/console/paytables/<name>/<int:number>"): EVERY_ROLE,
    ("GET", "/console/paytables/<name>/<int:number>/analysis"): EVERY_ROLE,
    ("POST", "/console/paytables/<name>/<int:number>/decision"): frozenset({"operator"}),
    ("GET", "/console/paytables/<name>/draft"): frozenset({"operator"}),
    ("POST", "/console/paytables/<name>/draft"): frozenset({"operator"}),
    ("GET", "/console/recall"): frozenset({"compliance", "supervisor"}),
    ("GET", "/console/recall/rounds/<uuid:round_id>/transcript.json"): frozenset({"compliance", "supervisor"}),
    ("POST", "/console/recall/verify"): frozenset({"compliance", "supervisor"}),
    ("GET", "/console/reports"): frozenset({"compliance"}),
    ("GET", "/console/reports.csv"): frozenset({"compliance"}),
    ("GET", "/console/tables/<table_id>"): EVERY_ROLE,
    ("GET", "/console/tables/<table_id>/live"): EVERY_ROLE,
    ("POST", "/console/tables/<table_id>/paytable"): frozenset({"operator"}),
    ("GET", "/console/tables/<table_id>/void"): frozenset({"supervisor"}),
    ("POST", "/console/tables/<table_id>/void"): frozenset({"supervisor"}),
}
# Open to anyone: signing in and out, the way in, and the static files (htmx, the stylesheet).
PUBLIC = {("GET", "/console/login"), ("POST", "/console/login"), ("POST", "/console/logout"), ("GET", "/console/"),
          ("GET", "/console/static/<path:filename>")}
# What a route's parameters are filled with: nothing that exists, so nothing is changed.
SAMPLES = {"username": "nobody-at-all", "key_id": str(uuid.uuid4()), "name": "no-such-paytable", "number": "1",
           "round_id": str(uuid.uuid4()), "table_id": "no-such-table"}
_PARAM = re.compile(r"<(?:[a-z_]+:)?([a-z_]+)>")


def console_routes(app) -> set[tuple[str, str]]:
    return {(method, rule.rule) for rule in app.url_map.iter_rules() if rule.rule.startswith("/console")
            for method in rule.methods - {"HEAD", "OPTIONS"}}


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
        path = _PARAM.sub(lambda match: SAMPLES[match.group(1)], rule)
        response = console.get(path) if method == "GET" else console.post(path, {})
        refused = response.status_code == 403
        if role in allowed and (refused or response.status_code >= 500):
            wrong.append(f"{method} {rule}: {response.status_code}, expected allowed")
        elif role not in allowed and not refused:
            wrong.append(f"{method} {rule}: {response.status_code}, expected 403")
    assert wrong == []
