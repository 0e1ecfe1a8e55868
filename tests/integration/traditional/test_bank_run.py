"""A Shoot Pontoon table through a run of rounds in which the bank passes twice and the kitty lives and goes."""
from __future__ import annotations

from service.audit.verify import verify_database
from tests.support.api_client import drive_round, ok

from .money import bank_of, chair_balances, nets_of, round_nets_from_ledger

A, B, C = 0, 1, 2          # the chairs of the three people at the table; A holds the bank first


def _play(terminal, table_id, players, cards, actions, settle, db) -> dict:
    opened = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"players": players}), 201)
    played = drive_round(terminal, opened["round_id"], cards, actions)
    assert played.refusal is None and played.state["status"] == "complete", played.replies[-1].body
    settle(opened["round_id"])
    state = ok(terminal.get(f"/v1/rounds/{opened['round_id']}"), 200)
    banker, seats, kitty = nets_of(state)
    # Every round's money sums to zero, and the ledger holds what the round moved.
    assert banker + sum(seats.values()) + kitty == 0
    ledger = round_nets_from_ledger(db, opened["round_id"])
    assert sum(ledger.values()) == 0
    assert {s: n for s, n in ledger.items() if n} == {s: n for s, n in {0: banker, -1: kitty, **seats}.items() if n}
    return state


def _check(db, terminal, table_id, balances: dict, banker_place: int, kitty: int) -> None:
    assert chair_balances(db, table_id) == {k: v for k, v in balances.items() if v}
    assert sum(balances.values()) == 0
    bank = bank_of(terminal, table_id)
    assert (bank["banker_place"], bank["kitty"]) == (banker_place, kitty)
    assert balances.get("kitty", 0) == kitty


