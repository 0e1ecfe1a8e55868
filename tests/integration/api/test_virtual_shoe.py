"""A virtual shoe deals by itself; once closed, its revealed order and salt hash to the commitment
published when it opened, and the order is exactly the cards its rounds were dealt."""
from __future__ import annotations

from collections import Counter

from service.engine.shoe import commitment_of
from service.replay import replay_data
from service.rules import load_rules
from tests.support.api_client import ok

from .play import basic_decision, play_virtual_round

WAGERS = [{"seat": 1, "wager": 1000, "pair_bet": 500}, {"seat": 4, "wager": 2500}, {"seat": 7, "wager": 500}]


def test_revealed_order_matches_commitment_and_the_cards_dealt(new_table, db):
    table_id, terminal = new_table()
    opened = ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": "virtual"}), 201)
    shoe_id, commitment = opened["shoe_id"], opened["commitment"]
    assert len(commitment) == 64 and opened["card_order"] is None and opened["salt"] is None

    dealt: list[str] = []
    for _ in range(6):
        final = play_virtual_round(terminal, table_id, WAGERS)
        transcript = ok(terminal.get(f"/v1/rounds/{final['round_id']}/transcript"), 200)
        assert [s["net"] for s in replay_data(transcript)["seats"]] == \
            [s["net"] for s in db.execute("SELECT result FROM rounds WHERE round_id = %s",
                                          (final["round_id"],)).fetchone()[0]["seats"]]
        dealt += transcript["cards"]

    current = ok(terminal.get(f"/v1/tables/{table_id}/shoes/current"), 200)
    assert current["position"] == len(dealt)
    assert current["card_order"] is None, "the order stays secret while the shoe is open"

    replaced = ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": "virtual"}), 201)
    closed = replaced["closed_shoe"]
    assert closed["shoe_id"] == shoe_id and closed["closed_at"] is not None
    order, salt = closed["card_order"], closed["salt"]
    assert commitment_of(order, salt) == commitment
    assert order[:len(dealt)] == dealt
    assert len(order) == 192 and set(Counter(order).values()) == {4} and len(set(order)) == 48
    assert ok(terminal.get(f"/v1/shoes/{shoe_id}"), 200)["card_order"] == order
    assert replaced["commitment"] != commitment

    audit = dict(db.execute("SELECT kind, payload FROM audit_log WHERE table_id = %s AND kind = 'shoe_closed'",
                            (table_id,)).fetchall())
    assert audit["shoe_closed"]["card_order"] == order and audit["shoe_closed"]["salt"] == salt


def test_a_new_shoe_is_refused_while_a_round_is_open(new_table):
    table_id, terminal = new_table(shoe="virtual")
    state = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": WAGERS}), 201)
    refused = terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": "virtual"})
    assert refused.status == 409 and refused.body["code"] == "round_open"
    assert refused.body["errors"] == {"round_id": [state["round_id"]]}   # a list, as every field's errors are
    assert ok(terminal.get(f"/v1/tables/{table_id}"), 200)["open_round_id"] == state["round_id"]


def test_a_round_needs_a_shoe_and_only_one_round_is_open(new_table):
    table_id, terminal = new_table()
    refused = terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": WAGERS})
    assert refused.status == 409 and refused.body["code"] == "no_shoe"
    ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": "physical"}), 201)
    ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": WAGERS}), 201)
    again = terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": WAGERS})
    assert again.status == 409 and again.body["code"] == "round_open"


def test_a_virtual_shoe_past_its_cut_card_takes_no_new_round(new_table, db):
    table_id, terminal = new_table(shoe="virtual")
    db.execute("UPDATE shoes SET position = 150 WHERE table_id = %s AND closed_at IS NULL", (table_id,))
    refused = terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": WAGERS})
    assert refused.status == 409 and refused.body["code"] == "shoe_past_cut_card"


def test_the_answers_say_when_the_shoe_has_passed_its_cut_card(new_table, db):
    """The round that brings the cut card out plays to its end, its answers saying so; the
    terminal then opens a new shoe rather than being refused the next round."""
    table_id, terminal = new_table(shoe="virtual")
    spec = load_rules("canberra").shoe
    cut = int(spec.size * spec.penetration)
    opened = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": WAGERS}), 201)
    assert opened["shoe_past_cut_card"] is False
    assert ok(terminal.get(f"/v1/rounds/{opened['round_id']}"), 200)["shoe_past_cut_card"] is None
    state = opened
    while state["awaiting"] == "decision":
        state = ok(terminal.post(f"/v1/rounds/{state['round_id']}/actions", basic_decision(state)), 200)
        assert state["shoe_past_cut_card"] is False
    # Two cards short of the cut: the opening's deal takes the shoe past it.
    db.execute("UPDATE shoes SET position = %s WHERE table_id = %s AND closed_at IS NULL", (cut - 2, table_id))
    last = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": WAGERS}), 201)
    assert last["shoe_past_cut_card"] is True
    state = last
    while state["awaiting"] == "decision":
        state = ok(terminal.post(f"/v1/rounds/{state['round_id']}/actions", basic_decision(state)), 200)
        assert state["shoe_past_cut_card"] is True
    assert state["status"] == "complete"
    refused = terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": WAGERS})
    assert refused.status == 409 and refused.body["code"] == "shoe_past_cut_card"
    ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": "virtual"}), 201)
    assert ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": WAGERS}), 201)["shoe_past_cut_card"] is False


def test_a_physical_shoe_leaves_its_cut_card_to_the_dealer(new_table):
    table_id, terminal = new_table(shoe="physical")
    opened = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": WAGERS}), 201)
    assert opened["shoe_past_cut_card"] is None
    dealt = ok(terminal.post(f"/v1/rounds/{opened['round_id']}/cards", {"card": "7H"}), 200)
    assert dealt["shoe_past_cut_card"] is None


def test_table_limits_bind_the_wagers(new_table):
    table_id, terminal = new_table(shoe="virtual", limits={"main": {"min": 2000, "max": 10000}})
    assert ok(terminal.get(f"/v1/tables/{table_id}"), 200)["limits"]["main"] == {"min": 2000, "max": 10000}
    refused = terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": [{"seat": 1, "wager": 1000}]})
    assert refused.status == 409 and refused.body["code"] == "wager_refused"
    ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": [{"seat": 1, "wager": 2000}]}), 201)
