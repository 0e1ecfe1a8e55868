"""Who may call what: every route of the app (read from its url_map, checked against its OpenAPI
document) against every role, allowed or denied as the table below says; a new route fails here
until it is given a line. Denials are 401/403 and audited; keys are managed over HTTP."""
from __future__ import annotations

import logging
import re
import uuid

import psycopg
import pytest
import yaml

from service.api.openapi_export import spec_yaml
from tests.support.api_client import Api, flask_sender, ok
from tests.support.app_fixtures import chained_key
from tests.support.scripted_rounds import SIMPLE_PUSH, play_script

ROLES = ("admin", "operator", "supervisor", "compliance", "terminal", "cage", "count")
EVERYONE = frozenset(ROLES)
STAFF = frozenset({"admin", "operator", "supervisor", "compliance", "cage", "count"})
# Table games accounting: who counts a tray, signs a slip at the table, sees a table's slips, every
# table's books. (A dealer holds no key: at the table's screen they sign and record buy-ins as
# themselves, and the table's terminal key does it for them here.)
AT_THE_TABLE = frozenset({"supervisor", "terminal"})
TABLE_BOOKS = frozenset({"supervisor", "compliance", "cage", "count", "terminal"})
BOOKS = frozenset({"supervisor", "compliance", "cage", "count"})

# The explicit table: (method, rule) -> the roles that may call it. A terminal may act only on its
# own table's resources (checked separately below).
ACCESS: dict[tuple[str, str], frozenset[str]] = {
    ("POST", "/v1/tables"): frozenset({"admin", "operator"}),
    ("GET", "/v1/tables/<table_id:table_id>"): EVERYONE,
    ("POST", "/v1/tables/<table_id:table_id>/shoes"): frozenset({"terminal"}),
    ("GET", "/v1/tables/<table_id:table_id>/shoes/current"): EVERYONE,
    ("POST", "/v1/tables/<table_id:table_id>/rounds"): frozenset({"terminal"}),
    ("GET", "/v1/shoes/<uuid:shoe_id>"): EVERYONE,
    ("GET", "/v1/rounds/<uuid:round_id>"): EVERYONE,
    ("GET", "/v1/rounds/<uuid:round_id>/transcript"): EVERYONE,
    ("POST", "/v1/rounds/<uuid:round_id>/cards"): frozenset({"terminal"}),
    ("POST", "/v1/rounds/<uuid:round_id>/actions"): frozenset({"terminal"}),
    ("POST", "/v1/tables/<table_id:table_id>/kitty"): frozenset({"terminal"}),
    ("POST", "/v1/tables/<table_id:table_id>/bank/sale"): frozenset({"terminal"}),
    ("GET", "/v1/paytables"): STAFF,
    ("GET", "/v1/paytables/<paytable_name:name>/versions"): STAFF,
    ("POST", "/v1/paytables/<paytable_name:name>/versions"): frozenset({"operator"}),
    ("GET", "/v1/paytables/<paytable_name:name>/versions/<int:version>"): STAFF,
    ("POST", "/v1/paytables/<paytable_name:name>/versions/<int:version>/approve"): frozenset({"operator"}),
    ("POST", "/v1/paytables/<paytable_name:name>/versions/<int:version>/reject"): frozenset({"operator"}),
    ("GET", "/v1/paytables/<paytable_name:name>/versions/<int:version>/evaluation"): STAFF,
    ("POST", "/v1/paytables/<paytable_name:name>/versions/<int:version>/evaluation"): frozenset({"operator"}),
    ("GET", "/v1/tables/<table_id:table_id>/paytable"): EVERYONE,
    ("POST", "/v1/tables/<table_id:table_id>/paytable"): frozenset({"operator"}),
    ("GET", "/v1/tables/<table_id:table_id>/rules"): EVERYONE,
    ("POST", "/v1/tables/<table_id:table_id>/rules"): frozenset({"operator"}),
    ("POST", "/v1/tables/<table_id:table_id>/rules/<int:change_id>/approve"): frozenset({"operator"}),
    ("POST", "/v1/tables/<table_id:table_id>/rules/<int:change_id>/reject"): frozenset({"operator"}),
    ("GET", "/v1/audit/export"): frozenset({"compliance"}),
    ("GET", "/v1/audit/checkpoints"): frozenset({"compliance"}),
    ("POST", "/v1/audit/verifications"): frozenset({"compliance"}),
    ("GET", "/v1/audit/verifications/<uuid:verification_id>"): frozenset({"compliance"}),
    ("GET", "/v1/tables/<table_id:table_id>/recall"): frozenset({"supervisor", "compliance"}),
    ("GET", "/v1/reports/tables"): frozenset({"operator", "supervisor", "compliance"}),
    ("POST", "/v1/rounds/<uuid:round_id>/void"): frozenset({"supervisor"}),
    ("GET", "/v1/access"): frozenset({"admin", "compliance"}),
    ("POST", "/v1/keys"): frozenset({"admin"}),
    ("POST", "/v1/account/password"): STAFF,
    ("POST", "/v1/keys/<uuid:key_id>/revoke"): frozenset({"admin"}),
    ("POST", "/v1/tables/<table_id:table_id>/tray-counts"): AT_THE_TABLE,
    ("POST", "/v1/tables/<table_id:table_id>/fills"): frozenset({"supervisor"}),
    ("POST", "/v1/tables/<table_id:table_id>/credits"): frozenset({"supervisor"}),
    ("GET", "/v1/tables/<table_id:table_id>/slips"): TABLE_BOOKS,
    ("GET", "/v1/slips"): BOOKS,
    ("GET", "/v1/slips/<serial:serial>"): TABLE_BOOKS,
    ("POST", "/v1/slips/<serial:serial>/issue"): frozenset({"cage"}),
    ("POST", "/v1/slips/<serial:serial>/sign"): AT_THE_TABLE,
    ("POST", "/v1/slips/<serial:serial>/void"): frozenset({"supervisor", "cage"}),
    ("POST", "/v1/tables/<table_id:table_id>/buy-ins"): AT_THE_TABLE,
    ("GET", "/v1/tables/<table_id:table_id>/buy-ins"): TABLE_BOOKS,
    ("POST", "/v1/tables/<table_id:table_id>/drop-counts"): frozenset({"count"}),
    ("GET", "/v1/drop-counts"): BOOKS,
    ("GET", "/v1/reports/table-games-statement"): frozenset({"operator", "supervisor", "compliance"}),
    ("POST", "/v1/reports/table-games-statement"): frozenset({"compliance"}),
}
# Outside the key scheme: liveness, readiness, the spec, static files, metrics (its own token).
NO_KEY = {("GET", "/healthz"), ("GET", "/readyz"), ("GET", "/openapi.json"), ("GET", "/static/<path:filename>"),
          ("GET", "/metrics"), ("GET", "/assets/<path:filename>")}
