"""One round of the house-banked game: the deal, cards to the hands in turn, the dealer's hand, and
what the round shows; its decisions are in decisions.py."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...actions import CardDealt, DecisionTaken, NotAwaitingCard, RuleViolation
from ...cards import ACES, CARD_POINTS, best_total, parse_card
from ...limits import Limits
from ...round_core import Awaiting
from . import views
from .decisions import CanberraDecisions
from .lines import BetLine, DealerResult
from .paytable import Paytable
from .rules import CanberraRules
from .seats import (
    BUST,
    COMPLETE,
    DEAL,
    DEALER,
    MAIN,
    PLAY,
    PLAYING,
    PONTOON,
    STOOD,
    WON21,
    Hand,
    Seat,
    open_seats,
    side_bet_limits,
)
from .settlement import bet_lines, settle

__all__ = ["BetLine", "CanberraRound", "Hand", "Seat"]

CARD, DECISION = Awaiting


class CanberraRound(CanberraDecisions):
    """A round of house-banked Pontoon; cards come in through deal_card, decisions through act."""

    def __init__(self, rules: CanberraRules, paytable: Paytable, wagers: Sequence[Mapping[str, object]],
                 limits: dict[str, Limits] | None = None) -> None:
        self.rules = rules
        self.paytable = paytable
        self.main_limits = limits.get(MAIN, rules.main_limits) if limits else rules.main_limits
        self.side_limits = side_bet_limits(paytable, limits)
        self.seats = open_seats(wagers, rules.max_seats, self.main_limits, paytable, self.side_limits)
        self.dealer: list[str] = []
        self.phase = DEAL
        self.log: list[CardDealt | DecisionTaken] = []
        first_hands = [seat.hands[0] for seat in self.seats]
        self._deal_targets: list[Hand | None] = [*first_hands, None, *first_hands]  # None: the dealer's upcard
        self._deal_pos = 0
        self._seat_pos = self._hand_pos = 0    # the cursor (RoundCore's) over seats and their hands
        self._hand = first_hands[0]
        self._dealer_has_waiting = False
        self._dealer_final: DealerResult | None = None   # the dealer's total and Pontoon, once settled
        # Kept current by every change, so that the state always says what it waits for.
        self.awaiting: Awaiting | None = CARD

    # ----- where the round stands ---------------------------------------------------------
    @property
    def cards_out(self) -> list[str]:
        """Every card dealt in this round, in order (read from the log)."""
        return [record.card for record in self.log if type(record) is CardDealt]

    @property
    def bets(self) -> list[BetLine] | None:
        """The bet lines of a complete round (None before it is), listed from its settled seats."""
        return bet_lines(self.seats) if self.phase is COMPLETE else None

    @property
    def complete(self) -> bool:
        return self.phase is COMPLETE

    def card_recipient(self) -> str | None:
        """Who the next card goes to, as "dealer" or "seat S hand H"; None when no card is owed."""
        if self.phase is DEAL:
            target = self._deal_targets[self._deal_pos]
            return "dealer" if target is None else target.label
        if self.phase is PLAY:
            return self._hand.label if self._hand.owed else None
        if self.phase is DEALER:
            return "dealer"
        return None

    @property
    def dealer_pontoon(self) -> bool:
        dealer = self.dealer
        return len(dealer) == 2 and self.rules.is_pontoon(dealer[0], dealer[1])

    # ----- cards --------------------------------------------------------------------------
    def deal_card(self, card: str) -> CardDealt:
        """Give the next card out of the shoe to whoever the rules say is owed one."""
        if card not in CARD_POINTS:
            parse_card(card)  # raises CardError with the reason
        phase = self.phase
        if phase is DEAL:
            position = self._deal_pos
            target = self._deal_targets[position]
            self._deal_pos = position = position + 1
            if target is None:
                self.dealer.append(card)
                record = CardDealt(card, "dealer")
            else:
                target.add(card)
                record = CardDealt(card, target.label)
            self.log.append(record)
            if position == len(self._deal_targets):
                self._finish_deal()
            return record
        hand = self._hand
        if phase is PLAY and hand.owed:
            hand.add(card)
            hand.owed -= 1
            record = CardDealt(card, hand.label)
            if not hand.owed:
                self._after_hand_card(hand)
        elif phase is DEALER:
            self.dealer.append(card)
            record = CardDealt(card, "dealer")
        else:
            raise NotAwaitingCard("no card is owed now: the round awaits "
                                  + ("a decision" if phase is PLAY else "nothing, it is complete"),
                                  self.legal_actions)
        self.log.append(record)
        self._advance()
        return record

    def _finish_deal(self) -> None:
        """The opening deal is in: mark each seat's Pontoon and two-card 21, and start play."""
        rules = self.rules
        pontoon_cards, twenty_one = rules.pontoon_cards, WON21 if rules.twenty_one_wins_at_once else STOOD
        for seat in self.seats:
            hand = seat.hands[0]
            first, second = seat.first_two = hand.cards[0], hand.cards[1]
            # Pontoon is an ace and one of the rules' Pontoon ranks (rules.is_pontoon, spelt out
            # for the deal, where every seat asks it).
            if first in ACES and second in pontoon_cards or second in ACES and first in pontoon_cards:
                hand.status = PONTOON
            elif hand.aces and hand.hard == 11:   # two cards make 21 only as an ace and a ten-valued card
                hand.status = twenty_one
        self.phase = PLAY
        self._enter_hand()
        self._advance()

    def _after_hand_card(self, hand: Hand) -> None:
        """A hand has the cards it was owed: settle what that decides (bust, 21, split aces)."""
        rules = self.rules
        if hand.double_base is not None:
            total, _ = hand.total(rules.double_aces_count_one)
            if total > 21:
                hand.status = BUST
            elif total == 21 and rules.twenty_one_wins_at_once:
                hand.status = WON21
            elif rules.forfeit_after_double:
                hand.after_double = True
            else:
                hand.status = STOOD
            return
        total = hand.hard + 10 if hand.aces and hand.hard <= 11 else hand.hard
        if total > 21:
            hand.status = BUST
        elif total == 21:
            if len(hand.cards) == 2 and self.seats[self._seat_pos].split and rules.split_hand_pontoon and \
                    rules.is_pontoon(hand.cards[0], hand.cards[1]):
                hand.status = PONTOON
            else:
                hand.status = WON21 if rules.twenty_one_wins_at_once else STOOD
        elif hand.split_aces and rules.split_aces_one_card and len(hand.cards) == 2 \
                and not self._may_resplit_aces(hand):
            hand.status = STOOD

    def _may_resplit_aces(self, hand: Hand) -> bool:
        """Whether a split ace's one card is an ace the rules let it re-split: then the hand waits
        for the decision to split or stand, and takes no other."""
        return (self.rules.split_aces_resplit and hand.cards[1] in ACES
                and len(self.seats[self._seat_pos].hands) < self.rules.split_max_hands)

    def _enter_hand(self) -> None:
        """Play reaches the hand under the cursor: a split hand holding one card is owed its second."""
        hand = self._hand = self.seats[self._seat_pos].hands[self._hand_pos]
        if hand.status is PLAYING and len(hand.cards) == 1:
            hand.owed = 1

    def _advance(self) -> None:
        if self.phase is PLAY:
            hand = self._hand
            while True:
                if hand.owed:
                    self.awaiting = CARD
                    return
                if hand.status is PLAYING:
                    self.awaiting = DECISION
                    return
                if not self._next_hand():
                    break
                self._enter_hand()
                hand = self._hand
            self.phase = DEALER
            # Plain loops rather than any() over a generator: this runs once for every round.
            for seat in self.seats:
                for h in seat.hands:
                    if h.status is STOOD:
                        self._dealer_has_waiting = True
        if self.phase is DEALER:
            if self._dealer_owed_card():
                self.awaiting = CARD
            else:
                self.phase = COMPLETE
                self.awaiting = None
                self._dealer_final = settle(self.rules, self.paytable, self.seats, self.dealer, self.dealer_pontoon)

    def _dealer_owed_card(self) -> bool:
        dealer, rules = self.dealer, self.rules
        if len(dealer) < 2:
            return True
        if len(dealer) == 2 and rules.is_pontoon(dealer[0], dealer[1]):
            return False
        if not self._dealer_has_waiting and not rules.dealer_draws_when_no_hand_waiting:
            return False
        total, soft = best_total(dealer)
        stands_on = rules.dealer_stands_on
        return total < stands_on or (total == stands_on and soft and rules.dealer_hits_soft_17)

    # ----- results ------------------------------------------------------------------------
    def result(self) -> dict[str, object]:
        """The round's money as the transcript format's output (complete rounds only)."""
        if self._dealer_final is None:
            raise RuleViolation("the round is not complete", self.legal_actions)
        return views.result(self.seats, self.dealer, self._dealer_final, self.rules.double_aces_count_one)

    def snapshot(self) -> dict[str, object]:
        """Everything a terminal needs to see: phase, what is awaited, legal decisions, every hand."""
        return views.snapshot(self)

    def transcript(self, rules_ref: str | None = None, paytable_ref: str | None = None) -> dict[str, object]:
        """The round so far in the transcript format; a complete round replays to the same money."""
        return views.transcript(self, rules_ref, paytable_ref)

    def seat_entries(self) -> list[dict[str, object]]:
        """The wagers the round opened with, in the transcript's `seats` form."""
        return views.seat_entries(self.seats)
