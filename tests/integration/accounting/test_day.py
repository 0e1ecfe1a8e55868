"""A gaming day at three tables through the REST API, as the floor would run it: each table opened
(its tray counted and signed), buy-ins at its seats, rounds of both games, fills and credits
through the cage, a change of shift (the tray counted again), its closer, and the count of its drop
box by two counters. The statement is held to a calculation written out here, table by table and
shift by shift; `audit verify` finds the issued statement following from its slips and counts. A
box miscounted and a fill recorded at the wrong table are each flagged."""
from __future__ import annotations

import json

import psycopg
import pytest

from service.audit.verify import verify_database
from tests.conftest import TRANSCRIPTS
from tests.support.api_client import Api, drive_round, ok

pytestmark = pytest.mark.integration

DENOMINATIONS = (100000, 50000, 10000, 2500, 500, 100)      # cents: the configured chips, largest first
FIGURES = ("opener", "closer", "fills", "credits", "drop", "win", "hold_percent", "handle", "game_win", "buy_ins",
           "variance", "flagged")


def chips_for(total: int) -> dict[str, int]:
    """A tray of `total` cents in the fewest chips."""
    chips = {}
    for denomination in DENOMINATIONS:
        count, total = divmod(total, denomination)
        if count:
            chips[str(denomination)] = count
    assert total == 0
    return chips


class Floor:
    """The people at work: a supervisor's key, the cage's, two counters', and each table's terminal
    (signing for its dealer)."""

    def __init__(self, key_of, settle) -> None:
        self.supervisor, self.cage = key_of("supervisor"), key_of("cage")
        self.counters = (key_of("count"), key_of("count"))
        self.settle = settle
        self.day: str | None = None

    def tray(self, table_id: str, terminal: Api, kind: str, total: int) -> dict:
        slip = ok(self.supervisor.post(f"/v1/tables/{table_id}/tray-counts", {"kind": kind, "chips": chips_for(total)}),
                  201)
        self.day = slip["gaming_day"]
        return ok(terminal.post(f"/v1/slips/{slip['serial']}/sign", {}), 200)

    def chips(self, table_id: str, terminal: Api, kind: str, chips: dict[str, int]) -> dict:
        slip = ok(self.supervisor.post(f"/v1/tables/{table_id}/{kind}s", {"chips": chips}), 201)
        ok(self.cage.post(f"/v1/slips/{slip['serial']}/issue", {}), 200)
        ok(terminal.post(f"/v1/slips/{slip['serial']}/sign", {}), 200)
        return ok(self.supervisor.post(f"/v1/slips/{slip['serial']}/sign", {}), 200)

    def count(self, table_id: str, cash: int, markers: int) -> None:
        for counter in self.counters:
            counted = ok(counter.post(f"/v1/tables/{table_id}/drop-counts",
                                      {"gaming_day": self.day, "cash": cash, "markers": markers}), 201)
        assert counted["status"] == "final"


def buy_in(terminal: Api, table_id: str, seat: int, amount: int, method: str = "cash") -> None:
    ok(terminal.post(f"/v1/tables/{table_id}/buy-ins", {"seat": seat, "amount": amount, "method": method}), 201)


def play(floor: Floor, terminal: Api, table_id: str, name: str) -> str:
    """A worked round (tests/fixtures/transcripts), dealt from a new physical shoe and settled."""
    path = TRANSCRIPTS / f"{name}.json"
    transcript = json.loads(path.read_text())
    ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": "physical"}), 201)
    body = {"players": transcript["players"]} if "players" in transcript else {"wagers": transcript["seats"]}
    opened = ok(terminal.post(f"/v1/tables/{table_id}/rounds", body), 201)
    actions = [{key: a[key] for key in ("seat", "action", "hand", "amount") if key in a}
               for a in transcript["actions"]]
    played = drive_round(terminal, opened["round_id"], transcript["cards"], actions)
    assert played.refusal is None and played.state["status"] == "complete", played.state
    floor.settle(opened["round_id"])
    return str(opened["round_id"])


def game(name: str) -> tuple[int, int]:
    """A house-banked worked round's (stakes, house's win) from its expected result."""
    expected = json.loads((TRANSCRIPTS / f"{name}.expected.json").read_text())
    staked = sum(seat["staked"] for seat in expected["seats"])
    return staked, staked - sum(seat["returned"] for seat in expected["seats"])


def shown(statement: dict, table_id: str) -> dict:
    return next(table for table in statement["tables"] if table["table_id"] == table_id)


