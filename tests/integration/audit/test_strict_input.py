"""Strict input: repeated keys, NaN, oversize or mistyped bodies, 405's Allow, one-line names and reasons."""
from __future__ import annotations

import json

import psycopg
import pytest

from service.store.repositories.keys import KeysRepository
from tests.support.app_fixtures import chained_key

pytestmark = pytest.mark.integration


@pytest.fixture
def key(db_url):
    def make(role: str, table: str | None = None) -> dict[str, str]:
        with psycopg.connect(db_url) as conn:
            secret = chained_key(conn, role, table, "test")
        return {"Authorization": f"Bearer {secret}"}
    return make


def post(client, path: str, text: str, headers: dict, content_type: str = "application/json"):
    return client.post(path, data=text, headers={**headers, "Content-Type": content_type})


@pytest.fixture
def table(client, key):
    """(table id, a terminal's headers) for a table with a virtual shoe open."""
    admin = key("admin")
    assert client.post("/v1/tables", json={"table_id": "S1", "rules": "canberra", "paytable": "canberra-standard"},
                       headers=admin).status_code == 201
    terminal = key("terminal", "S1")
    assert client.post("/v1/tables/S1/shoes", json={"mode": "virtual"}, headers=terminal).status_code == 201
    return "S1", terminal


def test_a_repeated_key_is_refused_naming_it(client, table, admin):
    table_id, terminal = table
    reply = post(client, f"/v1/tables/{table_id}/rounds",
                 '{"wagers": [{"seat": 1, "wager": 1000, "wager": 2000}]}', terminal)
    assert reply.status_code == 400, reply.get_json()
    assert reply.get_json()["code"] == "duplicate_key", reply.get_json()
    assert "wager" in reply.get_json()["errors"] and "'wager'" in reply.get_json()["message"], reply.get_json()
    assert admin.execute("SELECT count(*) FROM rounds").fetchone() == (0,)
    opened = client.post(f"/v1/tables/{table_id}/rounds", json={"wagers": [{"seat": 1, "wager": 1000}]},
                         headers=terminal).get_json()
    reply = post(client, f"/v1/rounds/{opened['round_id']}/actions",
                 '{"seat": 1, "hand": 0, "action": "stand", "action": "hit"}', terminal)
    assert reply.status_code == 400 and "action" in reply.get_json()["errors"], reply.get_json()
    after = client.get(f"/v1/rounds/{opened['round_id']}", headers=terminal).get_json()
    assert after["revision"] == opened["revision"], "a refused decision changes nothing"


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_non_finite_numbers_are_refused(client, table, number):
    table_id, terminal = table
    reply = post(client, f"/v1/tables/{table_id}/rounds", f'{{"wagers": [{{"seat": 1, "wager": {number}}}]}}',
                 terminal)
    assert reply.status_code == 400, reply.get_json()
    assert number.lstrip("-") in json.dumps(reply.get_json()["errors"]), reply.get_json()


def test_a_json_body_sent_as_another_type_is_415(client, table):
    table_id, terminal = table
    body = json.dumps({"wagers": [{"seat": 1, "wager": 1000}]})
    for content_type in ("text/plain", "application/x-www-form-urlencoded", ""):
        reply = post(client, f"/v1/tables/{table_id}/rounds", body, terminal, content_type)
        assert reply.status_code == 415, (content_type, reply.get_json())
        assert reply.get_json()["code"] == "unsupported_media_type"


def test_a_body_over_the_limit_is_413_before_it_is_read(client, table):
    table_id, terminal = table
    big = json.dumps({"wagers": [{"seat": 1, "wager": 1000}], "pad": "x" * (1 << 20)})
    reply = post(client, f"/v1/tables/{table_id}/rounds", big, terminal)
    assert reply.status_code == 413 and reply.get_json()["code"] == "request_entity_too_large", reply.get_json()


