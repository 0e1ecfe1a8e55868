"""Where a player-banked round stands: who is owed cards, whose turn it is, and what each card does."""
from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from enum import StrEnum

from ...actions import CardDealt, DecisionTaken, NotAwaitingCard, RuleViolation
from ...cards import hard_total, is_card, parse_card
from ...limits import Limits
from ...round_core import Awaiting, RoundCore
from ...rule_errors import RuleFieldError
from ...shoe import ShoeSpec
from .hands import BankerStatus, HandStatus, is_five_card_trick, is_pontoon, is_royal
from .rules import TraditionalRules
from .seats import PlayerHand, PlayerSeat, kitty_from, seats_from
from .settlement import Ledger, settle_banker_pontoon, settle_showdown
from .transfers import Transfer

BANKER_SEAT = 0


class Phase(StrEnum):
    """The round's stages: the deal, the players' turns, the banker's turn, and complete."""

    DEAL = "deal"
    PLAY = "play"
    BANKER_TURN = "banker"
    COMPLETE = "complete"


class RoundState(RoundCore):
    """The cards and money of a player-banked round and how each card moves it on; the decisions
    that change it are TraditionalRound's."""

    seats: list[PlayerSeat]             # the punters in seat order; the banker (seat 0) is not one
    shoe_spec: ShoeSpec                 # one pack, or two once the table is large: set at the start

    def __init__(self, rules: TraditionalRules, players: list[dict[str, object]], kitty: int | None = None,
                 limits: Mapping[str, Limits] | None = None) -> None:
        # A table's own limits replace the rules' (a kind the game has not is refused here); the
        # transcript carries them, so the round replays under them.
        try:
            self.rules = rules.with_limits(limits or {})
        except RuleFieldError as exc:
            raise RuleViolation(str(exc)) from None
        self.table_limits: dict[str, Limits] = dict(limits or {})
        self.seats = seats_from(self.rules, players)
        self.shoe_spec = self.rules.shoe_for(len(self.seats))
        self.kitty_before = kitty_from(self.rules, kitty, self.seats)
        self.ledger = Ledger(self.kitty_before)
        self.banker: list[str] = []
        self.banker_positions: list[int] = []
        self.banker_status = BankerStatus.PLAYING
        self.stakes_doubled = False
        self.phase = Phase.DEAL
        self.log: list[CardDealt | DecisionTaken] = []
        self.cards_out: list[str] = []
        self.returned: list[str] = []   # cards gone to the bottom of the pack, in that order
        self._returned_positions: set[int] = set()
        # Who is owed the next cards: (seat, hand) for a player's hand, None for the banker. The
        # deal: a card to each player in seat order, the banker's, then the same again.
        first_hands: list[tuple[PlayerSeat, PlayerHand] | None] = [(s, s.hands[0]) for s in self.seats]
        self._owed: deque[tuple[PlayerSeat, PlayerHand] | None] = deque([*first_hands, None, *first_hands, None])
        self._seat_pos = 0
        self._hand_pos = 0

    # ----- where the round stands ---------------------------------------------------------
    @property
    def kitty(self) -> int:
        return self.ledger.kitty

    @property
    def transfers(self) -> list[Transfer]:
        return self.ledger.transfers

    @property
    def awaiting(self) -> Awaiting | None:
        """A card, a decision, or None once the round is complete."""
        if self.phase == Phase.COMPLETE:
            return None
        return Awaiting.CARD if self._owed else Awaiting.DECISION

    @property
    def complete(self) -> bool:
        return self.phase == Phase.COMPLETE

    def card_recipient(self) -> str | None:
        """Who the next card goes to, as "banker" or "seat S hand H"; None when no card is owed."""
        if not self._owed or self.phase == Phase.COMPLETE:
            return None
        target = self._owed[0]
        return "banker" if target is None else f"seat {target[0].number} hand {target[1].index}"

    def in_turn(self) -> tuple[int, int | None] | None:
        """(seat, hand) whose decision is awaited; (0, None) is the banker."""
        if self._owed:
            return None
        if self.phase == Phase.PLAY:
            return self.seats[self._seat_pos].number, self._hand_pos
        if self.phase == Phase.BANKER_TURN:
            return BANKER_SEAT, None
        return None

    def _current_seat(self) -> PlayerSeat:
        return self.seats[self._seat_pos]

    def _current_hand(self) -> PlayerHand:
        return self.seats[self._seat_pos].hands[self._hand_pos]

    @property
    def open_shoot_bets(self) -> int:
        """Shoot bets not settled yet (a bust settles its own at once; the rest settle at the end)."""
        return sum(h.shoot_total for s in self.seats for h in s.hands if h.outcome is None)

    @property
    def shoot_room(self) -> int:
        """How much more may be shot now: all shoot bets open at once may not exceed the kitty."""
        return self.kitty - self.open_shoot_bets

    @property
    def shoot_most(self) -> int:
        """The most one shoot bet may be now: the room left, or the table's shoot limit if less."""
        most = self.rules.shoot_bet_maximum
        return self.shoot_room if most is None else min(self.shoot_room, most)

    @property
    def payment_multiple(self) -> int:
        """Doubled stakes double every payment except those a Pontoon or Five Card Trick decides."""
        return 2 if self.stakes_doubled else 1

    @property
    def banker_pontoon(self) -> bool:
        return self.banker_status == BankerStatus.PONTOON

    @property
    def reshuffle(self) -> bool:
        """Any Pontoon made this round (the banker's or a split hand's included) shuffles the pack."""
        return self.banker_pontoon or any(h.status == HandStatus.PONTOON for s in self.seats for h in s.hands)

    @property
    def next_banker(self) -> int | None:
        """The seat nearest the banker's left with an unsplit Pontoon, when the banker had none."""
        if self.phase != Phase.COMPLETE or self.banker_pontoon:
            return None
        for seat in self.seats:
            if not seat.split and seat.hands[0].status == HandStatus.PONTOON:
                return seat.number
        return None

    def net(self, party: str) -> int:
        return self.ledger.net(party)

    # ----- cards --------------------------------------------------------------------------
    def deal_card(self, card: str) -> CardDealt:
        """Give the next card out of the pack to whoever the rules say is owed one."""
        if not is_card(card):
            parse_card(card)  # raises CardError with the reason
        if self.phase == Phase.COMPLETE or not self._owed:
            raise NotAwaitingCard("no card is owed now: the round awaits "
                                  + ("nothing, it is complete" if self.phase == Phase.COMPLETE else "a decision"),
                                  self.legal_actions)
        position = len(self.cards_out)
        self.cards_out.append(card)
        target = self._owed.popleft()
        if target is None:
            self.banker.append(card)
            self.banker_positions.append(position)
            record = CardDealt(card, "banker")
            self.log.append(record)
            if self.phase == Phase.BANKER_TURN:
                self._after_banker_card()
        else:
            seat, hand = target
            hand.cards.append(card)
            hand.positions.append(position)
            record = CardDealt(card, f"seat {seat.number} hand {hand.index}")
            self.log.append(record)
            if not any(t is not None and t[1] is hand for t in self._owed):
                self._after_hand_card(seat, hand)
        if self.phase == Phase.DEAL and not self._owed:
            self._finish_deal()
        self._advance()
        return record

    def _after_hand_card(self, seat: PlayerSeat, hand: PlayerHand) -> None:
        """A hand's owed cards are in: declare what it has become."""
        hand.must_take_card = False
        cards = hand.cards
        if len(cards) == 2 and is_pontoon(cards, self.rules):
            hand.status = HandStatus.PONTOON
        elif hard_total(cards) > 21:
            self._bust(seat, hand)
        elif is_five_card_trick(cards):
            hand.status = HandStatus.FIVE_CARD_TRICK
        elif is_royal(cards, self.rules):
            hand.status = HandStatus.ROYAL
        elif hard_total(cards) == 21:
            hand.status = HandStatus.STUCK  # value 21 and no card can be taken: it sticks by itself

    def _after_banker_card(self) -> None:
        if hard_total(self.banker) > 21:
            self.banker_status = BankerStatus.BUST
        elif is_five_card_trick(self.banker):
            self.banker_status = BankerStatus.FIVE_CARD_TRICK
        elif hard_total(self.banker) == 21:
            self.banker_status = BankerStatus.STAYED  # like a player's hand: no card can be taken

    def _finish_deal(self) -> None:
        self.phase = Phase.PLAY
        if is_pontoon(self.banker, self.rules):
            self.banker_status = BankerStatus.PONTOON
            settle_banker_pontoon(self.ledger, self.rules, self.banker, self.seats)
            self._complete()

    def _bust(self, seat: PlayerSeat, hand: PlayerHand) -> None:
        """A bust is settled at once, and its cards go to the bottom of the pack."""
        hand.status = HandStatus.BUST
        self.ledger.settle_bust(seat, hand, self.payment_multiple)
        self._return_to_pack(hand.positions)

    def _return_to_pack(self, positions: list[int]) -> None:
        for position in sorted(positions):
            if position not in self._returned_positions:
                self._returned_positions.add(position)
                self.returned.append(self.cards_out[position])

    def _advance(self) -> None:
        """Move the turn past every hand that takes no more decisions; the banker's turn follows
        the players', and the round settles once the banker's hand is finished."""
        while self.phase == Phase.PLAY and not self._owed:
            if self._seat_pos >= len(self.seats):
                if any(h.status != HandStatus.BUST for s in self.seats for h in s.hands):
                    self.phase = Phase.BANKER_TURN
                else:  # no hand left in play: the banker does not play
                    self._complete()
                break
            if self._current_hand().status == HandStatus.PLAYING:
                return
            self._next_hand()
        if self.phase == Phase.BANKER_TURN and not self._owed and self.banker_status != BankerStatus.PLAYING:
            settle_showdown(self.ledger, self.rules, self.banker, self.banker_status, self.seats,
                            self.payment_multiple)
            self._complete()

    def _complete(self) -> None:
        self.phase = Phase.COMPLETE
        self._owed.clear()
        # Statuses are final once the round is: a hand the banker's Pontoon ended before its turn,
        # and a banker whom every bust left nothing to play, did not play.
        for seat in self.seats:
            for hand in seat.hands:
                if hand.status == HandStatus.PLAYING:
                    hand.status = HandStatus.UNPLAYED
        if self.banker_status == BankerStatus.PLAYING:
            self.banker_status = BankerStatus.UNPLAYED
        # The rest go to the bottom at the end, in the order dealt (burns and busts went already).
        self._return_to_pack(list(range(len(self.cards_out))))
