"""Both side bets of a paytable that offers 21+3 beside the pair bet, through the API, the terminal
simulator and replay: the settled ledger is held to a calculation written out here."""
from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator

import pytest
from werkzeug.serving import make_server

from service.replay import replay_data
from service.settlement.connection import connect
from service.settlement.settle import settle_rounds
from service.terminal.client import TerminalClient
from service.terminal.terminal import Terminal, TerminalPlan
from tests.support.api_client import ok

pytestmark = pytest.mark.integration

PAYTABLE = "canberra-21plus3"
STAND, HIT = "stand", "hit"


def decision(seat: int, action: str) -> dict:
    return {"seat": seat, "hand": 0, "action": action}


def side_table(admin, as_key, make_key) -> tuple[str, object]:
    table_id = f"SB-{uuid.uuid4().hex[:10]}"
    ok(admin.post("/v1/tables", {"table_id": table_id, "rules": "canberra", "paytable": PAYTABLE}), 201)
    return table_id, as_key(make_key("terminal", table_id))


def settled_ledger(database_url: str, db, round_ids: list[str]) -> list[tuple]:
    with connect(database_url) as conn:
        outcome = settle_rounds(conn, round_ids)
    assert sorted(outcome.settled) == sorted(round_ids), outcome
    return db.execute("SELECT round_id::text, seat, hand, kind, stake, returned, outcome FROM ledger_entries "
                      "WHERE round_id = ANY(%s::uuid[]) ORDER BY round_id, seat, hand, kind",
                      (round_ids,)).fetchall()


def test_a_round_with_both_side_bets_settles_to_the_calculation(admin, as_key, make_key, database_url, db):
    table_id, terminal = side_table(admin, as_key, make_key)
    table = ok(terminal.get(f"/v1/tables/{table_id}"), 200)
    assert table["side_bets"] == {"pair": {"min": 500, "max": 50000}, "21+3": {"min": 500, "max": 25000}}
    ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": "physical"}), 201)
    wagers = [{"seat": 1, "wager": 1000, "side_bets": {"pair": 500, "21+3": 500}},
              {"seat": 2, "wager": 2000, "side_bets": {"21+3": 1000}},
              {"seat": 3, "wager": 1000, "pair_bet": 500, "side_bets": {"21+3": 500}},   # pair_bet: an older client
              {"seat": 4, "wager": 1000, "side_bets": {"21+3": 500, "pair": 0}}]
    state = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": wagers}), 201)
    # First cards to seats 1-4, the dealer's 8H, second cards; then the seats' play and the dealer's card.
    script = ["8H", "9H", "6C", "KD", "8H", "8H", "7H", "7D", "2C",
              decision(1, STAND), decision(2, HIT), "5C", decision(3, STAND), decision(4, HIT), "9D", "KS"]
    round_id = state["round_id"]
    for step in script:
        if isinstance(step, str):
            state = ok(terminal.post(f"/v1/rounds/{round_id}/cards", {"card": step}), 200)
        else:
            state = ok(terminal.post(f"/v1/rounds/{round_id}/actions", step), 200)
    assert state["status"] == "complete"
    assert [seat["side_bets"] for seat in state["seats"]] == [
        {"pair": 500, "21+3": 500}, {"21+3": 1000}, {"pair": 500, "21+3": 500}, {"21+3": 500}]

    # Written out: the dealer's 8H with each seat's first two cards, the paytable's 21+3 odds
    # (suited three of a kind 100:1, straight flush 40:1, straight 10:1) and the pair's 11:1;
    # the dealer makes 18 with KS.
    expected = sorted([
        (round_id, 1, -1, "pair", 500, 500 + 11 * 500, "pair"),                          # 8H 8H
        (round_id, 1, -1, "21+3", 500, 500 + 100 * 500, "suited_three_of_a_kind"),       # 8H 8H 8H
        (round_id, 1, 0, "main", 1000, 0, "lose"),                                       # 16 against 18
        (round_id, 2, -1, "21+3", 1000, 1000 + 40 * 1000, "straight_flush"),             # 7H 8H 9H
        (round_id, 2, 0, "main", 2000, 2000 + 2000, "twenty-one"),                       # 9 7 5: 21 wins at once
        (round_id, 3, -1, "pair", 500, 0, "no-pair"),                                    # 6C 7D
        (round_id, 3, -1, "21+3", 500, 500 + 10 * 500, "straight"),                      # 6C 7D 8H
        (round_id, 3, 0, "main", 1000, 0, "lose"),                                       # 13 against 18
        (round_id, 4, -1, "21+3", 500, 0, "no-hand"),                                    # KD 2C 8H
        (round_id, 4, 0, "main", 1000, 2000, "twenty-one"),                              # K 2 9
    ], key=lambda row: (row[1], row[2], row[3]))
    assert settled_ledger(database_url, db, [round_id]) == expected

    # Replay: the exported transcript writes the side bets by name and plays to the ledger's money.
    transcript = ok(terminal.get(f"/v1/rounds/{round_id}/transcript"), 200)
    assert transcript["seats"][2] == {"seat": 3, "wager": 1000, "side_bets": {"pair": 500, "21+3": 500}}
    replayed = {seat["seat"]: (seat["staked"], seat["returned"]) for seat in replay_data(transcript)["seats"]}
    by_seat: dict[int, tuple[int, int]] = {}
    for _, seat, _, _, stake, returned, _ in expected:
        staked, back = by_seat.get(seat, (0, 0))
        by_seat[seat] = (staked + stake, back + returned)
    assert replayed == by_seat == {1: (2000, 56500), 2: (3000, 45000), 3: (2000, 5500), 4: (1500, 2000)}


