"""Game recall: the last rounds of a table in order, with every card, decision, stake and payout,
and a transcript that replays to the ledger's money; a split and a double among them."""
from __future__ import annotations

import uuid

from service.ledger.transcripts import bet_totals, play_stored
from tests.support.api_client import ok
from tests.support.scripted_rounds import SIMPLE_PUSH, SPLIT_AND_DOUBLE, SPLIT_AND_DOUBLE_WAGERS, play_script

ONE_SEAT = [{"seat": 1, "wager": 1000}]


def test_recall_of_the_last_ten_rounds(new_table, supervisor, compliance, settle, db):
    table_id, terminal = new_table()
    played = []
    for number in range(1, 12):
        if number == 8:
            played.append(play_script(terminal, table_id, SPLIT_AND_DOUBLE_WAGERS, SPLIT_AND_DOUBLE))
        else:
            played.append(play_script(terminal, table_id, ONE_SEAT, SIMPLE_PUSH))
    in_play = play_script(terminal, table_id, ONE_SEAT, SIMPLE_PUSH, stop_after=2)   # still being dealt
    settle([state["round_id"] for state in played])
    expected = [state["round_id"] for state in played[2:]] + [in_play["round_id"]]

    recalled = ok(supervisor.get(f"/v1/tables/{table_id}/recall?last=10"), 200)
    assert recalled["last"] == 10 and [r["round_id"] for r in recalled["rounds"]] == expected
    assert [r["opened_at"] for r in recalled["rounds"]] == sorted(r["opened_at"] for r in recalled["rounds"])
    assert ok(compliance.get(f"/v1/tables/{table_id}/recall"), 200) == recalled, "ten unless told otherwise"

    split_round = next(r for r in recalled["rounds"] if r["round_id"] == played[7]["round_id"])
    assert split_round["status"] == "settled" and split_round["paytable"] == "canberra-standard@1"
    cards = [e["card"] for e in split_round["events"] if e["kind"] == "card"]
    decisions = [(e["seat"], e["hand"], e["action"], e["amount"])
                 for e in split_round["events"] if e["kind"] == "action"]
    assert cards == [step for step in SPLIT_AND_DOUBLE if isinstance(step, str)]
    assert decisions == [(1, 0, "split", None), (1, 0, "double", 1000), (1, 0, "stand", None), (1, 1, "hit", None),
                         (1, 1, "stand", None), (2, 0, "stand", None)]
    assert [e["seq"] for e in split_round["events"]] == list(range(len(split_round["events"])))
    seat_one = split_round["seats"][0]
    assert [(h["hand"], h["cards"], h["wager"], h["double"]) for h in seat_one["hands"]] == [
        (0, ["8H", "3S", "9S"], 1000, 1000), (1, ["8D", "2C", "KS"], 1000, 0)]
    assert split_round["dealer"]["cards"] == ["6C", "KD", "KC"]
    bets = {(b["seat"], b["hand"], b["kind"]): (b["stake"], b["returned"]) for b in split_round["bets"]}
    assert bets == {(1, None, "pair"): (500, 6000), (1, 0, "main"): (1000, 2000), (1, 0, "double"): (1000, 2000),
                    (1, 1, "split"): (1000, 2000), (2, 0, "main"): (2000, 4000)}
    assert split_round["money"] == {"staked": 5500, "returned": 16000, "net": 10500}
    ledger = dict(db.execute("SELECT seat, sum(returned) FROM ledger_entries WHERE round_id = %s GROUP BY seat",
                             (split_round["round_id"],)).fetchall())
    replayed = bet_totals(play_stored(split_round["transcript"]).bets)
    assert {seat: returned for seat, (_, returned) in replayed.items()} == ledger, "the transcript replays"

    last = recalled["rounds"][-1]
    assert last["status"] == "open" and last["bets"] == [] and last["money"] is None
    assert [e["card"] for e in last["events"]] == SIMPLE_PUSH[:2]


def test_recall_refuses_what_it_cannot_answer(supervisor, new_table):
    table_id, _ = new_table()
    assert ok(supervisor.get(f"/v1/tables/{table_id}/recall"), 200)["rounds"] == []
    assert supervisor.get("/v1/tables/NO-SUCH/recall").status == 404
    for query in ("last=0", "last=101", "last=ten", "order=desc"):
        assert supervisor.get(f"/v1/tables/{table_id}/recall?{query}").status == 422, query


def test_a_player_banked_round_is_recalled_with_the_banker_and_each_player(admin, as_key, make_key, supervisor):
    table_id = f"C-{uuid.uuid4().hex[:10]}"
    ok(admin.post("/v1/tables", {"table_id": table_id, "rules": "british-traditional"}), 201)
    terminal = as_key(make_key("terminal", table_id))
    ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": "physical"}), 201)
    opened = ok(terminal.post(f"/v1/tables/{table_id}/rounds",
                              {"players": [{"seat": 1, "stake": 100}, {"seat": 2, "stake": 250}]}), 201)
    for card in ("5H", "9C", "KD"):
        ok(terminal.post(f"/v1/rounds/{opened['round_id']}/cards", {"card": card}), 200)

    (recalled,) = ok(supervisor.get(f"/v1/tables/{table_id}/recall"), 200)["rounds"]
    assert recalled["dealer"] is None and recalled["seats"] == []
    assert [(p["seat"], p["stake"], [h["cards"] for h in p["hands"]]) for p in recalled["players"]] == [
        (1, 100, [["5H"]]), (2, 250, [["9C"]])]
    assert recalled["banker"]["cards"] == ["KD"]