# Keeps the matrix cheap and side-effect free: the export of an empty range.
QUERIES = {"/v1/audit/export": "?to=2000-01-01T00:00:00Z"}
_PARAM = re.compile(r"<(?:[a-z_]+:)?([a-z_]+)>")


# The browser adapters' routes (staff sessions and screens, not keys) and their shared static files
# have their own tables: tests/integration/console/test_access_matrix.py and
# tests/integration/screens/test_routes.py.
BROWSER_PREFIXES = ("/console", "/dealer", "/assets/")


def routes(app) -> set[tuple[str, str]]:
    """The key-checked routes."""
    return {(method, rule.rule) for rule in app.url_map.iter_rules() if not rule.rule.startswith(BROWSER_PREFIXES)
            for method in rule.methods - {"HEAD", "OPTIONS"}}


def test_every_route_has_a_line_in_the_table(app):
    assert routes(app) - NO_KEY == set(ACCESS), "a route without a line in ACCESS (or a line without its route)"


def test_the_table_covers_the_openapi_document():
    spec = yaml.safe_load(spec_yaml())
    documented = {(method.upper(), path) for path, item in spec["paths"].items()
                  for method in item if method in ("get", "post", "put", "patch", "delete")}
    assert documented == {(method, _PARAM.sub(r"{\1}", rule)) for method, rule in ACCESS}


def _key(database_url: str, role: str, table: str | None = None) -> str:
    with psycopg.connect(database_url) as conn:
        return chained_key(conn, role, table, f"matrix {role}")


