"""Reading the money back: per round from the ledger, per chair from the ledger and table transfers."""
from __future__ import annotations

from collections import Counter

import psycopg

from tests.support.api_client import Api, ok


def round_nets_from_ledger(db: psycopg.Connection, round_id: str) -> dict[int, int]:
    """{seat: net} of one settled round as the ledger holds it (0 the banker, -1 the kitty)."""
    rows = db.execute("SELECT seat, sum(returned - stake) FROM ledger_entries WHERE round_id = %s GROUP BY seat",
                      (round_id,)).fetchall()
    return {seat: int(net) for seat, net in rows}


def chair_balances(db: psycopg.Connection, table_id: str, places: int = 10) -> dict:
    """Each chair's money over the table's life (key "kitty" for the kitty): ledger rows mapped to
    chairs through each round's banker chair, plus the table transfers."""
    balances: Counter = Counter()
    rows = db.execute(
        "SELECT l.seat, t.banker_place, sum(l.returned - l.stake) FROM ledger_entries l "
        "JOIN traditional_rounds t USING (round_id) WHERE l.table_id = %s GROUP BY l.seat, t.banker_place",
        (table_id,)).fetchall()
    for seat, banker_place, net in rows:
        balances["kitty" if seat == -1 else (banker_place + seat) % places] += int(net)
    for from_place, to_place, amount in db.execute(
            "SELECT from_place, to_place, amount FROM table_transfers WHERE table_id = %s ORDER BY seq",
            (table_id,)):
        balances["kitty" if from_place is None else from_place] -= amount
        balances["kitty" if to_place is None else to_place] += amount
    return {chair: net for chair, net in balances.items() if net}


def nets_of(state: dict) -> tuple[int, dict[int, int], int]:
    """(banker's net, {seat: net}, the kitty's change) from a round's state, by its transfers."""
    net: Counter = Counter()
    for transfer in state["transfers"]:
        net[transfer["from"]] -= transfer["amount"]
        net[transfer["to"]] += transfer["amount"]
    players = {p["seat"]: net[f"seat {p['seat']}"] for p in state["players"]}
    return net["banker"], players, net["kitty"]


def bank_of(terminal: Api, table_id: str) -> dict:
    return ok(terminal.get(f"/v1/tables/{table_id}"), 200)["bank"]
