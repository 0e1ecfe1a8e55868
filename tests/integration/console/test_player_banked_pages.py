"""The player-banked game as the pit and compliance see it in the console: the banker named as the
banker, split hands' cards on their hands, buys and twists marked, the game's own figures (stakes
and buys, the banker's result, the kitty before and after) in place of the house's handle and game
win, and the ledger's parties named."""
from __future__ import annotations

import re

from service.config import Settings
from service.console.queries.floor import floor
from service.store.uow import unit_of_work
from tests.support.api_client import ok
from tests.support.scripted_rounds import play_shoot_to_the_bankers_turn

from .pit_play import api, new_table, row_of, section, settle, text_of  # noqa: F401  (fixtures by name)


def _play_to_the_bankers_turn(terminal, table_id: str) -> str:
    ok(terminal.post(f"/v1/tables/{table_id}/kitty", {"action": "put_up", "amount": 1000}), 201)
    return play_shoot_to_the_bankers_turn(terminal, table_id)


def test_the_bankers_turn_is_the_bankers_on_the_table_and_the_floor(signed_in, new_table):
    table_id, terminal = new_table("shoot-pontoon")
    _play_to_the_bankers_turn(terminal, table_id)
    console = signed_in("supervisor")
    live = text_of(section(console.get(f"/console/tables/{table_id}").get_data(as_text=True), "table-live"))
    assert "Awaiting a decision from the banker: draw, stay." in live
    assert "seat 0" not in live and "hand None" not in live
    assert "bought $5.00" in live and "bought $3.00, twisted ×2" in live
    row = text_of(row_of(console.get("/console/floor").get_data(as_text=True), table_id))
    assert "decision: the banker (draw, stay)" in row and "bank at chair 1, kitty $10.00" in row


def test_a_finished_round_shows_the_games_own_figures_and_split_hands_on_their_hands(signed_in, new_table, settle,
                                                                                      settings: Settings, app):
    table_id, terminal = new_table("shoot-pontoon")
    round_id = _play_to_the_bankers_turn(terminal, table_id)
    done = ok(terminal.post(f"/v1/rounds/{round_id}/actions", {"seat": 0, "action": "stay"}), 200)
    assert done["status"] == "complete" and done["banker"]["status"] == "stayed" and done["shoot_room"] == 800
    settle(round_id)
    console = signed_in("supervisor")
    live_html = section(console.get(f"/console/tables/{table_id}").get_data(as_text=True), "table-live")
    live = text_of(live_html)
    # The last round's hands as they ended: the split eights each on its own hand.
    hands = dict(re.findall(r'data-who="([^"]+)"><span class="who">[^<]*</span>(.*?)</div>', live_html, re.S))
    cards = {who: re.findall(r'data-card="(\w+)"', html) for who, html in hands.items()}
    assert cards == {"seat 1 hand 0": ["8H", "3C", "9S"], "seat 1 hand 1": ["8C", "QD"],
                     "seat 2 hand 0": ["2C", "3D", "4H", "5S", "6C"], "banker": ["7S", "TD"]}
    # Stakes and buys $21 (10 + 5 + 6), the banker down $27, the kitty $10 before and $8 after.
    assert "Stakes and buys $21.00" in live and "Bankers' result -$27.00" in live
    assert "$10.00 → $8.00" in live and "-$27.00" in live
    assert "Handle" not in live and "Game win" not in live and "Drop" not in live and "Hold" not in live
    # The floor keeps the table out of the house's figures.
    row = text_of(row_of(console.get("/console/floor").get_data(as_text=True), table_id))
    assert "stakes and buys $21.00" in row and "banker -$27.00" in row and "no house game win" in row
    with unit_of_work(app.extensions["pontoon.pool"]) as uow:
        shown = floor(uow, settings)
    house = [t.today for t in shown.tables if t.game == "canberra"]
    assert shown.totals.handle == sum(t.handle for t in house)
    assert shown.totals.game_win == sum(t.game_win for t in house)
    assert shown.player_banked is not None and shown.player_banked.stakes >= 2100


def test_recall_names_the_parties_and_shows_the_bank_and_the_kitty(signed_in, new_table, settle):
    table_id, terminal = new_table("shoot-pontoon")
    round_id = _play_to_the_bankers_turn(terminal, table_id)
    ok(terminal.post(f"/v1/rounds/{round_id}/actions", {"seat": 0, "action": "stay"}), 200)
    settle(round_id)
    page = signed_in("compliance").get(f"/console/recall?table={table_id}").get_data(as_text=True)
    text = text_of(page)
    assert "players net" not in text
    assert "Banker chair 1 of 10" in text and "Banker's result -$27.00" in text
    assert "Kitty $10.00 before, $8.00 after" in text and "The bank stayed with chair 1" in text
    parties = set(re.findall(r'data-party="([^"]+)"', page))
    assert parties == {"banker", "kitty", "seat 1", "seat 2"}
    assert "the banker: stay" in text
    assert "bought $3.00, twisted ×2" in text
