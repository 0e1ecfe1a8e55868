"""The seats and hands of a house-banked round, their statuses, and the wagers that open it."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum

from ...actions import RuleViolation
from ...cards import ACES, CARD_POINTS
from ...limits import Limits
from .lines import BetLine
from .paytable import Paytable


class HandStatus(StrEnum):
    """Where a hand stands. PLAYING hands take decisions; STOOD hands wait for the dealer; the
    rest are decided already (PONTOON may still wait for the dealer when the rules do not pay it
    at once)."""

    PLAYING = "playing"
    STOOD = "stood"
    WON21 = "twenty-one"
    PONTOON = "pontoon"
    BUST = "bust"
    FORFEIT = "forfeit"
    SURRENDERED = "surrendered"


class Phase(StrEnum):
    """The round's phase: the opening deal, the players' turns, the dealer's hand, complete."""

    DEAL = "deal"
    PLAY = "play"
    DEALER = "dealer"
    COMPLETE = "complete"


# The members under short names: the round compares a hand's status at every card and decision.
PLAYING, STOOD, WON21, PONTOON, BUST, FORFEIT, SURRENDERED = HandStatus
DEAL, PLAY, DEALER, COMPLETE = Phase

MAIN = "main"                # the main wager's limits; a side bet's go by its name
# The pair bet's field in wagers, transcripts and table limits written before side bets were
# declared in the paytable: read as the side bet named `pair` (see docs/decisions.md).
PAIR_BET_FIELD, PAIR_BET_NAME = "pair_bet", "pair"
_SEAT_FIELDS = frozenset({"seat", "wager", "side_bets", PAIR_BET_FIELD})   # what a seat's entry may hold
# Where each hand's cards go, as records name it: made once for the seats and hands a table can have.
_LABELS = [[f"seat {seat} hand {index}" for index in range(16)] for seat in range(10)]


class Hand:
    """One hand of a seat: its cards, stakes and where it stands. Mutable; the round owns it."""

    __slots__ = ("index", "wager", "cards", "double", "split_aces", "status", "owed",
                 "double_base", "after_double", "hard", "aces", "label", "outcome", "back", "double_back", "prize")

    def __init__(self, index: int, wager: int, split_aces: bool = False, seat: int = 0) -> None:
        self.index = index
        self.label = _LABELS[seat][index] if seat < 10 and index < 16 else f"seat {seat} hand {index}"
        self.outcome: str | None = None          # set at settlement, with what the wager, the
        self.back = self.double_back = self.prize = 0   # double and a super bonus return
        self.wager = wager
        self.cards: list[str] = []
        self.double = 0
        self.split_aces = split_aces
        self.status = PLAYING
        self.owed = 0                          # cards this hand is owed right now
        self.double_base: int | None = None    # hard total before the double's card
        self.after_double = False              # the double's card is in: stand or forfeit
        self.hard = 0                          # total with every ace as one, kept as cards arrive
        self.aces = 0

    @property
    def stake(self) -> int:
        return self.wager + self.double

    def add(self, card: str) -> None:
        self.cards.append(card)
        self.hard += CARD_POINTS[card]
        if card in ACES:
            self.aces += 1

    def remove_last(self) -> str:
        card = self.cards.pop()
        self.hard -= CARD_POINTS[card]
        if card in ACES:
            self.aces -= 1
        return card

    def total(self, aces_count_one_after_double: bool) -> tuple[int, bool]:
        """Best total; after a double, aces held before it count one (when the rules say so)."""
        hard = self.hard
        if self.double_base is not None and aces_count_one_after_double and not self.owed:
            if self.cards[-1] in ACES and self.double_base + 11 <= 21:  # the double's card
                return self.double_base + 11, True
            return hard, False
        if self.aces and hard <= 11:
            return hard + 10, True
        return hard, False


class Seat:
    """A seat dealt in: its bets and hands."""

    __slots__ = ("number", "wager", "side_bets", "insurance", "hands", "first_two", "staked", "returned",
                 "side_lines", "envy")

    def __init__(self, number: int, wager: int, side_bets: dict[str, int] | None = None) -> None:
        self.number = number
        self.wager = wager
        self.side_bets = side_bets or {}       # side bet name -> stake, in the paytable's order
        self.insurance = 0
        self.hands = [Hand(0, wager, False, number)]
        self.first_two: tuple[str, ...] = ()
        self.staked = 0                        # totals of its bet lines, set at settlement
        self.returned = 0
        self.side_lines: tuple[BetLine, ...] = ()   # its side bets' and insurance's, at settlement
        self.envy = 0                          # the super bonus's envy payment to it, at settlement

    @property
    def split(self) -> bool:
        return len(self.hands) > 1


