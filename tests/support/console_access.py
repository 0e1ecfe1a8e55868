"""The console's role matrix: every console route and the staff roles that may use it (a dealer
uses none: dealers sign in at a table's screen). The integration tests and the browser tests hold
the console to this one table."""
from __future__ import annotations

import re

ROLES = ("admin", "operator", "supervisor", "compliance", "cage", "count")
EVERY_ROLE = frozenset(ROLES)
PIT = frozenset({"compliance", "supervisor"})
SCREENS = frozenset({"admin", "supervisor"})      # who enrols and revokes a table's dealer screens
# Table games accounting: who reads a table's slips and buy-ins, who voids a slip, who reads the statement.
BOOKS = frozenset({"supervisor", "compliance", "cage", "count"})
STATEMENT = frozenset({"operator", "supervisor", "compliance"})

# (method, rule) -> the roles that may use it; anyone else is shown the 403 page.
CONSOLE_ACCESS: dict[tuple[str, str], frozenset[str]] = {
    ("GET", "/console/access"): frozenset({"admin"}),
    ("POST", "/console/access/accounts"): frozenset({"admin"}),
    ("GET", "/console/access/accounts/<username>/deactivate"): frozenset({"admin"}),
    ("POST", "/console/access/accounts/<username>/deactivate"): frozenset({"admin"}),
    ("GET", "/console/access/accounts/<username>/reset-password"): frozenset({"admin"}),
    ("POST", "/console/access/accounts/<username>/reset-password"): frozenset({"admin"}),
    ("POST", "/console/access/accounts/<username>/role"): frozenset({"admin"}),
    ("POST", "/console/access/keys"): frozenset({"admin"}),
    ("GET", "/console/access/keys/<key_id>/revoke"): frozenset({"admin"}),
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
    ("GET", "/console/audit/verifications/<uuid:verification_id>"): frozenset({"compliance"}),
    ("GET", "/console/audit/verifications/<uuid:verification_id>/status"): frozenset({"compliance"}),
    ("GET", "/console/floor"): EVERY_ROLE,
    ("GET", "/console/floor/rows"): EVERY_ROLE,
    ("GET", "/console/paytables"): EVERY_ROLE,
    ("GET", "/console/paytables/<name>/<int:version>"): EVERY_ROLE,
    ("GET", "/console/paytables/<name>/<int:version>/evaluation"): EVERY_ROLE,
    ("POST", "/console/paytables/<name>/<int:version>/evaluation"): frozenset({"operator"}),
    ("POST", "/console/paytables/<name>/<int:version>/decision"): frozenset({"operator"}),
    ("GET", "/console/paytables/<name>/draft"): frozenset({"operator"}),
    ("POST", "/console/paytables/<name>/draft"): frozenset({"operator"}),
    ("GET", "/console/recall"): PIT,
    ("GET", "/console/recall/rounds/<uuid:round_id>/transcript.json"): PIT,
    ("POST", "/console/recall/verify"): PIT,
    ("GET", "/console/reports"): frozenset({"compliance"}),
    ("GET", "/console/reports.csv"): frozenset({"compliance"}),
    ("GET", "/console/tables/<table_id>"): EVERY_ROLE,
    ("GET", "/console/tables/<table_id>/live"): EVERY_ROLE,
    ("POST", "/console/tables/<table_id>/paytable"): frozenset({"operator"}),
    ("POST", "/console/tables/<table_id>/rules"): frozenset({"operator"}),
    ("POST", "/console/tables/<table_id>/rules/<int:change_id>/decision"): frozenset({"operator"}),
    ("GET", "/console/tables/<table_id>/void"): frozenset({"supervisor"}),
    ("POST", "/console/tables/<table_id>/void"): frozenset({"supervisor"}),
    ("GET", "/console/tables/<table_id>/screens"): SCREENS,
    ("POST", "/console/tables/<table_id>/screens"): SCREENS,
    ("GET", "/console/tables/<table_id>/screens/<screen_id>/revoke"): SCREENS,
    ("POST", "/console/tables/<table_id>/screens/<screen_id>/revoke"): SCREENS,
    ("GET", "/console/tables/<table_id>/calls/<call_id>/dismiss"): frozenset({"supervisor"}),
    ("POST", "/console/tables/<table_id>/calls/<call_id>/dismiss"): frozenset({"supervisor"}),
    ("GET", "/console/tables/<table_id>/chips"): BOOKS,
    ("POST", "/console/tables/<table_id>/chips/tray"): frozenset({"supervisor"}),
    ("POST", "/console/tables/<table_id>/chips/request"): frozenset({"supervisor"}),
    ("POST", "/console/tables/<table_id>/chips/sign"): frozenset({"supervisor"}),
    ("POST", "/console/tables/<table_id>/chips/void"): frozenset({"supervisor", "cage"}),
    ("POST", "/console/tables/<table_id>/buy-ins"): frozenset({"supervisor"}),
    ("GET", "/console/cage"): frozenset({"cage"}),
    ("POST", "/console/cage/issue"): frozenset({"cage"}),
    ("POST", "/console/cage/void"): frozenset({"cage"}),
    ("GET", "/console/count"): frozenset({"count"}),
    ("POST", "/console/count"): frozenset({"count"}),
    ("GET", "/console/statement"): STATEMENT,
    ("GET", "/console/statement.csv"): STATEMENT,
    ("POST", "/console/statement/issue"): frozenset({"compliance"}),
}
# Open to anyone: signing in and out, the way in, and the static files (htmx, the stylesheet).
PUBLIC = {("GET", "/console/login"), ("POST", "/console/login"), ("POST", "/console/logout"), ("GET", "/console/"),
          ("GET", "/console/static/<path:filename>")}
# A route's parameter, to be filled with a value: `<name>`, `<int:version>`, `<uuid:round_id>`.
PARAMETER = re.compile(r"<(?:[a-z_]+:)?([a-z_]+)>")


def console_routes(app) -> set[tuple[str, str]]:
    """(method, rule) of every console route the app serves."""
    return {(method, rule.rule) for rule in app.url_map.iter_rules() if rule.rule.startswith("/console")
            for method in rule.methods - {"HEAD", "OPTIONS"}}
