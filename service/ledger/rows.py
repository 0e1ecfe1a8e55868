"""Ledger rows: one per bet, written in bulk (COPY to a temp table, one INSERT ... ON CONFLICT)."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import psycopg

from ..store.repositories.ledger import NO_HAND  # the ledger's hand for seat-level bets (pair, insurance, envy)

LEDGER_COLUMNS = ("round_id", "table_id", "shoe_id", "rules_ref", "paytable_ref",
                  "seat", "hand", "kind", "stake", "returned", "outcome")
_KEY = ("round_id", "seat", "hand", "kind")


class LedgerConflict(RuntimeError):
    """Ledger rows already there for rounds being settled disagree with their replay. `rounds`
    names each such round with the bets that differ."""

    def __init__(self, rounds: dict[str, str]) -> None:
        super().__init__("ledger rows already present disagree with the replay: "
                         + "; ".join(f"round {round_id}: {bets}" for round_id, bets in rounds.items()))
        self.rounds = rounds

    def __reduce__(self):  # the mapping, not the one message RuntimeError would pickle
        return (LedgerConflict, (self.rounds,))


@dataclass(frozen=True)
class LedgerRow:
    round_id: str
    table_id: str
    shoe_id: str | None
    rules_ref: str
    paytable_ref: str | None
    seat: int
    hand: int
    kind: str
    stake: int
    returned: int
    outcome: str

    def as_tuple(self) -> tuple:
        return tuple(getattr(self, name) for name in LEDGER_COLUMNS)


def rows_for_bets(round_id: str, table_id: str, shoe_id: str | None, rules_ref: str, paytable_ref: str | None,
                  bets: Iterable[Any]) -> list[LedgerRow]:
    """The ledger rows of a round's bet lines (the engine's BetLines)."""
    return [LedgerRow(round_id, table_id, shoe_id, rules_ref, paytable_ref, bet.seat,
                      NO_HAND if bet.hand is None else bet.hand, bet.kind, bet.stake, bet.returned, bet.outcome)
            for bet in bets]


def write_ledger(conn: psycopg.Connection, rows: list[LedgerRow]) -> int:
    """COPY the rows into a session temp table, then one INSERT ... ON CONFLICT DO NOTHING.
    Rows already present must match exactly; otherwise LedgerConflict, naming every round whose
    rows differ (the caller rolls back what this wrote)."""
    if not rows:
        return 0
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS ledger_stage ("
                 " round_id uuid, table_id text, shoe_id uuid, rules_ref text, paytable_ref text,"
                 " seat integer, hand integer, kind text, stake bigint, returned bigint, outcome text"
                 ") ON COMMIT DELETE ROWS")
    columns = ", ".join(LEDGER_COLUMNS)
    with conn.cursor() as cur:
        with cur.copy(f"COPY ledger_stage ({columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row.as_tuple())
        cur.execute(f"INSERT INTO ledger_entries ({columns}) SELECT {columns} FROM ledger_stage "
                    "ON CONFLICT (round_id, seat, hand, kind) DO NOTHING")
        inserted = cur.rowcount
    if inserted != len(rows):
        _check_existing_rows_agree(conn)
    # A later batch in this transaction starts clean. DELETE, not TRUNCATE: truncating the temp
    # table would give it a new file and rewrite its catalog row on every batch (invalidations
    # every other connection then processes); ON COMMIT DELETE ROWS empties it in place.
    conn.execute("DELETE FROM ledger_stage")
    return inserted


def _check_existing_rows_agree(conn: psycopg.Connection) -> None:
    cols = [c for c in LEDGER_COLUMNS if c not in _KEY]
    differs = " OR ".join(f"l.{c} IS DISTINCT FROM s.{c}" for c in cols)
    bad = conn.execute(f"SELECT s.round_id::text, s.seat, s.hand, s.kind FROM ledger_stage s "
                       f"JOIN ledger_entries l USING (round_id, seat, hand, kind) WHERE {differs} "
                       f"ORDER BY 1, 2, 3, 4").fetchall()
    rounds: dict[str, list[str]] = {}
    for round_id, seat, hand, kind in bad:
        where = f"seat {seat}" if hand == NO_HAND else f"seat {seat} hand {hand}"
        rounds.setdefault(round_id, []).append(f"{where} {kind}")
    if rounds:
        raise LedgerConflict({round_id: "the ledger already holds other figures for " + ", ".join(bets)
                              for round_id, bets in rounds.items()})
