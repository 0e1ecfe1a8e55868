"""Compliance on player-banked tables: recall replays Shoot rounds with their kitty, and a void
closes a round without moving money."""
from __future__ import annotations

import json

from service.commands.replay import replay_data
from tests.conftest import SHARED

from ..api.client import Api, drive_round, flask_sender, ok


def test_recall_of_a_shoot_round_carries_its_kitty(new_table, settle, client, make_key):
    transcript = json.loads((SHARED / "transcripts" / "traditional" / "shoot-bust-feeds-kitty.json").read_text())
    table_id, terminal = new_table("shoot-pontoon", "physical")
    ok(terminal.post(f"/v1/tables/{table_id}/kitty", {"action": "put_up", "amount": transcript["kitty"]}), 201)
    opened = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"players": transcript["players"]}), 201)
    played = drive_round(terminal, opened["round_id"], transcript["cards"], transcript["actions"])
    assert played.state["status"] == "complete"
    settle(opened["round_id"])
    compliance = Api(flask_sender(client), make_key("compliance"))
    recalled = ok(compliance.get(f"/v1/tables/{table_id}/recall?last=1"), 200)["rounds"][0]
    assert recalled["transcript"]["kitty"] == transcript["kitty"]
    got, want = replay_data(recalled["transcript"]), replay_data(transcript)
    assert got["banker"]["net"] == want["banker"]["net"] and got["kitty"] == want["kitty"]
    assert [(p["seat"], p["net"]) for p in got["players"]] == [(p["seat"], p["net"]) for p in want["players"]]


def test_a_player_banked_round_is_voided_without_moving_money(new_table, client, make_key, db):
    table_id, terminal = new_table("british-traditional", "physical")
    opened = ok(terminal.post(f"/v1/tables/{table_id}/rounds",
                              {"players": [{"seat": 1, "stake": 100}, {"seat": 2, "stake": 100}]}), 201)
    for card in ("5H", "9C", "8S"):
        ok(terminal.post(f"/v1/rounds/{opened['round_id']}/cards", {"card": card}), 200)
    supervisor = Api(flask_sender(client), make_key("supervisor"))
    voided = ok(supervisor.post(f"/v1/rounds/{opened['round_id']}/void", {"reason": "misdeal"}), 200)
    assert voided["status"] == "void"
    rows = db.execute("SELECT count(*) FROM ledger_entries WHERE round_id = %s", (opened["round_id"],)).fetchone()
    assert rows[0] == 0
    refused = terminal.post(f"/v1/rounds/{opened['round_id']}/cards", {"card": "2D"})
    assert refused.status == 409
    # The table is free for the next round.
    ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"players": [{"seat": 1, "stake": 100}]}), 201)
