"""A player-banked table's rules: created on any shipped variant, and changed between shoes under
the same four-eyes control as a paytable (proposed, approved by another operator, applied as the
next shoe opens), every step in the table's audit chain."""
from __future__ import annotations

import uuid

import pytest

from service.games import family_of
from service.rules import load_rules
from tests.conftest import ROOT
from tests.support.api_client import ok

PLAYER_BANKED = sorted(path.stem for path in (ROOT / "rules_config").glob("*.yaml")
                       if family_of(load_rules(path.stem)).game == "traditional")
REASON = {"reason": "the card room's spring schedule"}


@pytest.fixture
def operators(as_key, make_key):
    return as_key(make_key("operator")), as_key(make_key("operator"))


def _audit(db, table_id: str, kind: str) -> list[dict]:
    return [row[0] for row in db.execute("SELECT payload FROM audit_log WHERE table_id = %s AND kind = %s ORDER BY seq",
                                         (table_id, kind))]


@pytest.mark.parametrize("rules", PLAYER_BANKED)
def test_a_table_is_created_on_every_shipped_rules_file_of_the_game(admin, rules):
    table_id = f"V-{uuid.uuid4().hex[:10]}"
    created = ok(admin.post("/v1/tables", {"table_id": table_id, "rules": rules}), 201)
    assert created["rules"] == f"{rules}@1" and created["game"] == "traditional"


def test_the_shipped_files_cover_every_house_variant():
    assert {"british-royal-pontoon", "british-burn-13", "british-burn-14", "british-natural-beats-plain",
            "british-banker-doubles", "british-no-buy-fifth-on-eleven", "british-ace-picture-pontoon",
            "british-pays-three", "shoot-pontoon", "british-school-16-aces"} <= set(PLAYER_BANKED)


def test_a_change_is_proposed_approved_by_another_operator_and_applies_at_the_next_shoe(new_table, operators, db):
    table_id, terminal = new_table("british-traditional", "physical")
    first, second = operators
    proposed = ok(first.post(f"/v1/tables/{table_id}/rules", {"rules": "british-royal-pontoon", **REASON}), 201)
    waiting = proposed["waiting"]
    assert waiting["status"] == "proposed" and waiting["to_rules"] == "british-royal-pontoon"
    assert waiting["changes"] == [{"path": "royal_pontoon", "change": "changed", "before": False, "after": True}]
    assert "british-royal-pontoon" in proposed["choices"] and "british-traditional" not in proposed["choices"]

    own = first.post(f"/v1/tables/{table_id}/rules/{waiting['change_id']}/approve", REASON)
    assert (own.status, own.body["code"]) == (403, "own_proposal")
    assert _audit(db, table_id, "table_rules_approval_refused")[-1]["change_id"] == waiting["change_id"]
    again = first.post(f"/v1/tables/{table_id}/rules", {"rules": "british-burn-13", **REASON})
    assert (again.status, again.body["code"]) == (409, "rules_change_waiting")

    approved = ok(second.post(f"/v1/tables/{table_id}/rules/{waiting['change_id']}/approve", REASON), 200)
    assert approved["waiting"]["status"] == "approved" and approved["next_shoe_rules"] == "british-royal-pontoon"
    assert approved["rules"] == "british-traditional@1"
    # The shoe in play keeps its rules: a round opened now plays British rules.
    before = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"players": [{"seat": 1, "stake": 100}]}), 201)
    assert before["rules"] == "british-traditional@1"
    refused = terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": "physical"})
    assert (refused.status, refused.body["code"]) == (409, "round_open")
    _finish(terminal, before["round_id"])

    shoe = ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": "physical"}), 201)
    table = ok(terminal.get(f"/v1/tables/{table_id}"), 200)
    assert table["rules"] == "british-royal-pontoon@1"
    history = ok(first.get(f"/v1/tables/{table_id}/rules"), 200)
    assert history["waiting"] is None and history["changes"][-1]["status"] == "applied"
    assert history["changes"][-1]["applied_shoe_id"] == shoe["shoe_id"]
    applied = _audit(db, table_id, "table_rules_applied")[-1]
    assert (applied["from_rules"], applied["to_rules"], applied["shoe_id"]) == \
        ("british-traditional", "british-royal-pontoon", shoe["shoe_id"])
    assert [record["change_id"] for record in _audit(db, table_id, "table_rules_proposed")] == [waiting["change_id"]]
    decided = _audit(db, table_id, "table_rules_approved")[-1]
    assert decided["proposed_by"] != decided["after"]["decided_by"] and decided["changes"] == waiting["changes"]

    # Three sevens now win three times the stake.
    royal = _play(terminal, table_id, [{"seat": 1, "stake": 100}], ["7H", "5C", "7D", "9S"],
                  [({"seat": 1, "hand": 0, "action": "twist"}, ["7C"]), ({"seat": 0, "action": "stay"}, [])])
    assert royal["rules"] == "british-royal-pontoon@1"
    assert [t for t in royal["transfers"] if t["kind"] == "royal-pontoon"][0]["amount"] == 300


