"""Refusals as JSON {code, status, message, errors?}: 404s, 422s naming each bad field, 409s for
decisions the rules refuse (with the legal ones), refused cards audited, and never a 500 for a
malformed body."""
from __future__ import annotations

import json
import uuid

import pytest

from tests.support.api_client import ok

WAGERS = {"wagers": [{"seat": 1, "wager": 1000}, {"seat": 2, "wager": 1000}]}


def _error(reply, status: int, code: str | None = None) -> dict:
    assert reply.status == status, (reply.status, reply.body)
    assert set(reply.body) >= {"code", "status", "message"} and reply.body["status"] == status
    if code:
        assert reply.body["code"] == code, reply.body
    return reply.body


def test_unknown_things_are_404(admin):
    _error(admin.get(f"/v1/rounds/{uuid.uuid4()}"), 404, "not_found")
    _error(admin.get(f"/v1/rounds/{uuid.uuid4()}/transcript"), 404, "not_found")
    _error(admin.get("/v1/tables/no-such-table"), 404, "not_found")
    _error(admin.get("/v1/tables/no-such-table/shoes/current"), 404, "not_found")
    _error(admin.get(f"/v1/shoes/{uuid.uuid4()}"), 404, "not_found")
    _error(admin.get("/v1/rounds/not-a-uuid"), 404, "not_found")
    _error(admin.get("/v1/tables/bad%00id"), 404, "not_found")
    _error(admin.get("/v1/nothing"), 404, "not_found")


