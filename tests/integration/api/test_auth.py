"""Keys and roles: 401 without a live key, 403 for the wrong role or table, each refusal audited
(never with the secret), revocation biting at once, last_used_at kept."""
from __future__ import annotations

import uuid

import pytest

from tests.support.api_client import ok

WAGERS = {"wagers": [{"seat": 1, "wager": 1000}]}


def _denials(db, path: str) -> list[dict]:
    return [p for (p,) in db.execute("SELECT payload FROM audit_log WHERE kind = 'access_denied' "
                                     "AND payload->>'path' = %s ORDER BY id", (path,))]


@pytest.mark.parametrize("authorization", [None, "Bearer", "Bearer nope", "Basic abc", "pnt_x"])
def test_no_valid_key_is_401_and_counted_not_chained(client, db, new_table, authorization):
    table_id, _ = new_table()
    path = f"/v1/tables/{table_id}"
    counted = db.execute("SELECT COALESCE(sum(refused), 0) FROM access_refusals").fetchone()[0]
    response = client.get(path, headers={"Authorization": authorization} if authorization else {})
    assert response.status_code == 401
    body = response.get_json()
    assert body["status"] == 401 and body["code"] == "unauthorized" and body["message"]
    assert _denials(db, path) == []   # summed per source and minute instead
    assert db.execute("SELECT sum(refused) FROM access_refusals").fetchone()[0] == counted + 1


def test_an_anonymous_post_learns_nothing_from_its_body(client, new_table):
    table_id, _ = new_table()
    response = client.post(f"/v1/tables/{table_id}/rounds", data="{not json")
    assert response.status_code == 401


def test_wrong_role_is_403_and_audited_without_the_secret(as_key, make_key, new_table, db):
    table_id, _ = new_table()
    secret = make_key("compliance")
    reply = as_key(secret).post(f"/v1/tables/{table_id}/shoes", {"mode": "virtual"})
    assert reply.status == 403 and reply.body["code"] == "forbidden"
    # The refusal says who may: in words, and by role in the body.
    assert reply.body["allowed"] == ["terminal"]
    assert reply.body["message"] == "a compliance key may not do this: only terminal keys may"
    denial = _denials(db, f"/v1/tables/{table_id}/shoes")[-1]
    assert denial["role"] == "compliance" and denial["key_id"] and denial["method"] == "POST"
    stored = db.execute("SELECT payload::text FROM audit_log WHERE kind = 'access_denied'").fetchall()
    assert not any(secret in text or "virtual" in text for (text,) in stored), "no secret, no body"


def test_a_terminal_is_bound_to_its_table(new_table, db):
    table_a, terminal_a = new_table(shoe="virtual")
    table_b, terminal_b = new_table(shoe="virtual")
    round_b = ok(terminal_b.post(f"/v1/tables/{table_b}/rounds", WAGERS), 201)["round_id"]
    for reply in (terminal_a.get(f"/v1/tables/{table_b}"),
                  terminal_a.post(f"/v1/tables/{table_b}/rounds", WAGERS),
                  terminal_a.get(f"/v1/rounds/{round_b}"),
                  terminal_a.post(f"/v1/rounds/{round_b}/actions", {"seat": 1, "action": "stand"})):
        assert reply.status == 403 and reply.body["code"] == "wrong_table"
    assert ok(terminal_a.get(f"/v1/tables/{table_a}"), 200)["table_id"] == table_a
    unknown = terminal_a.get(f"/v1/rounds/{uuid.uuid4()}")
    assert unknown.status == 404


def test_only_admins_and_operators_create_tables(as_key, make_key, new_table):
    table_id, terminal = new_table()
    body = {"table_id": "X-" + uuid.uuid4().hex[:8], "rules": "canberra", "paytable": "canberra-standard"}
    assert terminal.post("/v1/tables", body).status == 403
    assert as_key(make_key("supervisor")).post("/v1/tables", body).status == 403
    assert as_key(make_key("operator")).post("/v1/tables", body).status == 201


def test_revocation_bites_at_once_and_last_used_is_kept(as_key, make_key, new_table, db):
    table_id, _ = new_table()
    secret = make_key("supervisor")
    reader = as_key(secret)
    ok(reader.get(f"/v1/tables/{table_id}"), 200)
    key_id, last_used = db.execute("SELECT key_id, last_used_at FROM api_keys WHERE key_hash = "
                                   "encode(sha256(%s::bytea), 'hex')", (secret.encode(),)).fetchone()
    assert last_used is not None
    db.execute("UPDATE api_keys SET revoked_at = now() WHERE key_id = %s", (key_id,))
    refused = reader.get(f"/v1/tables/{table_id}")
    assert refused.status == 401 and refused.body["code"] == "key_revoked"
    assert _denials(db, f"/v1/tables/{table_id}")[-1]["key_id"] == str(key_id)


def test_keys_are_stored_as_hashes_only(make_key, db):
    secret = make_key("admin")
    rows = db.execute("SELECT key_hash FROM api_keys").fetchall()
    assert all(secret not in h for (h,) in rows)
    assert any(h == __import__("hashlib").sha256(secret.encode()).hexdigest() for (h,) in rows)