@pytest.fixture(scope="module")
def world(app, database_url):
    """Built once for the matrix: a table whose terminal has an open round on a physical shoe, a
    terminal of another table, and a key of every role."""
    client = app.test_client()
    as_key = lambda secret: Api(flask_sender(client), secret)  # noqa: E731
    admin = as_key(_key(database_url, "admin"))
    tables = [f"M-{uuid.uuid4().hex[:10]}" for _ in range(2)]
    for table_id in tables:
        ok(admin.post("/v1/tables", {"table_id": table_id, "rules": "canberra", "paytable": "canberra-standard"}), 201)
    terminal = as_key(_key(database_url, "terminal", tables[0]))
    state = play_script(terminal, tables[0], [{"seat": 1, "wager": 1000}], SIMPLE_PUSH, stop_after=2)
    callers = {role: as_key(_key(database_url, role)) for role in ROLES if role != "terminal"}
    callers["terminal"] = terminal
    # A slip at the table, so that a stranger's terminal is refused at it as at the table itself.
    slip = ok(callers["supervisor"].post(f"/v1/tables/{tables[0]}/fills", {"chips": {"10000": 1}}), 201)
    params = {"table_id": tables[0], "round_id": state["round_id"], "shoe_id": state["shoe_id"],
              "name": "canberra-standard", "version": "1", "key_id": str(uuid.uuid4()), "change_id": "1",
              "verification_id": str(uuid.uuid4()), "serial": slip["serial"]}
    return {"callers": callers, "stranger": as_key(_key(database_url, "terminal", tables[1])),
            "anonymous": as_key(None), "params": params}


def call(api, method: str, rule: str, params: dict):
    path = _PARAM.sub(lambda m: params[m.group(1)], rule) + QUERIES.get(rule, "")
    # An empty body: an allowed POST stops at validation (422) and changes nothing, but for a
    # verification of the audit log, which takes no body: it is queued, and no worker runs here.
    return api.get(path) if method == "GET" else api.post(path, {})


def denials(db, method: str, path: str) -> int:
    return db.execute("SELECT count(*) FROM audit_log WHERE kind = 'access_denied' AND payload->>'method' = %s "
                      "AND payload->>'path' = %s", (method, path.split("?")[0])).fetchone()[0]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("method, rule", sorted(ACCESS))
def test_each_role_against_each_route(world, db, role, method, rule):
    params = world["params"]
    path = _PARAM.sub(lambda m: params[m.group(1)], rule)
    before = denials(db, method, path)
    reply = call(world["callers"][role], method, rule, params)
    if role in ACCESS[(method, rule)]:
        assert reply.status not in (401, 403), (role, method, rule, reply.status, reply.body)
        assert reply.status < 500, (role, method, rule, reply.status, reply.body)
    else:
        assert reply.status == 403 and reply.body["code"] == "forbidden", (role, method, rule, reply.status)
        assert set(reply.body["allowed"]) == set(ACCESS[(method, rule)]), (role, method, rule, reply.body)
        assert denials(db, method, path) == before + 1, "every denial leaves an audit record"


@pytest.mark.parametrize("method, rule", sorted(ACCESS))
def test_no_key_is_401(world, db, method, rule):
    reply = call(world["anonymous"], method, rule, world["params"])
    assert reply.status == 401 and reply.body["code"] == "unauthorized"


@pytest.mark.parametrize("method, rule", sorted(key for key, roles in ACCESS.items() if "terminal" in roles
                                                 and re.search(r"table_id|round_id|shoe_id|serial", key[1])))
def test_a_terminal_acts_only_on_its_own_table(world, method, rule):
    reply = call(world["stranger"], method, rule, world["params"])
    assert reply.status == 403 and reply.body["code"] == "wrong_table", (method, rule, reply.status)


