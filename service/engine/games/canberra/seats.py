"""The seats and hands of a house-banked round, their statuses, and the wagers that open it."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum

from ...actions import RuleViolation
from ...cards import ACES, CARD_POINTS
from ...limits import Limits
from ...odds import Odds
from .lines import BetLine


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

LIMITED_BETS = frozenset({"main", "pair_bet"})            # the bets a table may set its own limits for
_SEAT_FIELDS = frozenset({"seat", "wager", "pair_bet"})   # what a seat's entry may hold
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

    __slots__ = ("number", "wager", "pair_bet", "insurance", "hands", "first_two", "staked", "returned",
                 "side_lines", "envy")

    def __init__(self, number: int, wager: int, pair_bet: int = 0) -> None:
        self.number = number
        self.wager = wager
        self.pair_bet = pair_bet
        self.insurance = 0
        self.hands = [Hand(0, wager, False, number)]
        self.first_two: tuple[str, ...] = ()
        self.staked = 0                        # totals of its bet lines, set at settlement
        self.returned = 0
        self.side_lines: tuple[BetLine, ...] = ()   # its pair bet's and insurance's, at settlement
        self.envy = 0                          # the super bonus's envy payment to it, at settlement

    @property
    def split(self) -> bool:
        return len(self.hands) > 1


def open_seats(wagers: Sequence[Mapping[str, object]], max_seats: int, main: Limits, pair: Limits,
               pair_pays: Odds | None) -> list[Seat]:
    """The seats the opening wagers take, in seat order. Each entry is checked in order and
    RuleViolation names the first entry that cannot open the round and why."""
    if not wagers:
        raise RuleViolation("a round needs at least one seat with a wager")
    seats: dict[int, Seat] = {}
    in_order, last = True, 0
    for entry in wagers:
        number, wager, pair_bet = entry.get("seat"), entry.get("wager"), entry.get("pair_bet", 0)
        # `type(x) is int` on purpose: it refuses booleans, which isinstance would let through.
        if type(number) is not int or not 1 <= number <= max_seats:
            raise RuleViolation(f"seat {number!r} does not exist: seats are 1 to {max_seats}")
        if number in seats:
            raise RuleViolation(f"seat {number} has two wagers")
        # With seat and wager there, an entry of no more fields than they and a pair bet make
        # holds no other (counted first: most entries are exactly that).
        if not ("wager" in entry and len(entry) == 2 + ("pair_bet" in entry)) and not entry.keys() <= _SEAT_FIELDS:
            raise RuleViolation(f"seat {number}: unknown fields {sorted(entry.keys() - _SEAT_FIELDS)}")
        if type(wager) is not int or not main.minimum <= wager <= main.maximum:
            raise RuleViolation(f"seat {number}: wager {wager!r} is outside the table limits "
                                f"{main.minimum} to {main.maximum}")
        if type(pair_bet) is not int:   # 0 is no pair bet; null or false is no number
            raise RuleViolation(f"seat {number}: pair bet must be a whole number of cents, not {pair_bet!r}")
        if pair_bet:
            _check_pair_bet(number, pair_bet, pair, pair_pays)
        seats[number] = Seat(number, wager, pair_bet)
        in_order, last = in_order and number > last, number
    # In seat order, as the cards are dealt (a transcript mostly lists them so already).
    return list(seats.values()) if in_order else [seats[n] for n in sorted(seats)]


def _check_pair_bet(number: int, pair_bet: int, pair: Limits, pair_pays: Odds | None) -> None:
    """A seat's pair bet, checked against the paytable and its limits."""
    if pair_pays is None:
        raise RuleViolation(f"seat {number}: this paytable has no pair bet")
    if not pair.contains(pair_bet):
        raise RuleViolation(f"seat {number}: pair bet {pair_bet!r} is outside its limits "
                            f"{pair.minimum} to {pair.maximum}")
