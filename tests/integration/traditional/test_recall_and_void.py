"""Compliance on player-banked tables: recall replays Shoot rounds with their kitty, and a void
closes a round without moving money."""
from __future__ import annotations

import json

from service.replay import replay_data
from tests.conftest import TRANSCRIPTS
from tests.support.api_client import Api, drive_round, flask_sender, ok


def test_recall_of_a_shoot_round_carries_its_kitty(new_table, settle, client, make_key):
    transcript = json.loads((TRANSCRIPTS / "traditional" / "shoot-bust-feeds-kitty.json").read_text())
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


def test_after_a_void_the_pack_is_shuffled_anew_so_its_seen_cards_do_not_come_round(new_table, client, make_key, db):
    table_id, terminal = new_table("british-traditional", "virtual")
    supervisor = Api(flask_sender(client), make_key("supervisor"))
    players = {"players": [{"seat": 1, "stake": 100}, {"seat": 2, "stake": 100}]}
    # A virtual pack may deal a round to its end at once (a banker's Pontoon is exposed at once), and
    # only a round in play can be voided.
    for _ in range(20):
        voided = ok(terminal.post(f"/v1/tables/{table_id}/rounds", players), 201)
        if voided["status"] == "open":
            break
    assert voided["status"] == "open", "twenty openings in a row were dealt to their end"
    seen = ok(terminal.get(f"/v1/rounds/{voided['round_id']}/transcript"), 200)["cards"]
    old_shoe = db.execute("SELECT shoe_id FROM shoes WHERE table_id = %s AND closed_at IS NULL",
                          (table_id,)).fetchone()[0]
    ok(supervisor.post(f"/v1/rounds/{voided['round_id']}/void", {"reason": "misdeal"}), 200)

    new_shoe, order = db.execute("SELECT shoe_id, card_order FROM shoes WHERE table_id = %s AND closed_at IS NULL",
                                 (table_id,)).fetchone()
    assert new_shoe != old_shoe
    assert db.execute("SELECT closed_at IS NOT NULL FROM shoes WHERE shoe_id = %s", (old_shoe,)).fetchone()[0]
    kinds = [kind for kind, in db.execute("SELECT kind FROM audit_log WHERE round_id = %s ORDER BY seq",
                                          (voided["round_id"],))]
    assert kinds[-3:] == ["round_voided", "shoe_closed", "shoe_started"], kinds
    following = ok(terminal.post(f"/v1/tables/{table_id}/rounds", players), 201)
    dealt = ok(terminal.get(f"/v1/rounds/{following['round_id']}/transcript"), 200)["cards"]
    assert dealt == order[:len(dealt)], "the next round deals from the new pack's committed order"
    assert dealt != seen[:len(dealt)]