def test_keys_over_http_created_listed_revoked_at_once(admin, compliance, as_key, db, new_table):
    table_id, _ = new_table()
    created = ok(admin.post("/v1/keys", {"role": "terminal", "table_id": table_id, "name": "pit 3 terminal"}), 201)
    secret = created["secret"]
    assert created["role"] == "terminal" and created["table_id"] == table_id and secret.startswith("pnt_")
    holder = as_key(secret)
    ok(holder.get(f"/v1/tables/{table_id}"), 200)

    listed = {entry["key_id"]: entry for entry in ok(compliance.get("/v1/access"), 200)}
    mine = listed[created["key_id"]]
    assert mine["role"] == "terminal" and mine["table_id"] == table_id and mine["created_by"]
    assert mine["last_used_at"] is not None and mine["revoked_at"] is None and "secret" not in mine

    revoked = ok(admin.post(f"/v1/keys/{created['key_id']}/revoke", {"reason": "terminal replaced"}), 200)
    assert revoked["revoked_at"] is not None
    refused = holder.get(f"/v1/tables/{table_id}")
    assert refused.status == 401 and refused.body["code"] == "key_revoked"
    again = admin.post(f"/v1/keys/{created['key_id']}/revoke", {})
    assert again.status == 409 and again.body["code"] == "key_revoked_already"
    assert admin.post(f"/v1/keys/{uuid.uuid4()}/revoke", {}).status == 404

    kinds = dict(db.execute("SELECT kind, payload FROM audit_log WHERE kind IN ('key_created', 'key_revoked') "
                            "AND payload->>'key_id' = %s", (created["key_id"],)).fetchall())
    assert kinds["key_created"]["role"] == "terminal" and kinds["key_revoked"]["reason"] == "terminal replaced"
    for table in ("audit_log", "idempotency_keys", "api_keys"):
        assert db.execute(f"SELECT count(*) FROM {table} t WHERE t::text LIKE %s", (f"%{secret}%",)).fetchone()[0] == 0


@pytest.mark.parametrize("body, field", [({"role": "terminal"}, "table_id"),
                                         ({"role": "operator", "table_id": "T1"}, "table_id"),
                                         ({"role": "croupier"}, "role"), ({}, "role")])
def test_a_key_is_refused_as_asked(admin, body, field):
    reply = admin.post("/v1/keys", body)
    assert reply.status == 422 and field in reply.body["errors"], reply.body


def test_a_terminal_key_for_no_table_is_404_naming_it(admin):
    reply = admin.post("/v1/keys", {"role": "terminal", "table_id": "NO-SUCH"})
    assert reply.status == 404 and reply.body["code"] == "table_not_found", reply.body
    assert "table_id" in reply.body["errors"], reply.body


def test_denials_keep_bodies_and_secrets_out_of_logs_and_audit(as_key, make_key, db, caplog):
    secret = make_key("compliance")
    marker = f"body-marker-{uuid.uuid4().hex}"
    with caplog.at_level(logging.DEBUG):
        reply = as_key(secret).post("/v1/keys", {"role": "admin", "name": marker})
        anonymous = as_key(f"pnt_{marker}").post("/v1/keys", {"role": "admin", "name": marker})
    assert reply.status == 403 and anonymous.status == 401
    logged = caplog.text
    assert marker not in logged and secret not in logged
    stored = db.execute("SELECT count(*) FROM audit_log WHERE payload::text LIKE %s OR payload::text LIKE %s",
                        (f"%{marker}%", f"%{secret}%")).fetchone()[0]
    assert stored == 0
    assert db.execute("SELECT count(*) FROM audit_log WHERE kind = 'access_denied' AND payload->>'path' = '/v1/keys' "
                      "AND payload->>'role' = 'compliance'").fetchone()[0] >= 1


@pytest.mark.parametrize("method, rule", sorted(key for key, roles in ACCESS.items() if key[1].startswith(
    ("/v1/slips", "/v1/drop-counts", "/v1/reports/table-games")) or key[1].endswith(
    ("/tray-counts", "/fills", "/credits", "/slips", "/buy-ins", "/drop-counts"))))
def test_no_key_acts_as_a_dealer_at_the_books(world, method, rule):
    """A dealer signs and records buy-ins at the table's screen as themselves: no key is a dealer's,
    so every accounting endpoint names only key roles as the ones that may call it."""
    reply = call(world["callers"]["admin"], method, rule, world["params"])
    assert "dealer" not in ACCESS[(method, rule)]
    if reply.status == 403:
        assert "dealer" not in reply.body["allowed"], (method, rule, reply.body)


def test_a_key_is_never_a_dealers(world):
    reply = call(world["callers"]["admin"], "POST", "/v1/keys", {})
    refused = world["callers"]["admin"].post("/v1/keys", {"role": "dealer", "name": "a dealer"})
    assert reply.status == 422 and refused.status == 422 and "role" in refused.body["errors"]