def _finish(terminal, round_id: str) -> None:
    for card in ("9H", "5C", "8D", "4S"):
        ok(terminal.post(f"/v1/rounds/{round_id}/cards", {"card": card}), 200)
    ok(terminal.post(f"/v1/rounds/{round_id}/actions", {"seat": 1, "hand": 0, "action": "stick"}), 200)
    assert ok(terminal.post(f"/v1/rounds/{round_id}/actions", {"seat": 0, "action": "stay"}), 200)["status"] == \
        "complete"


def _play(terminal, table_id, players, deal, plays) -> dict:
    state = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"players": players}), 201)
    for card in deal:
        state = ok(terminal.post(f"/v1/rounds/{state['round_id']}/cards", {"card": card}), 200)
    for action, cards in plays:
        state = ok(terminal.post(f"/v1/rounds/{state['round_id']}/actions", action), 200)
        for card in cards:
            state = ok(terminal.post(f"/v1/rounds/{state['round_id']}/cards", {"card": card}), 200)
    return state


def test_what_a_table_cannot_change_to_is_refused(admin, operators):
    first, second = operators
    table_id = f"V-{uuid.uuid4().hex[:10]}"
    ok(admin.post("/v1/tables", {"table_id": table_id, "rules": "shoot-pontoon",
                                 "limits": {"kitty": {"min": 1000, "max": 5000}}}), 201)
    for rules, status, code in (("canberra", 409, "wrong_game"), ("no-such-rules", 422, "invalid_request"),
                                ("shoot-pontoon", 409, "same_rules"),
                                ("british-traditional", 409, "limits_refused")):   # its kitty limit
        refused = first.post(f"/v1/tables/{table_id}/rules", {"rules": rules, **REASON})
        assert (refused.status, refused.body["code"]) == (status, code), (rules, refused.body)
        assert "rules" in refused.body.get("errors", {}) or refused.body["code"] == "limits_refused"
    blank = first.post(f"/v1/tables/{table_id}/rules", {"rules": "british-traditional", "reason": "  "})
    assert blank.status == 422 and "reason" in blank.body["errors"]
    assert first.post("/v1/tables/NO-SUCH/rules", {"rules": "british-traditional", **REASON}).status == 404


def test_a_rejected_change_never_applies_and_another_may_be_proposed(new_table, operators):
    table_id, terminal = new_table("british-traditional", "physical")
    first, second = operators
    change = ok(first.post(f"/v1/tables/{table_id}/rules", {"rules": "british-burn-13", **REASON}), 201)["waiting"]
    ok(second.post(f"/v1/tables/{table_id}/rules/{change['change_id']}/approve", REASON), 200)
    rejected = ok(first.post(f"/v1/tables/{table_id}/rules/{change['change_id']}/reject", REASON), 200)
    assert rejected["waiting"] is None and rejected["changes"][-1]["status"] == "rejected"
    ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": "physical"}), 201)
    assert ok(terminal.get(f"/v1/tables/{table_id}"), 200)["rules"] == "british-traditional@1"
    late = second.post(f"/v1/tables/{table_id}/rules/{change['change_id']}/approve", REASON)
    assert (late.status, late.body["code"]) == (409, "not_waiting")
    ok(first.post(f"/v1/tables/{table_id}/rules", {"rules": "british-burn-14", **REASON}), 201)


def test_leaving_shoot_pontoon_hands_the_kitty_back_to_the_banker(new_table, operators, db):
    table_id, terminal = new_table("shoot-pontoon", "physical")
    first, second = operators
    ok(terminal.post(f"/v1/tables/{table_id}/kitty", {"action": "put_up", "amount": 1500}), 201)
    change = ok(first.post(f"/v1/tables/{table_id}/rules", {"rules": "british-traditional", **REASON}), 201)["waiting"]
    ok(second.post(f"/v1/tables/{table_id}/rules/{change['change_id']}/approve", REASON), 200)
    ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": "physical"}), 201)
    bank = ok(terminal.get(f"/v1/tables/{table_id}"), 200)["bank"]
    assert bank["shoot"] is False and bank["kitty"] == 0
    assert db.execute("SELECT kind, from_seat, to_seat, amount FROM table_transfers WHERE table_id = %s "
                      "ORDER BY seq", (table_id,)).fetchall() == [("kitty-put-up", 0, -1, 1500),
                                                                ("kitty-taken", -1, 0, 1500)]