def test_a_run_of_rounds_passes_the_bank_twice_and_keeps_the_kitty_right(new_table, settle, db):
    """The kitty put up, shot at, busted into, topped up and taken away; the bank passed by a
    player's Pontoon and then by a sale; after every step each chair's money, from the ledger and
    the table transfers, is what the rounds and transfers say."""
    table_id, terminal = new_table("shoot-pontoon", "physical")
    players = [{"seat": 1, "stake": 100, "shoot": 300}, {"seat": 2, "stake": 100, "shoot": 200}]
    refused = terminal.post(f"/v1/tables/{table_id}/rounds", {"players": players})
    assert (refused.status, refused.body["code"]) == (409, "kitty_empty")
    top_up_first = terminal.post(f"/v1/tables/{table_id}/kitty", {"action": "top_up", "amount": 500})
    assert (top_up_first.status, top_up_first.body["code"]) == (409, "no_kitty")

    # A puts up the kitty.
    put_up = ok(terminal.post(f"/v1/tables/{table_id}/kitty", {"action": "put_up", "amount": 1000}), 201)
    assert [(t["kind"], t["from_place"], t["to_place"], t["amount"]) for t in put_up["transfers"]] == \
        [("kitty-put-up", A, None, 1000)]
    _check(db, terminal, table_id, {A: -1000, "kitty": 1000}, A, 1000)

    # Round 1, A banks: B (seat 1) 19 beats the banker's 17 and wins its shoot bet from the kitty;
    # C (seat 2) busts, its stake to the banker and its shoot bet into the kitty.
    state = _play(terminal, table_id, players, ["TH", "5C", "9C", "9D", "QD", "8S", "KH"],
                  [{"seat": 1, "hand": 0, "action": "stick"}, {"seat": 2, "hand": 0, "action": "twist"},
                   {"seat": 0, "action": "stay"}], settle, db)
    assert nets_of(state) == (0, {1: 400, 2: -300}, -100) and state["next_banker"] is None
    _check(db, terminal, table_id, {A: -1000, B: 400, C: -300, "kitty": 900}, A, 900)

    # A tops the kitty up between rounds.
    ok(terminal.post(f"/v1/tables/{table_id}/kitty", {"action": "top_up", "amount": 600}), 201)
    too_much = terminal.post(f"/v1/tables/{table_id}/kitty", {"action": "top_up", "amount": 100000})
    assert (too_much.status, too_much.body["code"]) == (409, "kitty_refused")
    _check(db, terminal, table_id, {A: -1600, B: 400, C: -300, "kitty": 1500}, A, 1500)

    # Round 2: B's unsplit Pontoon takes the bank; C shoots again before its fourth card and wins
    # both shoot bets. The bank passes to B's chair and A takes the kitty back, by itself.
    state = _play(terminal, table_id, [{"seat": 1, "stake": 200}, {"seat": 2, "stake": 100, "shoot": 100}],
                  ["AS", "4C", "7D", "KD", "5H", "TC", "3D", "6S"],
                  [{"seat": 2, "hand": 0, "action": "twist"}, {"seat": 2, "hand": 0, "action": "shoot", "amount": 200},
                   {"seat": 2, "hand": 0, "action": "twist"}, {"seat": 2, "hand": 0, "action": "stick"},
                   {"seat": 0, "action": "stay"}], settle, db)
    assert nets_of(state) == (-500, {1: 400, 2: 400}, -300)
    assert (state["next_banker"], state["reshuffle"], state["kitty"]) == (1, True, 1200)
    _check(db, terminal, table_id, {A: -900, B: 800, C: 100, "kitty": 0}, B, 0)
    taken = db.execute("SELECT kind, from_seat, to_seat, to_place, amount, round_id::text FROM table_transfers "
                       "WHERE table_id = %s ORDER BY seq DESC LIMIT 1", (table_id,)).fetchone()
    assert taken == ("kitty-taken", -1, 0, A, 1200, state["round_id"])

    # The new banker must put up a kitty; seats now count from B's left.
    refused = terminal.post(f"/v1/tables/{table_id}/rounds", {"players": [{"seat": 1, "stake": 100}]})
    assert (refused.status, refused.body["code"]) == (409, "kitty_empty")
    ok(terminal.post(f"/v1/tables/{table_id}/kitty", {"action": "put_up", "amount": 800}), 201)
    stale = terminal.post(f"/v1/tables/{table_id}/rounds", {"players": [{"seat": 1, "stake": 100}], "banker_place": A})
    assert (stale.status, stale.body["code"]) == (409, "banker_moved")
    _check(db, terminal, table_id, {A: -900, B: 0, C: 100, "kitty": 800}, B, 800)

    # Round 3, B banks: C is seat 1, A seat 9. The banker draws and busts: every hand is paid, and
    # C's shoot bet from the kitty.
    state = _play(terminal, table_id, [{"seat": 1, "stake": 100, "shoot": 100}, {"seat": 9, "stake": 300}],
                  ["8H", "7C", "6D", "9H", "9S", "7H", "KS"],
                  [{"seat": 1, "hand": 0, "action": "stick"}, {"seat": 9, "hand": 0, "action": "stick"},
                   {"seat": 0, "action": "draw"}], settle, db)
    assert nets_of(state) == (-400, {1: 200, 9: 300}, -100) and state["banker"]["status"] == "bust"
    _check(db, terminal, table_id, {A: -600, B: -400, C: 300, "kitty": 700}, B, 700)

    # B sells the bank to C (seat 1) for 2500: C pays B, and B takes the kitty back.
    sale = ok(terminal.post(f"/v1/tables/{table_id}/bank/sale", {"to_seat": 1, "price": 2500}), 201)
    assert [(t["kind"], t["from_place"], t["to_place"], t["amount"]) for t in sale["transfers"]] == \
        [("bank-sale", C, B, 2500), ("kitty-taken", None, B, 700)]
    assert (sale["banker_place"], sale["kitty"]) == (C, 0)
    _check(db, terminal, table_id, {A: -600, B: 2800, C: -2200, "kitty": 0}, C, 0)

    # Round 4, C banks: A sits at seat 8 from C's left and beats the banker.
    ok(terminal.post(f"/v1/tables/{table_id}/kitty", {"action": "put_up", "amount": 500}), 201)
    state = _play(terminal, table_id, [{"seat": 8, "stake": 100}], ["TD", "9C", "9D", "8C"],
                  [{"seat": 8, "hand": 0, "action": "stick"}, {"seat": 0, "action": "stay"}], settle, db)
    assert nets_of(state) == (-100, {8: 100}, 0)
    _check(db, terminal, table_id, {A: -500, B: 2800, C: -2800, "kitty": 500}, C, 500)

    # Each of those movements is in the table's audit chain.
    kinds = [kind for (kind,) in db.execute("SELECT kind FROM audit_log WHERE table_id = %s ORDER BY seq", (table_id,))]
    moves = {"kitty_put_up", "kitty_topped_up", "kitty_taken", "bank_sale", "bank_passed"}
    assert [k for k in kinds if k in moves] == \
        ["kitty_put_up", "kitty_topped_up", "kitty_taken", "bank_passed", "kitty_put_up", "bank_sale", "kitty_taken",
         "bank_passed", "kitty_put_up"]

    # The audit replays each settled round against its ledger rows (banker 0, kitty -1).
    report = verify_database(db)
    assert report.intact and report.rounds >= 4, report.problems
