"""The shared worked rounds of the player-banked game, through the API, give `pontoon replay`'s money."""
from __future__ import annotations

import json

import pytest

from service.replay import replay_data
from tests.conftest import worked_rounds
from tests.support.api_client import drive_round, ok

from .money import bank_of, nets_of, round_nets_from_ledger

TRANSCRIPTS = worked_rounds("traditional")
RULES_FOR_OPTIONS = {(): "british-traditional", (("shoot", True),): "shoot-pontoon"}


def _action(entry: dict) -> dict:
    """A transcript action as the terminal posts it (a split's shoot bet is its amount)."""
    body = {key: entry[key] for key in ("seat", "action", "hand", "amount") if key in entry}
    if "shoot" in entry:
        body["amount"] = entry["shoot"]
    return body


def _money(result: dict) -> tuple:
    return (result["banker"]["net"], [(p["seat"], p["net"]) for p in result["players"]], result["kitty"],
            result["next_banker"], result["reshuffle"])


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=[p.stem for p in TRANSCRIPTS])
def test_a_worked_round_through_the_api_gives_the_replays_money(path, new_table, settle, db):
    transcript = json.loads(path.read_text())
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    rules = RULES_FOR_OPTIONS.get(tuple(sorted((transcript.get("options") or {}).items())))
    if rules is None:
        pytest.skip(f"no rules file plays the options {transcript['options']}")
    table_id, terminal = new_table(rules, "physical")
    if "kitty" in transcript:
        ok(terminal.post(f"/v1/tables/{table_id}/kitty", {"action": "put_up", "amount": transcript["kitty"]}), 201)
    opened = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"players": transcript["players"]}), 201)
    assert opened["dealer"] is None and opened["seats"] == [] and opened["awaiting"] == "card"
    played = drive_round(terminal, opened["round_id"], transcript["cards"], [_action(a) for a in transcript["actions"]])

    if expected.get("error"):
        assert played.refusal is not None and played.refusal.body["code"] == "decision_refused", played.replies[-1]
        assert played.state["status"] == "open"
        return
    state = played.state
    assert played.refusal is None and state["status"] == "complete", state
    banker_net, players, kitty_change = nets_of(state)
    assert banker_net == expected["banker"]["net"]
    assert players == {p["seat"]: p["net"] for p in expected["players"]}
    assert state["kitty"] == expected["kitty"] and state["kitty"] - transcript.get("kitty", 0) == kitty_change
    assert (state["next_banker"], state["reshuffle"]) == (expected["next_banker"], expected["reshuffle"])
    assert state["banker"]["cards"] == [c.replace("10", "T") for c in expected["banker"]["cards"]]

    # The round's own transcript replays to the same money as the shared one.
    own = ok(terminal.get(f"/v1/rounds/{state['round_id']}/transcript"), 200)
    assert own["players"] == transcript["players"] and own["paytable"] is None
    assert _money(replay_data(own)) == _money(replay_data(transcript)) == _money(expected)

    # The ledger: one participant per seat (banker 0, kitty -1), every round summing to zero.
    settle(state["round_id"])
    want = {0: expected["banker"]["net"], **{p["seat"]: p["net"] for p in expected["players"]}}
    if kitty_change:
        want[-1] = kitty_change
    ledger = round_nets_from_ledger(db, state["round_id"])
    assert {seat: net for seat, net in ledger.items() if net or seat not in want} == \
        {seat: net for seat, net in want.items() if net}
    assert sum(ledger.values()) == 0
    settled = ok(terminal.get(f"/v1/rounds/{state['round_id']}"), 200)
    assert settled["status"] == "settled"
    assert {s["seat"]: s["net"] for s in settled["settlement"]["seats"]} == ledger

    # The table moves the bank by itself: to the player's Pontoon, counted from the banker's chair 0.
    assert bank_of(terminal, table_id)["banker_place"] == (expected["next_banker"] or 0)
