"""What GET and the bank endpoints answer for the player-banked game: the bank, transfers, a round."""
from __future__ import annotations

from typing import Any

from ..engine.games.traditional import TraditionalRound, TraditionalRules
from ..store.repositories.rounds import RoundRow, RoundStatus
from ..store.repositories.table_transfers import TableTransferRow
from ..store.repositories.traditional import RoundSetup
from .bank_state import BankState
from .money import participant_totals
from .seating import BANKER_SEAT, KITTY_SEAT, place_of, places


def transfer_view(row: TableTransferRow) -> dict:
    return {"seq": row.seq, "kind": row.kind, "from_seat": row.from_seat, "to_seat": row.to_seat,
            "from_place": row.from_place, "to_place": row.to_place, "amount": row.amount,
            "round_id": row.round_id, "created_at": row.created_at}


def bank_view(table_id: str, rules: TraditionalRules, state: BankState,
              transfers: list[TableTransferRow] | None = None) -> dict:
    """The bank as it stands; `transfers` are the ones the request made (the pack's order stays secret)."""
    view: dict[str, Any] = {"table_id": table_id, "banker_place": state.banker_place,
                            "banker_chair": chair(state.banker_place), "places": places(rules),
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
    """Each participant's money once the ledger has it: the banker as seat 0, the kitty as -1,
    each named as its `party`; `staked` is what it paid, `returned` what it received."""
    if row.status != RoundStatus.SETTLED:
        return None
    return {"seats": [{"seat": seat, "party": party_name(seat), "staked": paid, "returned": received,
                       "net": received - paid}
                      for seat, (paid, received) in sorted(participant_totals(game.transfers).items())]}


def party_name(seat: int) -> str:
    """A ledger seat as the pit names it: the banker (0), the kitty (-1), or seat N."""
    if seat == BANKER_SEAT:
        return "banker"
    if seat == KITTY_SEAT:
        return "kitty"
    return f"seat {seat}"


def chair(place: int) -> int:
    """A chair as the pit counts them, from 1 (the table keeps them from 0)."""
    return place + 1


def round_bank(setup: RoundSetup | None, game: TraditionalRound) -> dict[str, Any]:
    """A round as the bank saw it: the chair that held the bank, the players' stakes and buys and
    shoot bets, the banker's result and the kitty before and after (once complete), and whether
    the bank passed, to which seat and chair."""
    rules = game.rules
    banker_place = setup.banker_place if setup is not None else None
    passed_to = game.next_banker
    hands = [h for seat in game.seats for h in seat.hands]
    return {
        "banker_chair": chair(banker_place) if banker_place is not None else None,
        "chairs": places(rules),
        "stakes": sum(h.stake for h in hands),
        "buys": sum(sum(h.buys) for h in hands),
        "shoot_bets": sum(h.shoot_total for h in hands),
        "banker_net": game.net("banker") if game.complete else None,
        "shoot": rules.shoot,
        "kitty_before": game.kitty_before if rules.shoot else None,
        "kitty_after": game.kitty if rules.shoot and game.complete else None,
        "passed_to_seat": passed_to,
        "passed_to_chair": chair(place_of(passed_to, banker_place, rules))
        if passed_to is not None and banker_place is not None else None,
    }