def test_bad_fields_are_named(admin, new_table):
    body = _error(admin.post("/v1/tables", {"table_id": "", "rules": 7, "colour": "red"}), 422, "invalid_request")
    assert set(body["errors"]) == {"table_id", "rules", "colour"}
    body = _error(admin.post("/v1/tables", {"table_id": "T-bad-rules", "rules": "nope", "paytable": "nope",
                                            "limits": {"main": {"min": 900, "max": 800}}}), 422, "invalid_table")
    assert set(body["errors"]) == {"rules", "paytable", "limits.main"}
    table_id, terminal = new_table(shoe="physical")
    body = _error(terminal.post(f"/v1/tables/{table_id}/rounds",
                                {"wagers": [{"seat": "1", "wager": 10.5, "pair_bet": True}]}), 422)
    assert set(body["errors"]["wagers"]["0"]) == {"seat", "wager", "pair_bet"}
    _error(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": "plastic"}), 422)


def test_a_table_id_is_taken_once(admin):
    body = {"table_id": "T-" + uuid.uuid4().hex[:8], "rules": "canberra", "paytable": "canberra-standard"}
    ok(admin.post("/v1/tables", body), 201)
    _error(admin.post("/v1/tables", body), 409, "table_exists")


@pytest.mark.parametrize("raw", [
    "{not json", "[]", "null", "17", '"card"', '{"card": null}', '{"card": 7}', '{"card": ["7H"]}',
    '{"card": "7H", "extra": 1}', '{"card": "ZZ"}', '{"card": "\\u0000H"}', "\xff\xfe", "",
])
def test_malformed_card_bodies_are_never_500(client, new_table, make_key, raw):
    table_id, terminal = new_table(shoe="physical")
    round_id = ok(terminal.post(f"/v1/tables/{table_id}/rounds", WAGERS), 201)["round_id"]
    response = client.post(f"/v1/rounds/{round_id}/cards", data=raw.encode("utf-8", "surrogateescape"),
                           headers={**terminal.headers(), "Content-Type": "application/json"})
    assert response.status_code in (400, 422), response.get_data(as_text=True)
    assert response.get_json()["status"] == response.status_code


@pytest.mark.parametrize("body", [
    {"seat": 1}, {"seat": 1, "action": 3}, {"seat": 1, "action": "fold"}, {"seat": 1, "action": "hit", "hand": -1},
    {"seat": 1, "action": "hit", "amount": "100"}, {"seat": 10**30, "action": "hit"},
    {"seat": 1, "action": "hit", "amount": 10**30}, {"seat": 1, "action": "x" * 100},
])
def test_malformed_actions_are_422(new_table, body):
    table_id, terminal = new_table(shoe="virtual")
    round_id = ok(terminal.post(f"/v1/tables/{table_id}/rounds", WAGERS), 201)["round_id"]
    _error(terminal.post(f"/v1/rounds/{round_id}/actions", body), 422, "invalid_request")


def test_insurance_for_a_hand_is_422_naming_the_hand(new_table):
    table_id, terminal = new_table(shoe="virtual")
    round_id = ok(terminal.post(f"/v1/tables/{table_id}/rounds", WAGERS), 201)["round_id"]
    body = {"seat": 1, "action": "insurance", "hand": 0, "amount": 100}
    refused = _error(terminal.post(f"/v1/rounds/{round_id}/actions", body), 422, "invalid_request")
    assert list(refused["errors"]) == ["hand"] and "seat" in refused["errors"]["hand"][0]


def test_a_refused_decision_is_409_with_the_legal_ones_and_changes_nothing(new_table):
    table_id, terminal = new_table(shoe="physical")
    state = ok(terminal.post(f"/v1/tables/{table_id}/rounds", WAGERS), 201)
    round_id = state["round_id"]
    early = _error(terminal.post(f"/v1/rounds/{round_id}/actions", {"seat": 1, "action": "hit"}), 409,
                   "decision_refused")
    assert early["legal_actions"] == []
    for card in ("9H", "5C", "3D", "8D", "2S"):   # seat 1: 9 8, seat 2: 5 2, upcard 3
        state = ok(terminal.post(f"/v1/rounds/{round_id}/cards", {"card": card}), 200)
    assert state["in_turn"]["seat"] == 1 and state["awaiting"] == "decision"
    before = ok(terminal.get(f"/v1/rounds/{round_id}"), 200)
    cases = [({"seat": 2, "action": "hit"}, "out of turn"),
             ({"seat": 1, "hand": 1, "action": "hit"}, "out of turn"),
             ({"seat": 1, "action": "double", "amount": 5000}, "outside"),
             ({"seat": 1, "action": "double", "amount": 100}, "outside"),
             ({"seat": 1, "action": "surrender"}, "surrender"),
             ({"seat": 1, "action": "insurance", "amount": 100}, "insurance"),
             ({"seat": 1, "action": "forfeit"}, "forfeit"),
             ({"seat": 0, "action": "hit"}, "no banker")]
    for body, reason in cases:
        refused = _error(terminal.post(f"/v1/rounds/{round_id}/actions", body), 409, "decision_refused")
        assert reason in refused["message"], (body, refused)
        assert {(a["action"], a.get("min_amount"), a.get("max_amount")) for a in refused["legal_actions"]} == \
            {("hit", None, None), ("stand", None, None), ("double", 500, 1000)}
    card = _error(terminal.post(f"/v1/rounds/{round_id}/cards", {"card": "4H"}), 409, "not_awaiting_card")
    assert card["legal_actions"]
    assert ok(terminal.get(f"/v1/rounds/{round_id}"), 200) == before


def test_a_card_the_shoe_cannot_hold_is_refused_and_audited(new_table, db):
    table_id, terminal = new_table(shoe="physical")
    round_id = ok(terminal.post(f"/v1/tables/{table_id}/rounds", WAGERS), 201)["round_id"]
    ten = _error(terminal.post(f"/v1/rounds/{round_id}/cards", {"card": "TH"}), 409, "card_refused")
    assert "removed" in ten["message"]
    for _ in range(4):
        state = ok(terminal.post(f"/v1/rounds/{round_id}/cards", {"card": "9H"}), 200)
    fifth = _error(terminal.post(f"/v1/rounds/{round_id}/cards", {"card": "9h"}), 409, "card_refused")
    assert "copies" in fifth["message"]
    records = db.execute("SELECT payload, actor FROM audit_log WHERE kind = 'card_refused' AND round_id = %s "
                         "ORDER BY seq", (round_id,)).fetchall()
    assert [r[0]["card"] for r in records] == ["TH", "9h"] and all(r[1] for r in records)
    assert ok(terminal.get(f"/v1/rounds/{round_id}"), 200) == state, "a refused card changes nothing"


def test_errors_are_json_even_for_methods_and_media(client, admin):
    response = client.delete("/v1/tables", headers=admin.headers())
    assert response.status_code == 405 and response.get_json()["code"] == "method_not_allowed"
    assert "POST" in response.headers["Allow"]
    response = client.post("/v1/tables", data="table_id=x", headers={**admin.headers(),
                           "Content-Type": "application/x-www-form-urlencoded"})
    assert response.status_code == 415 and "Content-Type" in response.get_json()["errors"]
    assert json.loads(response.get_data())["status"] == 415


DEEP = "[" * 5000 + "]" * 5000


@pytest.mark.parametrize("idempotency_key", [None, "deep-1"])
def test_json_nested_past_the_recursion_limit_is_malformed_not_a_500(client, admin, idempotency_key):
    headers = {**admin.headers(), "Content-Type": "application/json"}
    if idempotency_key:
        headers["Idempotency-Key"] = f"{idempotency_key}-{uuid.uuid4()}"
    response = client.post("/v1/keys", data=DEEP, headers=headers)
    assert response.status_code == 400, response.get_data(as_text=True)
    assert response.get_json()["code"] == "malformed_request"


@pytest.mark.parametrize("text", ["a\u0000b", "\ud800", "ok\udfff"])
def test_text_no_column_can_hold_is_named_not_a_500(client, admin, db, text):
    before = db.execute("SELECT count(*) FROM api_keys").fetchone()[0]
    raw = json.dumps({"role": "compliance", "name": text})    # JSON's \u escapes carry both
    response = client.post("/v1/keys", data=raw, headers={**admin.headers(), "Content-Type": "application/json"})
    assert response.status_code == 422, response.get_data(as_text=True)
    assert set(response.get_json()["errors"]) == {"name"}
    key_id = ok(admin.post("/v1/keys", {"role": "compliance", "name": "to revoke"}), 201)["key_id"]
    response = client.post(f"/v1/keys/{key_id}/revoke", data=json.dumps({"reason": text}),
                           headers={**admin.headers(), "Content-Type": "application/json"})
    assert response.status_code == 422, response.get_data(as_text=True)
    assert set(response.get_json()["errors"]) == {"reason"}
    assert db.execute("SELECT count(*) FROM api_keys").fetchone()[0] == before + 1   # only the one to revoke
    assert db.execute("SELECT revoked_at FROM api_keys WHERE key_id = %s", (key_id,)).fetchone()[0] is None


@pytest.mark.parametrize("table_id", ["T1\n", "T1\r\n", "\nT1"])
def test_a_table_id_must_be_the_pattern_whole_not_up_to_a_final_newline(admin, db, table_id):
    body = _error(admin.post("/v1/tables", {"table_id": table_id, "rules": "canberra",
                                            "paytable": "canberra-standard"}), 422, "invalid_request")
    assert set(body["errors"]) == {"table_id"}
    assert db.execute("SELECT count(*) FROM tables WHERE table_id = %s", (table_id,)).fetchone()[0] == 0


@pytest.mark.parametrize("day", ["9999-12-31", "0001-01-01"])
def test_a_report_day_at_the_calendars_ends_is_refused_not_a_500(as_key, make_key, day):
    body = _error(as_key(make_key("compliance")).get(f"/v1/reports/tables?date={day}"), 422)
    assert "date" in json.dumps(body["errors"])
