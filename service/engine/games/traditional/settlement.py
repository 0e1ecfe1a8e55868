"""How a player-banked round's hands settle into transfers between the banker, the seats and the kitty."""
from __future__ import annotations

from dataclasses import dataclass, field

from .hands import BankerStatus, HandStatus, is_natural, value
from .rules import TraditionalRules
from .seats import PlayerHand, PlayerSeat
from .transfers import BANKER, KITTY, Transfer, seat_party


@dataclass(slots=True)
class Ledger:
    """The round's transfers so far, and the kitty they leave (shoot bets are paid from and into it)."""

    kitty: int
    transfers: list[Transfer] = field(default_factory=list)

    def pay(self, payer: str, payee: str, amount: int, kind: str, seat: int, hand: int | None) -> None:
        """One payment; nothing is written for nothing paid (a hand without a shoot bet, say)."""
        if amount <= 0:
            return
        self.transfers.append(Transfer(payer, payee, amount, kind, seat, hand))
        if payer == KITTY:
            self.kitty -= amount
        if payee == KITTY:
            self.kitty += amount

    def settle_hand(self, seat: PlayerSeat, hand: PlayerHand, outcome: str, banker_pays: int) -> None:
        """Settle one hand: `banker_pays` > 0 is a win for the hand, < 0 a loss; shoot bets follow."""
        party = seat_party(seat.number)
        hand.outcome = outcome
        if banker_pays > 0:
            self.pay(BANKER, party, banker_pays, outcome, seat.number, hand.index)
            self.pay(KITTY, party, hand.shoot_total, "shoot-won", seat.number, hand.index)
        else:
            self.pay(party, BANKER, -banker_pays, outcome, seat.number, hand.index)
            self.pay(party, KITTY, hand.shoot_total, "shoot-lost", seat.number, hand.index)

    def settle_bust(self, seat: PlayerSeat, hand: PlayerHand, payment_multiple: int) -> None:
        """A bust loses its whole stake (doubled stakes included) and its shoot bets at once,
        whatever the banker makes later."""
        self.settle_hand(seat, hand, "bust", -hand.total_stake * payment_multiple)

    def net(self, party: str, hand: int | None = None) -> int:
        """What `party` gained (negative: lost), on one hand's transfers where `hand` is given."""
        mine = [t for t in self.transfers if hand is None or t.hand == hand]
        return sum(t.amount for t in mine if t.to_party == party) - \
            sum(t.amount for t in mine if t.from_party == party)


def settle_banker_pontoon(ledger: Ledger, rules: TraditionalRules, banker: list[str],
                          seats: list[PlayerSeat]) -> None:
    """Every player pays the banker's Pontoon, except a natural beating a plain one."""
    banker_natural = is_natural(banker)
    for seat in seats:
        hand = seat.hands[0]
        if rules.natural_beats_plain and hand.status == HandStatus.PONTOON and is_natural(hand.cards) \
                and not banker_natural:
            ledger.settle_hand(seat, hand, "natural-beats-plain", rules.pontoon_pays * hand.stake)
        else:
            ledger.settle_hand(seat, hand, "banker-pontoon", -rules.banker_pontoon_collects * hand.stake)


def settle_showdown(ledger: Ledger, rules: TraditionalRules, banker: list[str], banker_status: BankerStatus,
                    seats: list[PlayerSeat], payment_multiple: int) -> None:
    """Settle every hand still in play against the banker's finished hand. A Pontoon, a Royal
    Pontoon or a Five Card Trick (the banker's included) keeps its multiple of the undoubled
    stake; every other payment takes the round's multiple."""
    for seat in seats:
        for hand in seat.hands:
            if hand.status != HandStatus.BUST:
                outcome, banker_pays = _showdown(rules, banker, banker_status, hand, payment_multiple)
                ledger.settle_hand(seat, hand, outcome, banker_pays)


def _showdown(rules: TraditionalRules, banker: list[str], banker_status: BankerStatus, hand: PlayerHand,
              multiple: int) -> tuple[str, int]:
    """One hand's outcome against the banker and what the banker pays it (negative: collects)."""
    stake = hand.total_stake
    if hand.status == HandStatus.ROYAL:
        return "royal-pontoon", rules.royal_pontoon_pays * stake
    if hand.status == HandStatus.PONTOON:
        return "pontoon", rules.pontoon_pays * stake
    if banker_status == BankerStatus.FIVE_CARD_TRICK:
        return "banker-five-card-trick", -rules.banker_five_card_trick_collects * stake
    if hand.status == HandStatus.FIVE_CARD_TRICK:
        return "five-card-trick", rules.five_card_trick_pays * stake
    if banker_status == BankerStatus.BUST:
        return "banker-bust", stake * multiple
    if value(hand.cards) > value(banker):
        return "win", stake * multiple
    return "lose", -stake * multiple  # ties go to the banker
