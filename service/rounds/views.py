"""What GET answers: a round's state, a table, a shoe (its order only once the shoe is closed)."""
from __future__ import annotations

import uuid
from typing import Any

from ..games import family_of
from ..rules import Ref
from ..store.repositories.rounds import RoundRow, RoundStatus
from ..store.repositories.shoes import ShoeRow
from ..store.repositories.tables import TableRow


def round_state(row: RoundRow, game: Any, shoe_past_cut_card: bool | None = None) -> dict:
    """The whole state a terminal needs: what is awaited, the hand in turn and its legal
    decisions, every hand, the dealer, and the settlement once the ledger has it.
    `shoe_past_cut_card`: whether the round's virtual shoe, as the request left it, has passed its
    cut card (None where the answer does not say)."""
    snapshot = game.snapshot()
    live = row.status == RoundStatus.OPEN
    legal = snapshot["legal_actions"] if live else []
    in_turn = None
    if live and snapshot["in_turn"]:
        seat, hand = snapshot["in_turn"]["seat"], snapshot["in_turn"]["hand"]
        in_turn = {"seat": seat, "hand": hand,
                   "legal_actions": [a for a in legal if a["seat"] == seat and a.get("hand") == hand]}
    view = {
        "round_id": row.round_id, "table_id": row.table_id, "shoe_id": row.shoe_id, "shoe_mode": row.shoe_mode,
        "status": row.status, "revision": row.version, "rules": row.rules_ref, "paytable": row.paytable_ref,
        "phase": snapshot["phase"],
        "awaiting": snapshot["awaiting"] if live else None,
        "card_to": snapshot["card_to"] if live else None,
        "in_turn": in_turn,
        "legal_actions": legal,
        "opened_at": row.opened_at, "completed_at": row.completed_at, "settled_at": row.settled_at,
        "voided_at": row.voided_at, "shoe_past_cut_card": shoe_past_cut_card,
    }
    # The game's own part: the dealer and seats, or the banker, players and kitty, and the money.
    view.update(family_of(game.rules).round_fields(row, game, snapshot))
    return view


def shoe_view(shoe: ShoeRow) -> dict:
    view = {"shoe_id": shoe.shoe_id, "table_id": shoe.table_id, "mode": shoe.mode, "commitment": shoe.commitment,
            "position": shoe.position, "opened_at": shoe.opened_at, "closed_at": shoe.closed_at,
            "card_order": None, "salt": None}
    if shoe.closed_at is not None and shoe.mode == "virtual":
        view["card_order"], view["salt"] = shoe.card_order, shoe.salt
    return view


def table_view(table: TableRow, limits: dict, shoe: ShoeRow | None, open_round_id: uuid.UUID | None) -> dict:
    return {
        "table_id": table.table_id, "game": table.game,
        "rules": str(Ref(table.rules, table.rules_version)),
        "paytable": str(Ref(table.paytable, table.paytable_version or 1)) if table.paytable else None,
        "limits": limits, "created_at": table.created_at,
        "current_shoe": shoe_view(shoe) if shoe else None,
        "open_round_id": open_round_id,
    }
