"""What GET and the bank endpoints answer for the player-banked game: the bank, transfers, a round."""
from __future__ import annotations

from typing import Any

from ..engine.games.traditional import TraditionalRound, TraditionalRules
from ..store.repositories.rounds import RoundRow, RoundStatus
from ..store.repositories.table_transfers import TableTransferRow
from .bank_state import BankState
from .money import participant_totals
from .seating import places


def transfer_view(row: TableTransferRow) -> dict:
    return {"seq": row.seq, "kind": row.kind, "from_seat": row.from_seat, "to_seat": row.to_seat,
            "from_place": row.from_place, "to_place": row.to_place, "amount": row.amount,
            "round_id": row.round_id, "created_at": row.created_at}


def bank_view(table_id: str, rules: TraditionalRules, state: BankState,
              transfers: list[TableTransferRow] | None = None) -> dict:
    """The bank as it stands; `transfers` are the ones the request made (the pack's order stays secret)."""
    view: dict[str, Any] = {"table_id": table_id, "banker_place": state.banker_place, "places": places(rules),
                            "shoot": rules.shoot, "kitty": state.kitty}
    if transfers is not None:
        view["transfers"] = [transfer_view(row) for row in transfers]
    return view


def round_fields(row: RoundRow, game: TraditionalRound, snapshot: dict) -> dict:
    """The player-banked round's own part of a round's state: the banker's hand (seat 0), the
    players, the kitty, the money moved so far, and once complete who banks next and whether the
    pack is shuffled."""
    complete = game.complete
    return {
        "dealer": None,
        "seats": [],
        "banker": snapshot["banker"],
        "players": snapshot["players"],
        "kitty": snapshot["kitty"],
        "shoot_room": snapshot["shoot_room"],
        "stakes_doubled": snapshot["stakes_doubled"],
        "transfers": [t.as_dict() for t in game.transfers],
        "next_banker": game.next_banker if complete else None,
        "reshuffle": game.reshuffle if complete else None,
        "settlement": settlement(row, game),
    }


def settlement(row: RoundRow, game: TraditionalRound) -> dict | None:
    """Each participant's money once the ledger has it: the banker as seat 0, the kitty as -1;
    `staked` is what it paid, `returned` what it received."""
    if row.status != RoundStatus.SETTLED:
        return None
    return {"seats": [{"seat": seat, "staked": paid, "returned": received, "net": received - paid}
                      for seat, (paid, received) in sorted(participant_totals(game.transfers).items())]}