def test_a_gaming_day_at_three_tables_states_what_the_calculation_does(new_table, key_of, settle, database_url):
    floor = Floor(key_of, settle)
    (a, at_a), (b, at_b), (c, at_c) = new_table(shoe=None), new_table(shoe=None), new_table("traditional", None)

    # ----- shift 1 ----------------------------------------------------------------------------
    floor.tray(a, at_a, "opener", 500000)
    floor.tray(b, at_b, "opener", 300000)
    floor.tray(c, at_c, "opener", 200000)
    buy_in(at_a, a, 1, 50000)
    buy_in(at_a, a, 2, 100000, "marker")
    buy_in(at_b, b, 1, 40000)
    buy_in(at_c, c, 1, 10000)
    buy_in(at_c, c, 2, 10000)
    for name in ("dealer-bust", "five-card-21"):
        play(floor, at_a, a, name)
    play(floor, at_b, b, "three-seats-dealer-bust")
    for name in ("banker-five-card-trick", "player-pontoon-takes-bank"):
        play(floor, at_c, c, f"traditional/{name}")
    floor.chips(a, at_a, "fill", {"10000": 5})
    # Each tray at the change of shift: opener - chips sold + fills - credits + what the house won.
    a_1 = 500000 - (50000 + 100000) + 50000 + (game("dealer-bust")[1] + game("five-card-21")[1])      # 396,000
    b_1 = 300000 - 40000 + game("three-seats-dealer-bust")[1]                                           # 256,000
    c_1 = 200000 - (10000 + 10000)              # the player-banked game: players win from one another
    floor.tray(a, at_a, "shift_change", a_1)
    floor.tray(b, at_b, "shift_change", b_1)
    floor.tray(c, at_c, "shift_change", c_1)

    # ----- shift 2 ----------------------------------------------------------------------------
    for name in ("double-then-forfeit", "surrender-half"):
        play(floor, at_a, a, name)
    buy_in(at_a, a, 3, 20000)
    floor.chips(a, at_a, "credit", {"50000": 2})
    play(floor, at_b, b, "pontoon-beats-dealer-pontoon-insurance")
    floor.chips(b, at_b, "fill", {"10000": 2})
    play(floor, at_c, c, "traditional/buys-five-card-trick")
    buy_in(at_c, c, 1, 5000, "marker")
    a_2 = a_1 - 20000 - 100000 + (game("double-then-forfeit")[1] + game("surrender-half")[1])          # 278,000
    b_2 = b_1 + 20000 + game("pontoon-beats-dealer-pontoon-insurance")[1]                               # 274,500
    c_2 = c_1 - 5000                                                                                     # 175,000
    floor.tray(a, at_a, "closer", a_2)
    floor.tray(b, at_b, "closer", b_2)
    floor.tray(c, at_c, "closer", c_2)
    floor.count(a, 70000, 100000)
    floor.count(b, 40000, 0)
    floor.count(c, 20000, 5000)

    # ----- the calculation --------------------------------------------------------------------
    # win = drop + credits - fills + (closer - opener); hold = win / drop; variance = win - game win.
    a_handle = sum(game(n)[0] for n in ("dealer-bust", "five-card-21", "double-then-forfeit", "surrender-half"))
    a_game = sum(game(n)[1] for n in ("dealer-bust", "five-card-21", "double-then-forfeit", "surrender-half"))
    b_handle = sum(game(n)[0] for n in ("three-seats-dealer-bust", "pontoon-beats-dealer-pontoon-insurance"))
    b_game = sum(game(n)[1] for n in ("three-seats-dealer-bust", "pontoon-beats-dealer-pontoon-insurance"))
    # The player-banked rounds' handle is every payment between their players: the banker's five-card
    # trick takes 200 from seat 2 and pays 200 to seat 1; seat 1's Pontoon and seat 2's win take 200
    # and 100 from the banker; seat 1's five-card trick after its buys takes 940 from the banker.
    c_handle = (200 + 200) + (200 + 100) + 940
    expected = {
        a: {"opener": 500000, "closer": 278000, "fills": 50000, "credits": 100000, "drop": 170000,
            "win": 170000 + 100000 - 50000 + (278000 - 500000), "hold_percent": -1.18,   # -2,000 / 170,000
            "handle": a_handle, "game_win": a_game, "buy_ins": 170000, "variance": 0, "flagged": False},
        b: {"opener": 300000, "closer": 274500, "fills": 20000, "credits": 0, "drop": 40000,
            "win": 40000 + 0 - 20000 + (274500 - 300000), "hold_percent": -13.75,        # -5,500 / 40,000
            "handle": b_handle, "game_win": b_game, "buy_ins": 40000, "variance": 0, "flagged": False},
        c: {"opener": 200000, "closer": 175000, "fills": 0, "credits": 0, "drop": 25000,
            "win": 25000 + (175000 - 200000), "hold_percent": 0.0,
            "handle": c_handle, "game_win": 0, "buy_ins": 25000, "variance": 0, "flagged": False},
    }
    assert (a_handle, a_game, b_handle, b_game) == (6000, -2000, 8000, -5500)
    assert expected[a]["win"] == a_game and expected[b]["win"] == b_game

    compliance = key_of("compliance")
    statement = ok(compliance.get(f"/v1/reports/table-games-statement?gaming_day={floor.day}"), 200)
    for table_id, figures in expected.items():
        table = shown(statement, table_id)
        assert {name: table[name] for name in FIGURES} == figures, table_id
        assert table["reasons"] == [] and table["rounds"] == {a: 4, b: 2, c: 3}[table_id]

    # Shift by shift: tray result = credits - fills + (closer - opener); variance = tray result +
    # buy-ins - game win (the box is counted once, for the day).
    first_a, second_a = shown(statement, a)["shifts"]
    assert (first_a["opener"], first_a["closer"], first_a["fills"], first_a["buy_ins"], first_a["game_win"]) == (
        500000, a_1, 50000, 150000, game("dealer-bust")[1] + game("five-card-21")[1])
    assert first_a["tray_result"] == 0 - 50000 + (a_1 - 500000) and first_a["variance"] == 0
    assert (second_a["opener"], second_a["closer"], second_a["credits"], second_a["buy_ins"]) == (a_1, 278000, 100000,
                                                                                                  20000)
    assert second_a["tray_result"] == 100000 - 0 + (278000 - a_1) and second_a["variance"] == 0
    first_b, second_b = shown(statement, b)["shifts"]
    assert (first_b["closer"], second_b["fills"], second_b["variance"]) == (256000, 20000, 0)
    first_c, second_c = shown(statement, c)["shifts"]
    assert (first_c["buy_ins"], second_c["buy_ins"], first_c["variance"], second_c["variance"]) == (20000, 5000, 0, 0)

    issued = ok(compliance.post("/v1/reports/table-games-statement", {"gaming_day": floor.day}), 201)
    assert {name: shown(issued, a)[name] for name in FIGURES} == expected[a]
    report = verify_database_of(database_url)
    assert report.intact, [str(problem) for problem in report.problems]


