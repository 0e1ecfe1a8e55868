"""How a house-banked round is shown: its result, a terminal's snapshot, and its transcript."""
from __future__ import annotations

from typing import Protocol

from ...actions import Action, LegalAction
from ...cards import best_total
from ...limits import Limits
from ...round_core import action_dict, turn_fields
from .lines import DealerResult
from .paytable import Paytable
from .rules import CanberraRules
from .seats import Seat


class ShownRound(Protocol):
    """What the views read of a round (CanberraRound has all of it)."""

    rules: CanberraRules
    paytable: Paytable
    seats: list[Seat]
    dealer: list[str]
    main_limits: Limits
    side_limits: dict[str, Limits]

    @property
    def phase(self) -> str: ...
    @property
    def awaiting(self) -> str | None: ...
    @property
    def dealer_pontoon(self) -> bool: ...
    @property
    def cards_out(self) -> list[str]: ...
    @property
    def actions(self) -> list[Action]: ...
    def card_recipient(self) -> str | None: ...
    def in_turn(self) -> tuple[int, int] | None: ...
    def legal_actions(self) -> list[LegalAction]: ...


def result(seats: list[Seat], dealer: list[str], final: DealerResult, aces_one: bool) -> dict[str, object]:
    """The round's money in the transcript format's output, from its settled seats."""
    shown = []
    # Plain loops: this runs for every round replayed, and a comprehension is a call of its own.
    for seat in seats:
        hands = []
        for h in seat.hands:
            hands.append({"hand": h.index, "cards": h.cards.copy(), "stake": h.wager + h.double,
                          "total": h.total(aces_one)[0], "outcome": h.outcome})
        shown.append({"seat": seat.number, "staked": seat.staked, "returned": seat.returned,
                      "net": seat.returned - seat.staked, "hands": hands})
    return {"dealer": {"cards": dealer.copy(), "total": final.total, "pontoon": final.pontoon,
                       "bust": final.total > 21},
            "seats": shown}


def snapshot(round_: ShownRound) -> dict[str, object]:
    """Everything a terminal needs to see: phase, what is awaited, legal decisions, every hand."""
    dealer_total, dealer_soft = best_total(round_.dealer) if round_.dealer else (0, False)
    aces_one = round_.rules.double_aces_count_one
    return {
        **turn_fields(round_),
        "dealer": {"cards": list(round_.dealer), "total": dealer_total, "soft": dealer_soft,
                   "pontoon": round_.dealer_pontoon},
        "seats": [{
            "seat": s.number, "wager": s.wager, "side_bets": dict(s.side_bets), "insurance": s.insurance,
            "hands": [{"hand": h.index, "cards": list(h.cards), "wager": h.wager, "double": h.double,
                       "stake": h.stake, "total": h.total(aces_one)[0] if h.cards else 0,
                       "status": h.status} for h in s.hands],
        } for s in round_.seats],
    }


def transcript(round_: ShownRound, rules_ref: str | None = None,
               paytable_ref: str | None = None) -> dict[str, object]:
    """The round so far in the transcript format; a complete round replays to the same money."""
    out: dict[str, object] = {
        "rules": rules_ref or round_.rules.name,
        "paytable": paytable_ref or round_.paytable.name,
        "seats": seat_entries(round_.seats),
        "cards": list(round_.cards_out),
        "actions": [action_dict(a) for a in round_.actions],
    }
    declared = {bet.name: bet.limits for bet in round_.paytable.side_bets}
    if round_.main_limits != round_.rules.main_limits or round_.side_limits != declared:
        out["limits"] = {kind: {"min": lim.minimum, "max": lim.maximum}
                         for kind, lim in (("main", round_.main_limits), *round_.side_limits.items())}
    return out


def seat_entries(seats: list[Seat]) -> list[dict[str, object]]:
    """The wagers the round opened with, in the transcript's `seats` form: a seat's side bets by
    name under `side_bets`, where it placed any."""
    out: list[dict[str, object]] = []
    for seat in seats:
        entry: dict[str, object] = {"seat": seat.number, "wager": seat.wager}
        if seat.side_bets:
            entry["side_bets"] = dict(seat.side_bets)
        out.append(entry)
    return out
