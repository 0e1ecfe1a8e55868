"""A player-banked table in the table report and its CSV: no drop, win or hold, nothing in the
house's totals, and its own figures: the players' stakes and buys, shoot bets, the bankers'
result, the kitty before and after, and the times the bank passed. Worked out by hand here."""
from __future__ import annotations

import csv
import io

from tests.support.api_client import ok

# Round 1 (the banker at chair 1, kitty $10): seat 1 splits its eights, buys a nine for $5 on the
# first and sticks on 20 and 18; seat 2 ($3, shooting $2) buys a four for $3 and twists a five and
# a six: a Five Card Trick. The banker stays on 17 and pays 10 + 5 + 2 x 6 = $27; the kitty pays
# seat 2's shoot bet: $10 -> $8.
ROUND_1 = ([{"seat": 1, "stake": 500}, {"seat": 2, "stake": 300, "shoot": 200}],
           ["8H", "2C", "7S", "8C", "3D", "TD"],
           [({"seat": 1, "hand": 0, "action": "split"}, ["3C", "QD"]),
            ({"seat": 1, "hand": 0, "action": "buy", "amount": 500}, ["9S"]),
            ({"seat": 1, "hand": 0, "action": "stick"}, []),
            ({"seat": 1, "hand": 1, "action": "stick"}, []),
            ({"seat": 2, "hand": 0, "action": "buy", "amount": 300}, ["4H"]),
            ({"seat": 2, "hand": 0, "action": "twist"}, ["5S"]),
            ({"seat": 2, "hand": 0, "action": "twist"}, ["6C"]),
            ({"seat": 0, "action": "stay"}, [])])
# Round 2: seat 1's ace and king is a Pontoon ($2 from the banker, and the bank passes to it);
# seat 2 sticks on 17 against the banker's 16 and wins $1. The banker pays $3.
ROUND_2 = ([{"seat": 1, "stake": 100}, {"seat": 2, "stake": 100}],
           ["AS", "9C", "7D", "KH", "8D", "9H"],
           [({"seat": 2, "hand": 0, "action": "stick"}, []),
            ({"seat": 0, "action": "stay"}, [])])


def _play(terminal, table_id, players, deal, plays) -> dict:
    state = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"players": players}), 201)
    for card in deal:
        state = ok(terminal.post(f"/v1/rounds/{state['round_id']}/cards", {"card": card}), 200)
    for action, cards in plays:
        state = ok(terminal.post(f"/v1/rounds/{state['round_id']}/actions", action), 200)
        for card in cards:
            state = ok(terminal.post(f"/v1/rounds/{state['round_id']}/cards", {"card": card}), 200)
    assert state["status"] == "complete"
    return state


def test_the_report_shows_a_player_banked_tables_own_figures_and_keeps_them_from_the_houses(new_table, settle,
                                                                                             as_key, make_key):
    compliance = as_key(make_key("compliance"))
    table_id, terminal = new_table("shoot-pontoon", "physical")
    ok(terminal.post(f"/v1/tables/{table_id}/kitty", {"action": "put_up", "amount": 1000}), 201)
    first = _play(terminal, table_id, *ROUND_1)
    second = _play(terminal, table_id, *ROUND_2)
    assert second["next_banker"] == 1
    settle(first["round_id"], second["round_id"])

    report = ok(compliance.get(f"/v1/reports/tables?table={table_id}"), 200)
    (row,) = report["rows"]
    assert row["game"] == "traditional" and row["rounds"] == 2
    house = ("handle", "paid_out", "game_win", "game_win_percent", "bonuses", "super_bonuses")
    assert {key: row[key] for key in house} == dict.fromkeys(house)
    assert {key: row[key] for key in ("stakes", "buys", "shoot_bets", "banker_net", "kitty_before", "kitty_after",
                                      "bank_passes")} == {
        "stakes": 1000 + 500 + 600 + 100 + 100, "buys": 500 + 300, "shoot_bets": 200, "banker_net": -2700 - 300,
        "kitty_before": 1000, "kitty_after": 800, "bank_passes": 1}
    assert report["totals"]["handle"] == report["totals"]["game_win"] == report["totals"]["rounds"] == 0
    assert report["player_banked_totals"] == {
        "activity": "active", "rounds": 2, "voided_rounds": 0, "unsettled_rounds": 0, "stakes": 2300, "buys": 800,
        "shoot_bets": 200, "banker_net": -3000, "bank_passes": 1}

    lines = list(csv.DictReader(io.StringIO(compliance.get(f"/v1/reports/tables?table={table_id}&format=csv")
                                            .data.decode())))
    assert [line["table_id"] for line in lines] == [table_id, "TOTAL player-banked", "TOTAL"]
    line = lines[0]
    assert (line["game"], line["handle"], line["game_win"], line["game_win_percent"]) == ("traditional", "", "", "")
    assert (line["stakes"], line["banker_net"], line["kitty_before"], line["kitty_after"]) == \
        ("2300", "-3000", "1000", "800")
    assert lines[1]["banker_net"] == "-3000" and lines[2]["handle"] == "0"