def test_a_table_limits_the_side_bets_its_paytable_offers_and_no_other(admin, as_key, make_key):
    own = {"21+3": {"min": 1000, "max": 5000}}
    refused = admin.post("/v1/tables", {"table_id": f"SB-{uuid.uuid4().hex[:10]}", "rules": "canberra",
                                        "paytable": "canberra-standard", "limits": own})
    assert refused.status == 409 and refused.body["code"] == "limits_refused", refused.body
    assert "limits.21+3" in refused.body["errors"]
    table_id = f"SB-{uuid.uuid4().hex[:10]}"
    ok(admin.post("/v1/tables", {"table_id": table_id, "rules": "canberra", "paytable": PAYTABLE, "limits": own}),
       201)
    terminal = as_key(make_key("terminal", table_id))
    assert ok(terminal.get(f"/v1/tables/{table_id}"), 200)["side_bets"]["21+3"] == {"min": 1000, "max": 5000}
    ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": "physical"}), 201)
    below = terminal.post(f"/v1/tables/{table_id}/rounds",
                          {"wagers": [{"seat": 1, "wager": 1000, "side_bets": {"21+3": 500}}]})
    assert below.status == 409 and "side bet 21+3 of 500 is outside its limits 1000 to 5000" in below.body["message"]
    unknown = terminal.post(f"/v1/tables/{table_id}/rounds",
                            {"wagers": [{"seat": 1, "wager": 1000, "side_bets": {"lucky_ladies": 500}}]})
    assert unknown.status == 409 and "no side bet 'lucky_ladies'" in unknown.body["message"]


# ----- the terminal simulator ---------------------------------------------------------------
RANK_ORDER = "A23456789JQK"      # the Canberra shoe's ranks, tens taken out


def written_out(first: str, second: str, upcard: str) -> tuple[str | None, str | None]:
    """(the pair bet's paid hand, 21+3's paid hand), worked out here from the three cards alone."""
    ranks = [card[:-1].replace("10", "T") for card in (first, second, upcard)]
    suits = {card[-1] for card in (first, second, upcard)}
    pair = "pair" if ranks[0] == ranks[1] else None
    places = sorted(RANK_ORDER.index(rank) for rank in ranks)
    run = len(set(places)) == 3 and (places[2] - places[0] == 2 or places == [0, 10, 11])   # Q-K-A
    if len(set(ranks)) == 1:
        hand = "suited_three_of_a_kind" if len(suits) == 1 else "three_of_a_kind"
    elif run:
        hand = "straight_flush" if len(suits) == 1 else "straight"
    else:
        hand = "flush" if len(suits) == 1 else None
    return pair, hand


ODDS = {"pair": 11, "suited_three_of_a_kind": 100, "straight_flush": 40, "three_of_a_kind": 30, "straight": 10,
        "flush": 4}


@pytest.fixture
def served(app) -> Iterator[str]:
    """The app on a local port, for a client that speaks HTTP."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join()


def test_the_terminal_simulator_places_both_side_bets_and_the_ledger_follows(
        admin, as_key, make_key, database_url, db, served):
    table_id, _ = side_table(admin, as_key, make_key)
    client = TerminalClient([served], make_key("terminal", table_id))
    try:
        stats = Terminal(client, TerminalPlan(table_id, rounds=40, seats=5, physical=True, seed=21)).run()
    finally:
        client.close()
    assert stats.error_count == 0, stats.errors
    round_ids = list(stats.round_ids)
    ledger = settled_ledger(database_url, db, round_ids)
    side_lines = [row for row in ledger if row[3] in ("pair", "21+3")]
    assert {row[3] for row in side_lines} == {"pair", "21+3"}, "forty rounds of five seats place both"
    checked = 0
    compliance = as_key(make_key("compliance"))
    for round_id in round_ids:
        transcript = ok(compliance.get(f"/v1/rounds/{round_id}/transcript"), 200)
        seats = transcript["seats"]
        cards = transcript["cards"]
        upcard = cards[len(seats)]
        for index, seat in enumerate(seats):
            first, second = cards[index], cards[len(seats) + 1 + index]
            pair, hand = written_out(first, second, upcard)
            for name, stake in seat.get("side_bets", {}).items():
                paid = pair if name == "pair" else hand
                returned = stake + ODDS[paid] * stake if paid else 0
                outcome = paid or ("no-pair" if name == "pair" else "no-hand")
                assert (round_id, seat["seat"], -1, name, stake, returned, outcome) in side_lines
                checked += 1
        # Replay plays each round to the money the ledger holds for it.
        money = {s["seat"]: (s["staked"], s["returned"]) for s in replay_data(transcript)["seats"]}
        held: dict[int, tuple[int, int]] = {}
        for row in ledger:
            if row[0] == round_id:
                staked, back = held.get(row[1], (0, 0))
                held[row[1]] = (staked + row[4], back + row[5])
        assert money == held
    assert checked == len(side_lines) > 0
