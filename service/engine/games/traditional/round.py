"""One round of player-banked Pontoon: the decisions the players and the banker may take, each
checked (verify_x), probed (can_x) and applied (x)."""
from __future__ import annotations

from typing import Any

from ...actions import Action, DecisionTaken, LegalAction
from ...cards import hard_total
from ...round_core import whole_cents
from . import views
from .hands import FIVE_CARD_TRICK_SIZE, BankerStatus, HandStatus, is_pair, ranks, value
from .rules import SplitPairs
from .seats import PlayerHand, PlayerSeat
from .state import BANKER_SEAT, Phase, RoundState

_OUT_OF_PLAY = {Phase.DEAL: "the cards are still being dealt", Phase.BANKER_TURN: "the players' turns are over",
                Phase.COMPLETE: "the round is complete"}


class TraditionalRound(RoundState):
    """A round of player-banked Pontoon; cards come in through deal_card, decisions through act."""

    DECISIONS = ("split", "buy", "twist", "stick", "burn", "shoot", "draw", "stay", "double_stakes")
    TAKES_AMOUNT = frozenset({"split", "buy", "shoot"})   # a split's amount is the new hand's shoot bet

    # ----- whose decision it is ----------------------------------------------------------
    def _verify_turn(self, seat: int, hand: int | None, action: str) -> tuple[PlayerSeat, PlayerHand]:
        if self.phase != Phase.PLAY:
            self._refuse(f"{action} is not allowed: " + _OUT_OF_PLAY[self.phase])
        if self._owed:
            self._refuse(f"{action} is not allowed: a card is owed to {self.card_recipient()} first")
        self._check_turn(action, seat, hand)
        return self._current_seat(), self._current_hand()

    def _verify_banker(self, seat: int, hand: int | None, action: str) -> None:
        if seat != BANKER_SEAT:
            self._refuse(f"{action} is the banker's decision (seat 0), not seat {seat}'s")
        if hand not in (None, 0):
            self._refuse(f"{action} names no hand: the banker holds one")

    def _verify_can_take_card(self, h: PlayerHand, action: str) -> None:
        total = hard_total(h.cards)
        if total >= 21:
            self._refuse(f"{action} is not allowed on a hard total of {total}")
        if len(h.cards) >= FIVE_CARD_TRICK_SIZE:
            self._refuse(f"{action} is not allowed: the hand has {len(h.cards)} cards")

    # ----- the players' decisions ----------------------------------------------------------
    def verify_split(self, seat: int, hand: int | None = None, amount: int | None = None) -> PlayerHand:
        s, h = self._verify_turn(seat, hand, "split")
        if len(h.cards) != 2 or not is_pair(h.cards):
            self._refuse(f"split is allowed only on a hand's first two cards of one rank, not {' '.join(h.cards)}")
        if self.rules.split_pairs == SplitPairs.ACES and ranks(h.cards)[0] != "A":
            self._refuse("split is not allowed: only aces may be split here")
        if len(s.hands) >= self.rules.split_max_hands:
            self._refuse(f"split is not allowed: a seat may hold at most {self.rules.split_max_hands} hands")
        if amount is not None:
            self._verify_shoot_amount("split's shoot bet", amount)
        return h

    def can_split(self, seat: int, hand: int | None = None, amount: int | None = None) -> bool:
        return self._can(self.verify_split, seat, hand, amount)

    def split(self, seat: int, hand: int | None = None, amount: int | None = None) -> DecisionTaken:
        h = self.verify_split(seat, hand, amount)
        s = self._current_seat()
        new = PlayerHand(len(s.hands), s.stake, [h.cards.pop()], [h.positions.pop()],
                         shoot_bets=[amount] if amount else [])
        s.hands.append(new)
        # Both hands take a card at once, the original first.
        self._owed.extend([(s, h), (s, new)])
        return self._record(seat, h.index, "split", amount)

    def buy_range(self, h: PlayerHand) -> tuple[int, int]:
        """The third card costs the initial stake to `first_buy_max_multiple` times it; each later
        one the initial stake to what the card before cost; and the table's buy limits, where it
        sets them, bound both ends (the range may then be empty: no buy is possible)."""
        low, high = (h.stake, h.stake * self.rules.first_buy_max_multiple) if len(h.cards) == 2 \
            else (h.stake, h.buys[-1])
        limits = self.rules.buy_limits
        if limits is not None:
            low, high = max(low, limits.minimum), min(high, limits.maximum)
        return low, high

    def verify_buy(self, seat: int, hand: int | None = None, amount: int | None = None) -> PlayerHand:
        _, h = self._verify_turn(seat, hand, "buy")
        self._verify_can_take_card(h, "buy")
        if h.twisted:
            self._refuse("buy is not allowed: the hand has twisted, and may only twist from now on")
        if self.rules.no_buy_fifth_on_eleven and len(h.cards) == 4 and hard_total(h.cards) <= 11:
            self._refuse("buy is not allowed: four cards on a hard total of 11 or less may only twist the fifth")
        low, high = self.buy_range(h)
        limits = self.rules.buy_limits
        if high < low and limits is not None:   # the buy rule's own range is never empty
            most = h.stake * self.rules.first_buy_max_multiple if len(h.cards) == 2 else h.buys[-1]
            self._refuse(f"buy is not allowed: this card may cost {h.stake} to {most} by the rules, and the "
                         f"table's buy limits are {limits.minimum} to {limits.maximum}")
        if amount is not None:
            self._check_amount("buy", amount, low, high)
        return h

    def can_buy(self, seat: int, hand: int | None = None, amount: int | None = None) -> bool:
        return self._can(self.verify_buy, seat, hand, amount)

    def buy(self, seat: int, hand: int | None = None, amount: int | None = None) -> DecisionTaken:
        if amount is None:
            self._refuse("buy needs an amount")
        h = self.verify_buy(seat, hand, amount)
        h.buys.append(amount)
        self._owed.append((self._current_seat(), h))
        return self._record(seat, h.index, "buy", amount)

    def verify_twist(self, seat: int, hand: int | None = None) -> PlayerHand:
        _, h = self._verify_turn(seat, hand, "twist")
        self._verify_can_take_card(h, "twist")
        return h

    def can_twist(self, seat: int, hand: int | None = None) -> bool:
        return self._can(self.verify_twist, seat, hand)

    def twist(self, seat: int, hand: int | None = None) -> DecisionTaken:
        h = self.verify_twist(seat, hand)
        h.twisted = True
        self._owed.append((self._current_seat(), h))
        return self._record(seat, h.index, "twist")

    def verify_stick(self, seat: int, hand: int | None = None) -> PlayerHand:
        _, h = self._verify_turn(seat, hand, "stick")
        if h.must_take_card:
            self._refuse("stick is not allowed: a shoot bet before the fourth card binds the hand to take it")
        total = value(h.cards)
        if total < self.rules.stick_min:
            self._refuse(f"stick is not allowed on {total}: the minimum is {self.rules.stick_min}")
        return h

    def can_stick(self, seat: int, hand: int | None = None) -> bool:
        return self._can(self.verify_stick, seat, hand)

    def stick(self, seat: int, hand: int | None = None) -> DecisionTaken:
        h = self.verify_stick(seat, hand)
        h.status = HandStatus.STUCK
        return self._record(seat, h.index, "stick")

    def verify_burn(self, seat: int, hand: int | None = None) -> PlayerHand:
        _, h = self._verify_turn(seat, hand, "burn")
        if self.rules.burn is None:
            self._refuse("burn is not allowed: these rules have no burning")
        if len(h.cards) != 2 or hard_total(h.cards) != self.rules.burn:
            self._refuse(f"burn is allowed only on a two-card hand of hard total {self.rules.burn}")
        return h

    def can_burn(self, seat: int, hand: int | None = None) -> bool:
        return self._can(self.verify_burn, seat, hand)

    def burn(self, seat: int, hand: int | None = None) -> DecisionTaken:
        h = self.verify_burn(seat, hand)
        # Burned cards are out of play at once, like a bust's: they go to the bottom now.
        self._return_to_pack(h.positions)
        h.burned.extend(h.cards)
        h.cards, h.positions = [], []
        s = self._current_seat()
        self._owed.extend([(s, h), (s, h)])
        return self._record(seat, h.index, "burn")

    def _verify_shoot_amount(self, what: str, amount: object) -> None:
        if not self.rules.shoot:
            self._refuse(f"{what} is not allowed: shoot bets are played only in Shoot Pontoon")
        low, room = self.rules.shoot_bet_minimum, self.shoot_room
        if room < low:
            self._refuse(f"{what} is not allowed: the kitty has room for only {room} more")
        most = self.rules.shoot_bet_maximum
        high = room if most is None else min(room, most)
        if not whole_cents(amount) or not low <= amount <= high:
            why = "the room left in the kitty" if high == room else "the table's shoot limit"
            self._refuse(f"{what} {amount!r} is outside {low} to {high} ({why})")

    def verify_shoot(self, seat: int, hand: int | None = None, amount: int | None = None) -> PlayerHand:
        _, h = self._verify_turn(seat, hand, "shoot")
        if not self.rules.shoot:
            self._refuse("shoot is not allowed: shoot bets are played only in Shoot Pontoon")
        if len(h.cards) != 3:
            self._refuse("shoot is allowed only before buying or twisting a fourth card")
        if h.fourth_card_shoot:
            self._refuse("shoot is not allowed: this hand has placed its shoot bet for the fourth card")
        self._verify_can_take_card(h, "shoot")
        self._verify_shoot_amount("shoot bet", self.rules.shoot_bet_minimum if amount is None else amount)
        return h

    def can_shoot(self, seat: int, hand: int | None = None, amount: int | None = None) -> bool:
        return self._can(self.verify_shoot, seat, hand, amount)

    def shoot(self, seat: int, hand: int | None = None, amount: int | None = None) -> DecisionTaken:
        if amount is None:
            self._refuse("shoot needs an amount")
        h = self.verify_shoot(seat, hand, amount)
        h.shoot_bets.append(amount)
        h.fourth_card_shoot = True
        h.must_take_card = True
        return self._record(seat, h.index, "shoot", amount)

    # ----- the banker's decisions ----------------------------------------------------------
    def verify_double_stakes(self, seat: int, hand: int | None = None) -> None:
        self._verify_banker(seat, hand, "double_stakes")
        if not self.rules.banker_may_double:
            self._refuse("double_stakes is not allowed: these rules do not let the banker double")
        # The banker doubles having seen the first card: a Pontoon the second then made ended the
        # round at the deal, after the double (which changes nothing: a Pontoon's payments keep
        # their multiple of the undoubled stake).
        ended_by_banker_pontoon = self.phase == Phase.COMPLETE and self.banker_status == BankerStatus.PONTOON
        if (self.phase not in (Phase.PLAY, Phase.BANKER_TURN) or self._owed) and not ended_by_banker_pontoon:
            self._refuse("double_stakes is allowed only once the cards are dealt")
        if self.stakes_doubled or any(isinstance(record, DecisionTaken) for record in self.log):
            self._refuse("double_stakes is allowed only as the round's first decision")

    def can_double_stakes(self, seat: int = BANKER_SEAT, hand: int | None = None) -> bool:
        return self._can(self.verify_double_stakes, seat, hand)

    def takes_when_complete(self, action: Action) -> bool:
        """A banker's Pontoon ends the round at the deal; the double the banker may have made
        after the first card is still taken (a transcript lists it first)."""
        return action.action == "double_stakes" and self.can_double_stakes(action.seat, action.hand)

    def double_stakes(self, seat: int = BANKER_SEAT, hand: int | None = None) -> DecisionTaken:
        self.verify_double_stakes(seat, hand)
        self.stakes_doubled = True
        return self._record(BANKER_SEAT, None, "double_stakes")

    def _verify_banker_turn(self, seat: int, hand: int | None, action: str) -> None:
        self._verify_banker(seat, hand, action)
        if self.phase != Phase.BANKER_TURN:
            self._refuse(f"{action} is not allowed: it is not the banker's turn")
        if self._owed:
            self._refuse(f"{action} is not allowed: a card is owed to the banker first")

    def verify_draw(self, seat: int = BANKER_SEAT, hand: int | None = None) -> None:
        self._verify_banker_turn(seat, hand, "draw")
        total = hard_total(self.banker)
        if total >= 21 or len(self.banker) >= FIVE_CARD_TRICK_SIZE:
            self._refuse(f"draw is not allowed on {len(self.banker)} cards with a hard total of {total}")

    def can_draw(self, seat: int = BANKER_SEAT, hand: int | None = None) -> bool:
        return self._can(self.verify_draw, seat, hand)

    def draw(self, seat: int = BANKER_SEAT, hand: int | None = None) -> DecisionTaken:
        self.verify_draw(seat, hand)
        self._owed.append(None)
        return self._record(BANKER_SEAT, None, "draw")

    def verify_stay(self, seat: int = BANKER_SEAT, hand: int | None = None) -> None:
        self._verify_banker_turn(seat, hand, "stay")

    def can_stay(self, seat: int = BANKER_SEAT, hand: int | None = None) -> bool:
        return self._can(self.verify_stay, seat, hand)

    def stay(self, seat: int = BANKER_SEAT, hand: int | None = None) -> DecisionTaken:
        self.verify_stay(seat, hand)
        self.banker_status = BankerStatus.STAYED
        return self._record(BANKER_SEAT, None, "stay")

    # ----- what may be done now, and how the round is shown ---------------------------------
    def legal_actions(self) -> list[LegalAction]:
        """Every decision allowed now, with amount ranges where it takes one."""
        legal: list[LegalAction] = []
        if self.phase == Phase.COMPLETE:
            return legal
        if self.can_double_stakes():
            legal.append(LegalAction(BANKER_SEAT, "double_stakes"))
        turn = self.in_turn()
        if turn is None:
            return legal
        seat, hand = turn
        if seat == BANKER_SEAT:
            legal.extend(LegalAction(BANKER_SEAT, name) for name, can in (("draw", self.can_draw),
                                                                          ("stay", self.can_stay)) if can(seat, None))
            return legal
        for name, can in (("twist", self.can_twist), ("stick", self.can_stick), ("burn", self.can_burn)):
            if can(seat, hand):
                legal.append(LegalAction(seat, name, hand))
        if self.can_buy(seat, hand):
            legal.append(LegalAction(seat, "buy", hand, *self.buy_range(self._current_hand())))
        minimum = self.rules.shoot_bet_minimum
        if self.can_shoot(seat, hand):
            legal.append(LegalAction(seat, "shoot", hand, minimum, self.shoot_most))
        if self.can_split(seat, hand):
            legal.append(LegalAction(seat, "split", hand))
            if self.can_split(seat, hand, minimum):  # with a shoot bet on the new hand
                legal.append(LegalAction(seat, "split", hand, minimum, self.shoot_most))
        return legal

    def result(self) -> dict[str, Any]:
        """The round's money in the transcript format's output (complete rounds only)."""
        return views.result(self)

    def snapshot(self) -> dict[str, Any]:
        """Everything a terminal needs to see: phase, what is awaited, legal decisions, every hand."""
        return views.snapshot(self)

    def transcript(self, rules_ref: str | None = None) -> dict[str, Any]:
        """The round so far in the transcript format; a complete round replays to the same money."""
        return views.transcript(self, rules_ref)
