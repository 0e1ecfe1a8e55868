"""The ledger: one row per bet, written by settlement in bulk (COPY to a temp table, one INSERT ...
ON CONFLICT), a void's refunds, and the bets a recall shows."""
from __future__ import annotations

import uuid
from dataclasses import dataclass

from psycopg import sql
from psycopg.rows import class_row, dict_row

from ..transaction import Statements
from .rounds import RoundRow

# The ledger's hand for seat-level bets (a refund, a side bet, insurance, envy): the column is NOT NULL.
NO_HAND = -1

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
    """One bet's row of ledger_entries, as settlement writes it."""

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


@dataclass(frozen=True, slots=True)
class BetRow:
    """One bet of a round as the ledger holds it (hand NO_HAND: a seat-level bet)."""

    round_id: uuid.UUID
    seat: int
    hand: int
    kind: str
    stake: int
    returned: int
    outcome: str


class LedgerRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    def add_refund(self, row: RoundRow, seat: int, amount: int, kind: str) -> None:
        """A stake given back to a seat of a voided round (outcome 'void'). Plain INSERT: the round
        is locked and open, so no refund row can exist; a conflict would be a defect and must stop
        the void."""
        self.db.execute(
            "INSERT INTO ledger_entries (round_id, table_id, shoe_id, rules_ref, paytable_ref, seat, hand, kind, "
            "stake, returned, outcome) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, 'void')",
            (row.round_id, row.table_id, row.shoe_id, row.rules_ref, row.paytable_ref, seat, NO_HAND, kind,
             amount, amount))

    def bets_of(self, round_ids: list[uuid.UUID]) -> list[BetRow]:
        """Every bet of the rounds, in round, seat, hand and entry order."""
        with self.db.cursor(row_factory=class_row(BetRow)) as cur:
            return cur.execute(
                "SELECT round_id, seat, hand, kind, stake, returned, outcome FROM ledger_entries "
                "WHERE round_id = ANY(%s) ORDER BY round_id, seat, hand, id", (round_ids,)).fetchall()

    def write(self, rows: list[LedgerRow]) -> int:
        """COPY the rows into a session temp table, then one INSERT ... ON CONFLICT DO NOTHING.
        Rows already present must match exactly; otherwise LedgerConflict, naming every round whose
        rows differ (the caller rolls back what this wrote)."""
        if not rows:
            return 0
        self.db.execute("CREATE TEMP TABLE IF NOT EXISTS ledger_stage ("
                        " round_id uuid, table_id text, shoe_id uuid, rules_ref text, paytable_ref text,"
                        " seat integer, hand integer, kind text, stake bigint, returned bigint, outcome text"
                        ") ON COMMIT DELETE ROWS")
        columns = sql.SQL(", ").join(map(sql.Identifier, LEDGER_COLUMNS))
        with self.db.cursor() as cur:
            with cur.copy(sql.SQL("COPY ledger_stage ({columns}) FROM STDIN").format(columns=columns)) as copy:
                for row in rows:
                    copy.write_row(row.as_tuple())
            cur.execute(sql.SQL("INSERT INTO ledger_entries ({columns}) SELECT {columns} FROM ledger_stage "
                                "ON CONFLICT (round_id, seat, hand, kind) DO NOTHING").format(columns=columns))
            inserted = cur.rowcount
        if inserted != len(rows):
            self._check_staged_rows_agree()
        # A later batch in this transaction starts clean. DELETE, not TRUNCATE: truncating the temp
        # table would give it a new file and rewrite its catalog row on every batch (invalidations
        # every other connection then processes); ON COMMIT DELETE ROWS empties it in place.
        self.db.execute("DELETE FROM ledger_stage")
        return inserted

    def _check_staged_rows_agree(self) -> None:
        differs = sql.SQL(" OR ").join(
            sql.SQL("l.{column} IS DISTINCT FROM s.{column}").format(column=sql.Identifier(column))
            for column in LEDGER_COLUMNS if column not in _KEY)
        with self.db.cursor(row_factory=dict_row) as cur:
            bad = cur.execute(sql.SQL(
                "SELECT s.round_id::text AS round_id, s.seat, s.hand, s.kind FROM ledger_stage s "
                "JOIN ledger_entries l USING (round_id, seat, hand, kind) WHERE {differs} "
                "ORDER BY s.round_id, s.seat, s.hand, s.kind").format(differs=differs)).fetchall()
        rounds: dict[str, list[str]] = {}
        for row in bad:
            seat, hand = row["seat"], row["hand"]
            where = f"seat {seat}" if hand == NO_HAND else f"seat {seat} hand {hand}"
            rounds.setdefault(row["round_id"], []).append(f"{where} {row['kind']}")
        if rounds:
            raise LedgerConflict({round_id: "the ledger already holds other figures for " + ", ".join(bets)
                                  for round_id, bets in rounds.items()})
