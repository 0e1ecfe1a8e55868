"""A player-banked table's state between rounds (tables.state) and each round's starting point."""
from __future__ import annotations

import uuid
from dataclasses import dataclass

from psycopg.rows import class_row, dict_row
from psycopg.types.json import Jsonb

from ..transaction import Statements


@dataclass(frozen=True, slots=True)
class RoundSetup:
    """What a player-banked round started from besides its players: the banker's chair, the kitty."""

    banker_place: int
    kitty_before: int


class TraditionalRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    def lock_state(self, table_id: str) -> dict | None:
        """The table's state, its row locked until the transaction ends (None: no such table)."""
        with self.db.cursor(row_factory=dict_row) as cur:
            row = cur.execute("SELECT state FROM tables WHERE table_id = %s FOR UPDATE", (table_id,)).fetchone()
        return row["state"] if row else None

    def state(self, table_id: str) -> dict | None:
        with self.db.cursor(row_factory=dict_row) as cur:
            row = cur.execute("SELECT state FROM tables WHERE table_id = %s", (table_id,)).fetchone()
        return row["state"] if row else None

    def save_state(self, table_id: str, state: dict) -> None:
        """Write the state back (the caller took the row lock with lock_state)."""
        self.db.execute("UPDATE tables SET state = %s WHERE table_id = %s", (Jsonb(state), table_id))

    def add_round(self, round_id: uuid.UUID, table_id: str, setup: RoundSetup) -> None:
        self.db.execute("INSERT INTO traditional_rounds (round_id, table_id, banker_place, kitty_before) "
                          "VALUES (%s, %s, %s, %s)", (round_id, table_id, setup.banker_place, setup.kitty_before))

    def round_setup(self, round_id: uuid.UUID) -> RoundSetup | None:
        with self.db.cursor(row_factory=class_row(RoundSetup)) as cur:
            return cur.execute("SELECT banker_place, kitty_before FROM traditional_rounds WHERE round_id = %s",
                               (round_id,)).fetchone()