def chunked(client, path: str, body: bytes, headers: dict, content_type: str = "application/json"):
    """A body sent as a server hands a chunked one on: no Content-Length, the stream ends where it does."""
    return client.post(path, data=body, headers={**headers, "Content-Type": content_type,
                                                 "Transfer-Encoding": "chunked"},
                       environ_overrides={"wsgi.input_terminated": True})


def test_a_chunked_body_over_the_limit_is_413_not_cut_short(client, table, admin):
    table_id, terminal = table
    big = json.dumps({"wagers": [{"seat": 1, "wager": 1000}], "pad": "x" * (3 << 20)}).encode()
    reply = chunked(client, f"/v1/tables/{table_id}/rounds", big, terminal)
    assert reply.status_code == 413 and reply.get_json()["code"] == "request_entity_too_large", reply.get_json()
    form = b"username=someone&password=" + b"x" * (3 << 20)
    page = chunked(client, "/console/login", form, {}, "application/x-www-form-urlencoded")
    assert page.status_code == 413 and "Too much sent" in page.get_data(as_text=True)
    assert admin.execute("SELECT count(*) FROM rounds").fetchone() == (0,)


def test_a_chunked_body_within_the_limit_is_read_whole(client, table):
    table_id, terminal = table
    body = json.dumps({"wagers": [{"seat": 1, "wager": 1000}]}).encode()
    reply = chunked(client, f"/v1/tables/{table_id}/rounds", body, terminal)
    assert reply.status_code == 201, reply.get_json()


def test_deep_json_is_400_not_500(client, table):
    table_id, terminal = table
    reply = post(client, f"/v1/tables/{table_id}/rounds", "[" * 100_000 + "]" * 100_000, terminal)
    assert reply.status_code == 400


def test_every_405_carries_allow(client, app_routes):
    for rule, methods in app_routes:
        wrong = next(m for m in ("DELETE", "PUT", "PATCH") if m not in methods)
        reply = client.open(rule, method=wrong)
        assert reply.status_code == 405, (rule, wrong)
        allowed = {m.strip() for m in reply.headers.get("Allow", "").split(",")}
        assert methods <= allowed, (rule, reply.headers.get("Allow"))


@pytest.fixture
def app_routes(client):
    """(a path, its methods) for every API route without parameters in the path (the console's and
    the dealer's screen's forms are CSRF-checked before routing answers)."""
    return [(rule.rule, set(rule.methods) - {"HEAD", "OPTIONS"}) for rule in client.application.url_map.iter_rules()
            if "<" not in rule.rule and not rule.rule.startswith(("/console", "/dealer"))]


@pytest.mark.parametrize("text", ["two\nlines", "tab\there", "right\u202eto left", "c1 \x85 next line",
                                  "mark \u200f", "del \x7f"])
def test_key_names_and_reasons_are_one_line_of_plain_text(client, key, text):
    admin = key("admin")
    reply = client.post("/v1/keys", json={"role": "compliance", "name": text}, headers=admin)
    assert reply.status_code == 422 and "name" in reply.get_json()["errors"], reply.get_json()
    created = client.post("/v1/keys", json={"role": "compliance", "name": "plain ünïcode ✓"}, headers=admin)
    assert created.status_code == 201
    reply = client.post(f"/v1/keys/{created.get_json()['key_id']}/revoke", json={"reason": text},
                        headers={**admin, "Idempotency-Key": "r1"})
    assert reply.status_code == 422 and "reason" in reply.get_json()["errors"], reply.get_json()


def test_keys_list_stays_one_line_a_key_for_names_stored_before(admin, db_url, pontoon):
    with psycopg.connect(db_url) as conn:   # as a name stored before names were refused such text
        KeysRepository(conn).create(role="compliance", table_id=None, name="two\nlines \u202eevil", created_by="test")
    listed = pontoon("keys", "list")
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert len(lines) == 2 and "two\\nlines \\u202eevil" in lines[1], lines
