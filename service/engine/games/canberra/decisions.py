"""The players' decisions in a house-banked round: verify_x, can_x and x for each, and the list
of decisions the rules allow now."""
from __future__ import annotations

from ...actions import DecisionTaken, LegalAction
from ...cards import RANK_OF, hard_total
from ...limits import Limits
from ...round_core import RoundCore
from .rules import CanberraRules, DoubleMinimum
from .seats import DEAL, FORFEIT, PLAY, PONTOON, STOOD, SURRENDERED, Hand, Phase, Seat

_TABLE_MINIMUM, _WAGER = DoubleMinimum.TABLE_MINIMUM, DoubleMinimum.WAGER


class CanberraDecisions(RoundCore):
    """The decisions half of CanberraRound: each checks the hand in turn (`_verify_turn`), then
    its own rule; the round's state below is set by CanberraRound."""

    rules: CanberraRules
    main_limits: Limits
    seats: list[Seat]
    dealer: list[str]
    phase: Phase
    _hand: Hand                      # the hand play has reached, once the deal is over

    @property
    def upcard_rank(self) -> str | None:
        return RANK_OF[self.dealer[0]] if self.dealer else None

    def in_turn(self) -> tuple[int, int] | None:
        """(seat, hand) whose decision is awaited."""
        if self.phase is not PLAY or self._hand.owed:
            return None
        return self.seats[self._seat_pos].number, self._hand_pos

    @property
    def any_playing_decision(self) -> bool:
        """Whether a playing decision (any but insurance, the seat's own) has been taken."""
        for record in self.log:
            if type(record) is DecisionTaken and record.action != "insurance":
                return True
        return False

    def _seat(self, number: int) -> Seat:
        for seat in self.seats:
            if seat.number == number:
                return seat
        self._refuse(f"seat {number} is not dealt in this round")

    def hand_total(self, hand: Hand) -> tuple[int, bool]:
        return hand.total(self.rules.double_aces_count_one)

    def _verify_turn(self, seat: int, hand: int | None, action: str) -> Hand:
        if self.phase is not PLAY:
            self._refuse(f"{action} is not allowed: the round is "
                         + ("still being dealt" if self.phase is DEAL else "past the players' turns"))
        current = self._hand
        if current.owed:
            self._refuse(f"{action} is not allowed: a card is owed to seat "
                         f"{self.seats[self._seat_pos].number} hand {current.index} first")
        self._check_turn(action, seat, hand)
        return current

    def verify_hit(self, seat: int, hand: int | None = None) -> Hand:
        h = self._verify_turn(seat, hand, "hit")
        if h.after_double or h.double:
            self._refuse("hit is not allowed: the hand is doubled")
        if h.split_aces and self.rules.split_aces_one_card:
            self._refuse("hit is not allowed: split aces take one card each")
        total, _ = h.total(self.rules.double_aces_count_one)
        if total >= 21:
            self._refuse(f"hit is not allowed on a total of {total}")
        return h

    def can_hit(self, seat: int, hand: int | None = None) -> bool:
        return self._can(self.verify_hit, seat, hand)

    def hit(self, seat: int, hand: int | None = None) -> DecisionTaken:
        h = self.verify_hit(seat, hand)
        h.owed = 1
        return self._record(seat, h.index, "hit")

    def verify_stand(self, seat: int, hand: int | None = None) -> Hand:
        h = self._verify_turn(seat, hand, "stand")
        if h.after_double and self.rules.forfeit_after_double:
            return h
        if h.split_aces and self.rules.split_aces_one_card:
            return h    # a split ace holding its one card (an ace it may re-split) stands on it
        total, _ = h.total(self.rules.double_aces_count_one)
        if total < self.rules.stand_minimum:
            self._refuse(f"stand is not allowed on {total}: the minimum is {self.rules.stand_minimum}")
        return h

    def can_stand(self, seat: int, hand: int | None = None) -> bool:
        return self._can(self.verify_stand, seat, hand)

    def stand(self, seat: int, hand: int | None = None) -> DecisionTaken:
        h = self.verify_stand(seat, hand)
        h.status = STOOD
        h.after_double = False
        return self._record(seat, h.index, "stand")

    def double_range(self, h: Hand) -> tuple[int, int]:
        minimum = self.rules.double_minimum
        low = self.main_limits.minimum if minimum == _TABLE_MINIMUM else h.wager if minimum == _WAGER else 1
        return min(low, h.wager), h.wager

    def verify_double(self, seat: int, hand: int | None = None, amount: int | None = None) -> Hand:
        h = self._verify_turn(seat, hand, "double")
        rules = self.rules
        if h.double or h.after_double:
            self._refuse("double is not allowed: the hand is already doubled")
        if h.split_aces and not rules.double_on_split_aces:
            self._refuse("double is not allowed on split aces")
        if self._seat(seat).split and not rules.double_after_split:
            self._refuse("double is not allowed after a split")
        if rules.double_max_cards is not None and len(h.cards) > rules.double_max_cards:
            self._refuse(f"double is not allowed on more than {rules.double_max_cards} cards")
        total, _ = h.total(self.rules.double_aces_count_one)
        if total >= 21:
            self._refuse(f"double is not allowed on a total of {total}")
        # A double counts the aces held as one where the rules say so: soft 19 doubles as 9.
        counted = h.hard if rules.double_aces_count_one else total
        if rules.double_totals is not None and counted not in rules.double_totals:
            allowed = ", ".join(str(t) for t in sorted(rules.double_totals))
            self._refuse(f"double is not allowed on a total of {counted}: only on {allowed}")
        if amount is not None:
            self._check_amount("double", amount, *self.double_range(h))
        return h

    def can_double(self, seat: int, hand: int | None = None, amount: int | None = None) -> bool:
        return self._can(self.verify_double, seat, hand, amount)

    def double(self, seat: int, hand: int | None = None, amount: int | None = None) -> DecisionTaken:
        if amount is None:
            self._refuse("double needs an amount")
        h = self.verify_double(seat, hand, amount)
        h.double = amount
        h.double_base = h.hard
        h.owed = 1
        return self._record(seat, h.index, "double", amount)

    def verify_forfeit(self, seat: int, hand: int | None = None) -> Hand:
        h = self._verify_turn(seat, hand, "forfeit")
        if not (self.rules.forfeit_after_double and h.after_double):
            self._refuse("forfeit is allowed only as the decision straight after a double's card")
        return h

    def can_forfeit(self, seat: int, hand: int | None = None) -> bool:
        return self._can(self.verify_forfeit, seat, hand)

    def forfeit(self, seat: int, hand: int | None = None) -> DecisionTaken:
        h = self.verify_forfeit(seat, hand)
        h.status = FORFEIT
        h.after_double = False
        return self._record(seat, h.index, "forfeit")

    def verify_split(self, seat: int, hand: int | None = None) -> Hand:
        h = self._verify_turn(seat, hand, "split")
        rules = self.rules
        if len(h.cards) != 2 or h.double or h.after_double:
            self._refuse("split is allowed only on a hand's first two cards")
        first, second = h.cards
        r1, r2 = RANK_OF[first], RANK_OF[second]
        if r1 != r2 and (rules.split_same_rank_only or hard_total([first]) != hard_total([second])):
            self._refuse(f"split is not allowed: {first} and {second} are not a pair")
        if r1 == "A" and h.split_aces and not rules.split_aces_resplit:
            self._refuse("split is not allowed: aces may be split once")
        if len(self._seat(seat).hands) >= rules.split_max_hands:
            self._refuse(f"split is not allowed: a seat may hold at most {rules.split_max_hands} hands")
        return h

    def can_split(self, seat: int, hand: int | None = None) -> bool:
        return self._can(self.verify_split, seat, hand)

    def split(self, seat: int, hand: int | None = None) -> DecisionTaken:
        h = self.verify_split(seat, hand)
        s = self._seat(seat)
        aces = RANK_OF[h.cards[0]] == "A"
        new = Hand(len(s.hands), s.wager, split_aces=aces, seat=s.number)
        new.add(h.remove_last())
        s.hands.append(new)
        h.split_aces = aces
        h.owed = 1
        return self._record(seat, h.index, "split")

    def verify_surrender(self, seat: int, hand: int | None = None) -> Hand:
        h = self._verify_turn(seat, hand, "surrender")
        if self.upcard_rank not in self.rules.surrender_upcards:
            self._refuse(f"surrender is not allowed against an upcard of {self.dealer[0]}")
        # Two cards on an unsplit hand in turn have taken no decision yet: a hit or a double adds
        # a card, a split splits the seat, and the other decisions end the hand.
        if self._seat(seat).split or len(h.cards) != 2:
            self._refuse("surrender is allowed only as the first decision on the first two cards of an unsplit hand")
        return h

    def can_surrender(self, seat: int, hand: int | None = None) -> bool:
        return self._can(self.verify_surrender, seat, hand)

    def surrender(self, seat: int, hand: int | None = None) -> DecisionTaken:
        h = self.verify_surrender(seat, hand)
        h.status = SURRENDERED
        return self._record(seat, h.index, "surrender")

    def insurance_range(self, seat: Seat) -> tuple[int, int]:
        return self.rules.insurance_minimum, self.rules.insurance_max_fraction.winnings(seat.wager)

    def verify_insurance(self, seat: int, hand: int | None = None, amount: int | None = None) -> Seat:
        if hand is not None:
            self._refuse(f"insurance is the seat's, not a hand's: name no hand (hand {hand!r} given)")
        if self.phase is not PLAY:
            self._refuse("insurance is offered only after the deal and before the dealer plays")
        if self.upcard_rank not in self.rules.insurance_upcards:
            self._refuse(f"insurance is not offered against an upcard of {self.dealer[0]}")
        if self.any_playing_decision:
            self._refuse("insurance is offered only before the first playing decision")
        s = self._seat(seat)
        if s.insurance:
            self._refuse(f"seat {seat} is already insured")
        if s.hands[0].status is PONTOON:
            self._refuse(f"seat {seat} holds Pontoon, already paid: no insurance")
        low, high = self.insurance_range(s)
        if high < low:
            self._refuse(f"seat {seat}'s wager is too small to insure")
        if amount is not None:
            self._check_amount("insurance", amount, low, high)
        return s

    def can_insurance(self, seat: int, hand: int | None = None, amount: int | None = None) -> bool:
        return self._can(self.verify_insurance, seat, hand, amount)

    def insurance(self, seat: int, hand: int | None = None, amount: int | None = None) -> DecisionTaken:
        if amount is None:
            self._refuse("insurance needs an amount")
        s = self.verify_insurance(seat, hand, amount)
        s.insurance = amount
        return self._record(seat, None, "insurance", amount, advance=False)

    DECISIONS = ("hit", "stand", "double", "forfeit", "split", "surrender", "insurance")
    TAKES_AMOUNT = frozenset({"double", "insurance"})

    def legal_actions(self) -> list[LegalAction]:
        """Every decision allowed now, with amount ranges: the hand in turn's, then insurance."""
        legal: list[LegalAction] = []
        turn = self.in_turn()
        if turn is not None:
            seat, hand = turn
            for name in ("hit", "stand", "split", "surrender", "forfeit"):
                if self._can(getattr(self, "verify_" + name), seat, hand):
                    legal.append(LegalAction(seat, name, hand))
            if self._can(self.verify_double, seat, hand, None):
                low, high = self.double_range(self._hand)
                legal.append(LegalAction(seat, "double", hand, low, high))
            if self.upcard_rank in self.rules.insurance_upcards and not self.any_playing_decision:
                for s in self.seats:
                    if self._can(self.verify_insurance, s.number, None, None):
                        low, high = self.insurance_range(s)
                        legal.append(LegalAction(s.number, "insurance", None, low, high))
        return legal