def verify_database_of(database_url: str):
    with psycopg.connect(database_url, autocommit=True) as conn:
        return verify_database(conn)


def test_a_miscounted_box_and_a_fill_at_the_wrong_table_are_flagged(new_table, key_of, settle):
    floor = Floor(key_of, settle)
    (d, at_d), (e, at_e), (f, at_f) = new_table(shoe=None), new_table(shoe=None), new_table(shoe=None)
    for table_id, terminal in ((d, at_d), (e, at_e), (f, at_f)):
        floor.tray(table_id, terminal, "opener", 100000)
    buy_in(at_d, d, 1, 10000)
    buy_in(at_e, e, 1, 20000)
    buy_in(at_f, f, 1, 5000)
    play(floor, at_d, d, "dealer-bust")                     # the house loses 1,000
    play(floor, at_e, e, "double-then-forfeit")             # the house wins 1,000
    # F's fill of $300 is written, issued and received at table D; its chips go to F's tray.
    floor.chips(d, at_d, "fill", {"10000": 3})
    floor.tray(d, at_d, "closer", 100000 - 10000 - 1000)    # 89,000: D never had the fill's chips
    floor.tray(e, at_e, "closer", 100000 - 20000 + 1000)    # 81,000
    floor.tray(f, at_f, "closer", 100000 - 5000 + 30000)    # 125,000: the fill's chips are here
    floor.count(d, 10000, 0)
    floor.count(e, 35000, 0)                                # E's box held 20,000: both counters got 35,000
    floor.count(f, 5000, 0)

    statement = ok(key_of("supervisor").get(f"/v1/reports/table-games-statement?gaming_day={floor.day}"), 200)
    threshold = statement["variance_threshold"]
    table_d, table_e, table_f = shown(statement, d), shown(statement, e), shown(statement, f)
    # D: 10,000 + 0 - 30,000 + (89,000 - 100,000) = -31,000 against a game win of -1,000.
    assert (table_d["win"], table_d["game_win"], table_d["variance"]) == (-31000, -1000, -30000)
    # E: 35,000 + (81,000 - 100,000) = 16,000 against 1,000: the box's extra 15,000.
    assert (table_e["win"], table_e["game_win"], table_e["variance"]) == (16000, 1000, 15000)
    # F: 5,000 + (125,000 - 100,000) = 30,000 against nothing played.
    assert (table_f["win"], table_f["game_win"], table_f["variance"]) == (30000, 0, 30000)
    assert threshold < 15000
    for table in (table_d, table_e, table_f):
        assert table["flagged"] and any("beyond the threshold" in reason for reason in table["reasons"])
    assert statement["floor"]["flagged_tables"] >= 3