def side_bet_limits(paytable: Paytable, own: Mapping[str, Limits] | None) -> dict[str, Limits]:
    """Each side bet's limits at a table: the table's own where it sets them (by the side bet's
    name, or `pair_bet` for the pair bet), else the paytable's."""
    own = own or {}
    return {bet.name: own.get(bet.name) or (own.get(PAIR_BET_FIELD) if bet.name == PAIR_BET_NAME else None)
            or bet.limits for bet in paytable.side_bets}


def open_seats(wagers: Sequence[Mapping[str, object]], max_seats: int, main: Limits, paytable: Paytable,
               side_limits: Mapping[str, Limits]) -> list[Seat]:
    """The seats the opening wagers take, in seat order. Each entry is checked in order and
    RuleViolation names the first entry that cannot open the round and why."""
    if not wagers:
        raise RuleViolation("a round needs at least one seat with a wager")
    seats: dict[int, Seat] = {}
    in_order, last = True, 0
    for entry in wagers:
        number, wager = entry.get("seat"), entry.get("wager")
        # `type(x) is int` on purpose: it refuses booleans, which isinstance would let through.
        if type(number) is not int or not 1 <= number <= max_seats:
            raise RuleViolation(f"seat {number!r} does not exist: seats are 1 to {max_seats}")
        if number in seats:
            raise RuleViolation(f"seat {number} has two wagers")
        # An entry of seat and wager alone holds no other field (counted first: most are that).
        if not ("wager" in entry and len(entry) == 2) and not entry.keys() <= _SEAT_FIELDS:
            raise RuleViolation(f"seat {number}: unknown fields {sorted(entry.keys() - _SEAT_FIELDS)}")
        if type(wager) is not int or not main.minimum <= wager <= main.maximum:
            raise RuleViolation(f"seat {number}: wager {wager!r} is outside the table limits "
                                f"{main.minimum} to {main.maximum}")
        side_bets = _side_bets(number, entry, paytable, side_limits) if len(entry) > 2 else None
        seats[number] = Seat(number, wager, side_bets)
        in_order, last = in_order and number > last, number
    # In seat order, as the cards are dealt (a transcript mostly lists them so already).
    return list(seats.values()) if in_order else [seats[n] for n in sorted(seats)]


def _side_bets(number: int, entry: Mapping[str, object], paytable: Paytable,
               side_limits: Mapping[str, Limits]) -> dict[str, int]:
    """A seat's side-bet stakes by name, in the paytable's order, each checked against the
    paytable (which must offer it) and its limits; a stake of 0 is no bet."""
    asked = entry.get("side_bets", {})
    if type(asked) is not dict or not all(type(name) is str for name in asked):
        raise RuleViolation(f"seat {number}: side_bets must map side bet names to cents, not {asked!r}")
    if PAIR_BET_FIELD in entry:
        if PAIR_BET_NAME in asked:
            raise RuleViolation(f"seat {number}: the pair bet is written twice (pair_bet and side_bets.pair)")
        asked = {**asked, PAIR_BET_NAME: entry[PAIR_BET_FIELD]}
    for name, stake in asked.items():
        if type(stake) is not int or stake < 0:   # 0 is no bet; null or false is no number
            raise RuleViolation(f"seat {number}: side bet {name} must be a whole number of cents, not {stake!r}")
        if stake and paytable.side_bet(name) is None:
            offered = ", ".join(bet.name for bet in paytable.side_bets) or "none"
            raise RuleViolation(f"seat {number}: this paytable has no side bet {name!r} (it offers: {offered})")
    placed = {}
    for bet in paytable.side_bets:
        stake = asked.get(bet.name, 0)
        if not stake:
            continue
        limits = side_limits[bet.name]
        if not limits.contains(stake):
            raise RuleViolation(f"seat {number}: side bet {bet.name} of {stake!r} is outside its limits "
                                f"{limits.minimum} to {limits.maximum}")
        placed[bet.name] = stake
    return placed
