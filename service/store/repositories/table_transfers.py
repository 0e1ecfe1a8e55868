"""Table transfers: money between a player-banked table's participants outside any round."""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from psycopg.rows import class_row

from ..transaction import Statements, returned


@dataclass(frozen=True, slots=True)
class TableTransferRow:
    table_id: str
    seq: int
    kind: str                       # kitty-put-up | kitty-topped-up | kitty-taken | bank-sale
    from_seat: int                  # 0 the banker, -1 the kitty, N a player
    to_seat: int
    from_place: int | None          # the chair; None for the kitty
    to_place: int | None
    amount: int
    round_id: uuid.UUID | None
    actor: str | None
    created_at: datetime




class TableTransfersRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    def add(self, *, table_id: str, kind: str, from_seat: int, to_seat: int, from_place: int | None,
            to_place: int | None, amount: int, round_id: uuid.UUID | None, actor: str | None) -> TableTransferRow:
        """Append the table's next transfer. The caller holds the table's row lock, which makes
        the next seq safe to take here (and a retry that slipped past it fails the unique key)."""
        with self.db.cursor(row_factory=class_row(TableTransferRow)) as cur:
            return returned(cur.execute(
                "INSERT INTO table_transfers (table_id, seq, kind, from_seat, to_seat, from_place, to_place, amount, "
                "round_id, actor) SELECT %(table_id)s, COALESCE(max(seq), 0) + 1, %(kind)s, %(from_seat)s, "
                "%(to_seat)s, %(from_place)s, %(to_place)s, %(amount)s, %(round_id)s, %(actor)s "
                "FROM table_transfers WHERE table_id = %(table_id)s RETURNING table_id, seq, kind, from_seat, "
                "to_seat, from_place, to_place, amount, round_id, actor, created_at",
                {"table_id": table_id, "kind": kind, "from_seat": from_seat, "to_seat": to_seat,
                 "from_place": from_place, "to_place": to_place, "amount": amount, "round_id": round_id,
                 "actor": actor}).fetchone())
