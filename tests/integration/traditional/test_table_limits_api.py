"""A player-banked table's own limits through the API: checked against the game when the table is
made, shown with their figures, enforced on every stake, buy, shoot bet and kitty, and carried in
the round's transcript; and its physical pack deals no card twice before it has gone round."""
from __future__ import annotations

import uuid

from tests.support.api_client import ok

DOLLARS_5_TO_20 = {"min": 500, "max": 2000}


def _table(admin, as_key, make_key, rules: str, limits: dict, shoe: str = "physical"):
    table_id = f"L-{uuid.uuid4().hex[:10]}"
    created = ok(admin.post("/v1/tables", {"table_id": table_id, "rules": rules, "limits": limits}), 201)
    terminal = as_key(make_key("terminal", table_id))
    ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": shoe}), 201)
    return table_id, terminal, created


def test_a_tables_main_limit_is_its_stake_and_holds(admin, as_key, make_key):
    table_id, terminal, created = _table(admin, as_key, make_key, "british-traditional", {"main": DOLLARS_5_TO_20})
    assert created["limits"] == {"stake": DOLLARS_5_TO_20, "buy": {"min": 500, "max": 4000}}
    assert ok(terminal.get(f"/v1/tables/{table_id}"), 200)["limits"] == created["limits"]
    for stake in (300, 5000):
        refused = terminal.post(f"/v1/tables/{table_id}/rounds", {"players": [{"seat": 1, "stake": stake}]})
        assert (refused.status, refused.body["code"]) == (409, "wager_refused"), refused.body
        assert f"stake {stake} is outside the limits 500 to 2000" in refused.body["message"]
    state = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"players": [{"seat": 1, "stake": 1000}]}), 201)
    transcript = ok(terminal.get(f"/v1/rounds/{state['round_id']}/transcript"), 200)
    assert transcript["limits"] == {"stake": DOLLARS_5_TO_20}


def test_a_limit_for_a_bet_the_game_has_not_is_refused(admin):
    for rules, limits, field in (("british-traditional", {"pair_bet": DOLLARS_5_TO_20}, "limits.pair_bet"),
                                 ("british-traditional", {"kitty": DOLLARS_5_TO_20}, "limits.kitty"),
                                 ("shoot-pontoon", {"main": DOLLARS_5_TO_20, "stake": DOLLARS_5_TO_20},
                                  "limits.main")):
        refused = admin.post("/v1/tables", {"table_id": f"L-{uuid.uuid4().hex[:10]}", "rules": rules,
                                            "limits": limits})
        assert (refused.status, refused.body["code"]) == (409, "limits_refused"), refused.body
        assert field in refused.body["errors"]
    upside_down = admin.post("/v1/tables", {"table_id": f"L-{uuid.uuid4().hex[:10]}", "rules": "british-traditional",
                                            "limits": {"stake": {"min": 2000, "max": 500}}})
    assert upside_down.status == 422 and "limits.stake" in upside_down.body["errors"]


def test_the_kitty_and_shoot_bets_are_held_to_the_tables_limits(admin, as_key, make_key):
    table_id, terminal, created = _table(admin, as_key, make_key, "shoot-pontoon",
                                         {"kitty": {"min": 1000, "max": 3000}, "shoot": {"min": 200, "max": 500}})
    assert created["limits"]["kitty"] == {"min": 1000, "max": 3000}
    assert created["limits"]["shoot"] == {"min": 200, "max": 500}
    refused = terminal.post(f"/v1/tables/{table_id}/kitty", {"action": "put_up", "amount": 5000})
    assert (refused.status, refused.body["code"]) == (409, "kitty_refused"), refused.body
    assert "between 1000 and 3000" in refused.body["message"]
    ok(terminal.post(f"/v1/tables/{table_id}/kitty", {"action": "put_up", "amount": 3000}), 201)
    refused = terminal.post(f"/v1/tables/{table_id}/rounds", {"players": [{"seat": 1, "stake": 100, "shoot": 600}]})
    assert (refused.status, refused.body["code"]) == (409, "wager_refused")
    assert "outside the limits 200 to 500" in refused.body["message"]


def test_a_buy_outside_the_tables_buy_limits_is_refused_with_the_range(admin, as_key, make_key):
    table_id, terminal, _ = _table(admin, as_key, make_key, "british-traditional", {"buy": {"min": 100, "max": 150}})
    state = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"players": [{"seat": 1, "stake": 100}]}), 201)
    for card in ("2H", "9C", "3D", "8S"):
        state = ok(terminal.post(f"/v1/rounds/{state['round_id']}/cards", {"card": card}), 200)
    assert [a for a in state["legal_actions"] if a["action"] == "buy"][0]["max_amount"] == 150
    refused = terminal.post(f"/v1/rounds/{state['round_id']}/actions",
                            {"seat": 1, "hand": 0, "action": "buy", "amount": 200})
    assert (refused.status, refused.body["code"]) == (409, "decision_refused")
    assert "outside 100 to 150" in refused.body["message"]


def test_a_physical_pack_refuses_a_card_out_since_the_last_shuffle(admin, as_key, make_key):
    table_id, terminal, _ = _table(admin, as_key, make_key, "british-traditional", {})
    first = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"players": [{"seat": 1, "stake": 100}]}), 201)
    for card in ("TH", "5C", "8D", "4S"):
        first = ok(terminal.post(f"/v1/rounds/{first['round_id']}/cards", {"card": card}), 200)
    ok(terminal.post(f"/v1/rounds/{first['round_id']}/actions", {"seat": 1, "hand": 0, "action": "stick"}), 200)
    done = ok(terminal.post(f"/v1/rounds/{first['round_id']}/actions", {"seat": 0, "action": "stay"}), 200)
    assert done["status"] == "complete" and not done["reshuffle"]
    second = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"players": [{"seat": 1, "stake": 100}]}), 201)
    refused = terminal.post(f"/v1/rounds/{second['round_id']}/cards", {"card": "TH"})
    assert (refused.status, refused.body["code"]) == (409, "card_refused"), refused.body
    assert "dealt since it was last shuffled" in refused.body["message"]
    ok(terminal.post(f"/v1/rounds/{second['round_id']}/cards", {"card": "9H"}), 200)
