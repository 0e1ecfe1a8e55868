"""How a player-banked round is shown: its result, a terminal's snapshot, and its transcript."""
from __future__ import annotations

from typing import Any

from ...actions import RuleViolation
from ...round_core import action_dict, turn_fields
from .hands import BankerStatus, value
from .seats import PlayerHand, PlayerSeat
from .state import RoundState
from .transfers import BANKER, seat_party


def result(round_: RoundState) -> dict[str, Any]:
    """The round's money in the transcript format's output (complete rounds only)."""
    if not round_.complete:
        raise RuleViolation("the round is not complete", round_.legal_actions)
    return {
        "banker": {"cards": list(round_.banker), "total": value(round_.banker), "pontoon": round_.banker_pontoon,
                   "five_card_trick": round_.banker_status == BankerStatus.FIVE_CARD_TRICK,
                   "bust": round_.banker_status == BankerStatus.BUST, "net": round_.net(BANKER)},
        "players": [_player_result(round_, seat) for seat in round_.seats],
        "kitty": round_.kitty,
        "next_banker": round_.next_banker,
        "reshuffle": round_.reshuffle,
    }


def _player_result(round_: RoundState, seat: PlayerSeat) -> dict[str, Any]:
    party = seat_party(seat.number)
    return {
        "seat": seat.number,
        "net": round_.ledger.net(party),
        "stake": seat.stake,
        "hands": [{
            "hand": h.index, "cards": list(h.cards), "stake": h.total_stake, "buys": list(h.buys),
            "total": value(h.cards), "outcome": h.outcome, "shoot": h.shoot_total,
            "net": round_.ledger.net(party, h.index),
            **({"burned": list(h.burned)} if h.burned else {}),
        } for h in seat.hands],
    }


def twists(hand: PlayerHand) -> int:
    """How many of the hand's cards it twisted: every card past its first two that it did not buy
    (a hand that twists buys no more, so its buys come first)."""
    return max(len(hand.cards) - 2 - len(hand.buys), 0) if hand.twisted else 0


def snapshot(round_: RoundState) -> dict[str, Any]:
    """Everything a terminal needs to see: phase, what is awaited, legal decisions, every hand."""
    return {
        **turn_fields(round_),
        "stakes_doubled": round_.stakes_doubled,
        "banker": {"cards": list(round_.banker), "total": value(round_.banker), "status": round_.banker_status},
        "kitty": round_.kitty,
        "shoot_room": round_.shoot_room if round_.rules.shoot else 0,
        "players": [{
            "seat": s.number, "stake": s.stake,
            "hands": [{"hand": h.index, "cards": list(h.cards), "stake": h.total_stake, "buys": list(h.buys),
                       "twisted": h.twisted, "twists": twists(h), "shoot": h.shoot_total, "total": value(h.cards),
                       "status": h.status, "burned": list(h.burned)} for h in s.hands],
        } for s in round_.seats],
    }


def transcript(round_: RoundState, rules_ref: str | None = None) -> dict[str, Any]:
    """The round so far in the transcript format; a complete round replays to the same money."""
    players: list[dict[str, int]] = []
    for seat in round_.seats:
        entry = {"seat": seat.number, "stake": seat.stake}
        if seat.shoot:
            entry["shoot"] = seat.shoot
        players.append(entry)
    out: dict[str, Any] = {
        "rules": rules_ref or round_.rules.name, "options": round_.rules.options(), "players": players,
        "cards": list(round_.cards_out),
        # A split's amount is the shoot bet on the new hand, and the transcript names it so.
        "actions": [action_dict(a, "shoot" if a.action == "split" else "amount") for a in round_.actions]}
    if round_.rules.shoot:
        out["kitty"] = round_.kitty_before
    if round_.table_limits:   # the table's own limits: the round's bets were checked against them
        out["limits"] = {kind: {"min": limit.minimum, "max": limit.maximum}
                         for kind, limit in round_.table_limits.items()}
    return out
