"""One round of player-banked Pontoon: deal, players' decisions, the banker's turn, settlement."""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from ...round_core import RoundCore, action_dict
from ...actions import Action, CardDealt, DecisionTaken, LegalAction, NotAwaitingCard, RuleViolation
from ...cards import hard_total, is_card, parse_card
from .hands import (BUST, FIVE_CARD_TRICK, FIVE_CARD_TRICK_SIZE, PLAYING, PONTOON, ROYAL, STUCK, is_five_card_trick,
                    is_natural, is_pair, is_pontoon, is_royal, ranks, value)
from .rules import TraditionalRules
from .transfers import BANKER, KITTY, Transfer, net_of, seat_party

DEAL, PLAY, BANKER_TURN, COMPLETE = "deal", "play", "banker", "complete"
# The banker's hand: still drawing, or finished one of these ways.
BANKER_PLAYING, BANKER_STAYED, BANKER_BUST, BANKER_TRICK, BANKER_PONTOON = (
    "playing", "stayed", "bust", "five-card-trick", "pontoon")
BANKER_SEAT = 0
_PLAYER_FIELDS = frozenset({"seat", "stake", "shoot"})


@dataclass(slots=True)
class PlayerHand:
    """One hand of a punter: its cards, stakes bought and where it stands."""

    index: int
    stake: int                          # the initial stake (a split hand's equals the seat's)
    cards: list[str] = field(default_factory=list)
    positions: list[int] = field(default_factory=list)   # where each card left the pack
    buys: list[int] = field(default_factory=list)
    twisted: bool = False
    status: str = PLAYING
    shoot_bets: list[int] = field(default_factory=list)
    fourth_card_shoot: bool = False     # the one extra shoot bet before the fourth card is placed
    must_take_card: bool = False        # that bet binds the hand to take its fourth card
    burned: list[str] = field(default_factory=list)
    from_split: bool = False            # its Pontoon pays as one but does not pass the bank
    outcome: str | None = None

    @property
    def total_stake(self) -> int:
        return self.stake + sum(self.buys)

    @property
    def shoot_total(self) -> int:
        return sum(self.shoot_bets)


@dataclass(slots=True)
class PlayerSeat:
    """A punter in the school: the stake, the shoot bet and the hands."""

    number: int
    stake: int
    shoot: int
    hands: list[PlayerHand]

    @property
    def split(self) -> bool:
        return len(self.hands) > 1


class TraditionalRound(RoundCore):
    """A round of player-banked Pontoon; cards come in through deal_card, decisions through act."""

    def __init__(self, rules: TraditionalRules, players: list[dict], kitty: int | None = None) -> None:
        self.rules = rules
        self.seats = self._seats_from(players)
        self.shoe_spec = rules.shoe_for(len(self.seats))
        self.kitty_before = self._kitty_from(kitty)
        self.kitty = self.kitty_before
        self.banker: list[str] = []
        self.banker_positions: list[int] = []
        self.banker_status = BANKER_PLAYING
        self.stakes_doubled = False
        self.phase = DEAL
        self.log: list[CardDealt | DecisionTaken] = []
        self.cards_out: list[str] = []
        self.transfers: list[Transfer] = []
        self.returned: list[str] = []   # cards gone to the bottom of the pack, in that order
        self._returned_positions: set[int] = set()
        # Who is owed the next cards: (seat, hand) for a player's hand, None for the banker.
        self._owed: deque[tuple[PlayerSeat, PlayerHand] | None] = deque(
            [*((s, s.hands[0]) for s in self.seats), None, *((s, s.hands[0]) for s in self.seats), None])
        self._seat_pos = 0
        self._hand_pos = 0

    # ----- set-up -------------------------------------------------------------------------
    def _seats_from(self, players: list[dict]) -> list[PlayerSeat]:
        if not isinstance(players, list) or not players:
            raise RuleViolation("a round needs at least one player with a stake")
        limits, seats = self.rules.stake_limits, {}
        for entry in players:
            if not isinstance(entry, dict):
                raise RuleViolation("each player must be an object {seat, stake, shoot?}")
            number, stake, shoot = entry.get("seat"), entry.get("stake"), entry.get("shoot", 0)
            if not _whole(number) or not 1 <= number <= self.rules.max_seats:
                raise RuleViolation(f"seat {number!r} does not exist: player seats are 1 to {self.rules.max_seats} "
                                    "(the banker is seat 0)")
            unknown = set(entry) - _PLAYER_FIELDS
            if unknown:
                raise RuleViolation(f"seat {number}: unknown fields {sorted(unknown)}")
            if number in seats:
                raise RuleViolation(f"seat {number} is listed twice")
            if not _whole(stake) or not limits.contains(stake):
                raise RuleViolation(f"seat {number}: stake {stake!r} is outside the limits "
                                    f"{limits.minimum} to {limits.maximum}")
            shoot = 0 if shoot is None else shoot
            if not _whole(shoot) or shoot < 0:
                raise RuleViolation(f"seat {number}: shoot bet {shoot!r} must be a whole number of cents")
            if shoot and not self.rules.shoot:
                raise RuleViolation(f"seat {number}: shoot bets are played only in Shoot Pontoon (shoot: true)")
            if shoot and shoot < self.rules.shoot_bet_minimum:
                raise RuleViolation(f"seat {number}: shoot bet {shoot} is under the minimum "
                                    f"{self.rules.shoot_bet_minimum}")
            seats[number] = PlayerSeat(number, stake, shoot,
                                       [PlayerHand(0, stake, shoot_bets=[shoot] if shoot else [])])
        return [seats[n] for n in sorted(seats)]

    def _kitty_from(self, kitty: int | None) -> int:
        if not self.rules.shoot:
            if kitty:
                raise RuleViolation("a kitty is played only in Shoot Pontoon (shoot: true)")
            return 0
        if kitty is None or not _whole(kitty) or kitty < 1:
            raise RuleViolation(f"Shoot Pontoon needs a kitty of at least 1 cent, not {kitty!r}: "
                                "an empty kitty must be renewed or the bank sold")
        opened = sum(s.shoot for s in self.seats)
        if opened > kitty:
            raise RuleViolation(f"the shoot bets ({opened}) exceed the kitty ({kitty})")
        return kitty

    # ----- where the round stands ---------------------------------------------------------
    @property
    def awaiting(self) -> str | None:
        """"card", "decision", or None once the round is complete."""
        if self.phase == COMPLETE:
            return None
        return "card" if self._owed else "decision"

    @property
    def complete(self) -> bool:
        return self.phase == COMPLETE

    def card_recipient(self) -> str | None:
        """Who the next card goes to, as "banker" or "seat S hand H"; None when no card is owed."""
        if not self._owed or self.phase == COMPLETE:
            return None
        target = self._owed[0]
        return "banker" if target is None else f"seat {target[0].number} hand {target[1].index}"

    def in_turn(self) -> tuple[int, int | None] | None:
        """(seat, hand) whose decision is awaited; (0, None) is the banker."""
        if self._owed:
            return None
        if self.phase == PLAY:
            return self.seats[self._seat_pos].number, self._hand_pos
        if self.phase == BANKER_TURN:
            return BANKER_SEAT, None
        return None

    def _current_hand(self) -> PlayerHand:
        return self.seats[self._seat_pos].hands[self._hand_pos]

    @property
    def open_shoot_bets(self) -> int:
        return sum(h.shoot_total for s in self.seats for h in s.hands if h.status != BUST)

    @property
    def shoot_room(self) -> int:
        """How much more may be shot now: all shoot bets open at once may not exceed the kitty."""
        return self.kitty - self.open_shoot_bets

    @property
    def payment_multiple(self) -> int:
        """Doubled stakes double every payment except those a Pontoon or Five Card Trick decides."""
        return 2 if self.stakes_doubled else 1

    # ----- cards --------------------------------------------------------------------------
    def deal_card(self, card: str) -> CardDealt:
        """Give the next card out of the pack to whoever the rules say is owed one."""
        if not is_card(card):
            parse_card(card)  # raises CardError with the reason
        if self.phase == COMPLETE or not self._owed:
            raise NotAwaitingCard("no card is owed now: the round awaits "
                                  + ("nothing, it is complete" if self.phase == COMPLETE else "a decision"),
                                  self.legal_actions)
        position = len(self.cards_out)
        self.cards_out.append(card)
        target = self._owed.popleft()
        if target is None:
            self.banker.append(card)
            self.banker_positions.append(position)
            record = CardDealt(card, "banker")
            self.log.append(record)
            if self.phase == BANKER_TURN:
                self._after_banker_card()
        else:
            seat, hand = target
            hand.cards.append(card)
            hand.positions.append(position)
            record = CardDealt(card, f"seat {seat.number} hand {hand.index}")
            self.log.append(record)
            if not any(t is not None and t[1] is hand for t in self._owed):
                self._after_hand_card(seat, hand)
        if self.phase == DEAL and not self._owed:
            self._finish_deal()
        self._advance()
        return record

    def _after_hand_card(self, seat: PlayerSeat, hand: PlayerHand) -> None:
        """A hand's owed cards are in: declare what it has become."""
        hand.must_take_card = False
        cards = hand.cards
        if len(cards) == 2 and is_pontoon(cards, self.rules):
            hand.status = PONTOON
        elif hard_total(cards) > 21:
            self._bust(seat, hand)
        elif is_five_card_trick(cards):
            hand.status = FIVE_CARD_TRICK
        elif is_royal(cards, self.rules):
            hand.status = ROYAL
        elif hard_total(cards) == 21:
            hand.status = STUCK  # value 21 and no card can be taken: it sticks by itself

    def _after_banker_card(self) -> None:
        if hard_total(self.banker) > 21:
            self.banker_status = BANKER_BUST
        elif is_five_card_trick(self.banker):
            self.banker_status = BANKER_TRICK
        elif hard_total(self.banker) == 21:
            self.banker_status = BANKER_STAYED  # by analogy with a player's hand: no card can be taken

    def _finish_deal(self) -> None:
        self.phase = PLAY
        if is_pontoon(self.banker, self.rules):
            self.banker_status = BANKER_PONTOON
            self._settle_banker_pontoon()
            self._complete()

    def _bust(self, seat: PlayerSeat, hand: PlayerHand) -> None:
        """A bust loses its stake and its shoot bets at once, and its cards go to the bottom."""
        hand.status, hand.outcome = BUST, "bust"
        party = seat_party(seat.number)
        self._pay(party, BANKER, hand.total_stake * self.payment_multiple, "bust", seat.number, hand.index)
        self._pay(party, KITTY, hand.shoot_total, "shoot-lost", seat.number, hand.index)
        self._return_to_pack(hand.positions)

    def _return_to_pack(self, positions: list[int]) -> None:
        for position in sorted(positions):
            if position not in self._returned_positions:
                self._returned_positions.add(position)
                self.returned.append(self.cards_out[position])

    def _advance(self) -> None:
        while self.phase == PLAY and not self._owed:
            if self._seat_pos >= len(self.seats):
                if any(h.status != BUST for s in self.seats for h in s.hands):
                    self.phase = BANKER_TURN
                else:  # no hand left in play: the banker does not play
                    self._complete()
                break
            if self._current_hand().status == PLAYING:
                return
            if self._hand_pos + 1 < len(self.seats[self._seat_pos].hands):
                self._hand_pos += 1
            else:
                self._seat_pos, self._hand_pos = self._seat_pos + 1, 0
        if self.phase == BANKER_TURN and not self._owed and self.banker_status != BANKER_PLAYING:
            self._settle()
            self._complete()

    def _complete(self) -> None:
        self.phase = COMPLETE
        self._owed.clear()
        # The rest go to the bottom at the end, in the order dealt (burns and busts went already).
        self._return_to_pack(list(range(len(self.cards_out))))

    # ----- decisions ----------------------------------------------------------------------
    def _verify_turn(self, seat: int, hand: int | None, action: str) -> tuple[PlayerSeat, PlayerHand]:
        if self.phase != PLAY:
            self._refuse(f"{action} is not allowed: " + {
                DEAL: "the cards are still being dealt", BANKER_TURN: "the players' turns are over",
                COMPLETE: "the round is complete"}[self.phase])
        if self._owed:
            self._refuse(f"{action} is not allowed: a card is owed to {self.card_recipient()} first")
        current = self.seats[self._seat_pos]
        index = 0 if hand is None else hand
        if seat != current.number or index != self._hand_pos:
            self._refuse(f"{action} by seat {seat} hand {index} is out of turn: "
                         f"seat {current.number} hand {self._hand_pos} is in turn")
        return current, self._current_hand()

    def _verify_banker(self, seat: int, hand: int | None, action: str) -> None:
        if seat != BANKER_SEAT:
            self._refuse(f"{action} is the banker's decision (seat 0), not seat {seat}'s")
        if hand not in (None, 0):
            self._refuse(f"{action} names no hand: the banker holds one")

    def verify_split(self, seat: int, hand: int | None = None, amount: int | None = None) -> PlayerHand:
        s, h = self._verify_turn(seat, hand, "split")
        if len(h.cards) != 2 or not is_pair(h.cards):
            self._refuse(f"split is allowed only on a hand's first two cards of one rank, not {' '.join(h.cards)}")
        if self.rules.split_pairs == "aces" and ranks(h.cards)[0] != "A":
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
        s = self.seats[self._seat_pos]
        new = PlayerHand(len(s.hands), s.stake, [h.cards.pop()], [h.positions.pop()],
                         shoot_bets=[amount] if amount else [], from_split=True)
        h.from_split = True
        s.hands.append(new)
        # Both hands take a card at once, the original first.
        self._owed.extend([(s, h), (s, new)])
        return self._decided(seat, h.index, "split", amount)

    def buy_range(self, h: PlayerHand) -> tuple[int, int]:
        if len(h.cards) == 2:
            return h.stake, h.stake * self.rules.first_buy_max_multiple
        return h.stake, h.buys[-1]

    def verify_buy(self, seat: int, hand: int | None = None, amount: int | None = None) -> PlayerHand:
        _, h = self._verify_turn(seat, hand, "buy")
        self._verify_can_take_card(h, "buy")
        if h.twisted:
            self._refuse("buy is not allowed: the hand has twisted, and may only twist from now on")
        if self.rules.no_buy_fifth_on_eleven and len(h.cards) == 4 and hard_total(h.cards) <= 11:
            self._refuse("buy is not allowed: four cards on a hard total of 11 or less may only twist the fifth")
        if amount is not None:
            low, high = self.buy_range(h)
            if not _whole(amount) or not low <= amount <= high:
                self._refuse(f"buy amount {amount!r} is outside {low} to {high}")
        return h

    def can_buy(self, seat: int, hand: int | None = None, amount: int | None = None) -> bool:
        return self._can(self.verify_buy, seat, hand, amount)

    def buy(self, seat: int, hand: int | None = None, amount: int | None = None) -> DecisionTaken:
        if amount is None:
            self._refuse("buy needs an amount")
        h = self.verify_buy(seat, hand, amount)
        h.buys.append(amount)
        self._owed.append((self.seats[self._seat_pos], h))
        return self._decided(seat, h.index, "buy", amount)

    def _verify_can_take_card(self, h: PlayerHand, action: str) -> None:
        total = hard_total(h.cards)
        if total >= 21:
            self._refuse(f"{action} is not allowed on a hard total of {total}")
        if len(h.cards) >= FIVE_CARD_TRICK_SIZE:
            self._refuse(f"{action} is not allowed: the hand has {len(h.cards)} cards")

    def verify_twist(self, seat: int, hand: int | None = None) -> PlayerHand:
        _, h = self._verify_turn(seat, hand, "twist")
        self._verify_can_take_card(h, "twist")
        return h

    def can_twist(self, seat: int, hand: int | None = None) -> bool:
        return self._can(self.verify_twist, seat, hand)

    def twist(self, seat: int, hand: int | None = None) -> DecisionTaken:
        h = self.verify_twist(seat, hand)
        h.twisted = True
        self._owed.append((self.seats[self._seat_pos], h))
        return self._decided(seat, h.index, "twist")

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
        h.status = STUCK
        return self._decided(seat, h.index, "stick")

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
        s = self.seats[self._seat_pos]
        self._owed.extend([(s, h), (s, h)])
        return self._decided(seat, h.index, "burn")

    def _verify_shoot_amount(self, what: str, amount: object) -> None:
        if not self.rules.shoot:
            self._refuse(f"{what} is not allowed: shoot bets are played only in Shoot Pontoon")
        low, high = self.rules.shoot_bet_minimum, self.shoot_room
        if high < low:
            self._refuse(f"{what} is not allowed: the kitty has room for only {max(high, 0)} more")
        if not _whole(amount) or not low <= amount <= high:  # type: ignore[operator]
            self._refuse(f"{what} {amount!r} is outside {low} to {high} (the room left in the kitty)")

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
        return self._decided(seat, h.index, "shoot", amount)

    def verify_double_stakes(self, seat: int, hand: int | None = None) -> None:
        self._verify_banker(seat, hand, "double_stakes")
        if not self.rules.banker_may_double:
            self._refuse("double_stakes is not allowed: these rules do not let the banker double")
        # The banker doubles having seen the first card: a Pontoon the second then made ended the
        # round at the deal, after the double (which changes nothing: a Pontoon's payments keep
        # their multiple of the undoubled stake).
        ended_by_banker_pontoon = self.phase == COMPLETE and self.banker_status == BANKER_PONTOON
        if (self.phase not in (PLAY, BANKER_TURN) or self._owed) and not ended_by_banker_pontoon:
            self._refuse("double_stakes is allowed only once the cards are dealt")
        if self.stakes_doubled or any(type(record) is DecisionTaken for record in self.log):
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
        return self._decided(BANKER_SEAT, None, "double_stakes")

    def _verify_banker_turn(self, seat: int, hand: int | None, action: str) -> None:
        self._verify_banker(seat, hand, action)
        if self.phase != BANKER_TURN:
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
        return self._decided(BANKER_SEAT, None, "draw")

    def verify_stay(self, seat: int = BANKER_SEAT, hand: int | None = None) -> None:
        self._verify_banker_turn(seat, hand, "stay")

    def can_stay(self, seat: int = BANKER_SEAT, hand: int | None = None) -> bool:
        return self._can(self.verify_stay, seat, hand)

    def stay(self, seat: int = BANKER_SEAT, hand: int | None = None) -> DecisionTaken:
        self.verify_stay(seat, hand)
        self.banker_status = BANKER_STAYED
        return self._decided(BANKER_SEAT, None, "stay")

    def _decided(self, seat: int, hand: int | None, action: str, amount: int | None = None) -> DecisionTaken:
        return self._record(seat, hand, action, amount)

    DECISIONS = ("split", "buy", "twist", "stick", "burn", "shoot", "draw", "stay", "double_stakes")
    TAKES_AMOUNT = frozenset({"split", "buy", "shoot"})   # a split's amount is the new hand's shoot bet

    def legal_actions(self) -> list[LegalAction]:
        """Every decision allowed now, with amount ranges where it takes one."""
        legal: list[LegalAction] = []
        if self.phase == COMPLETE:
            return legal
        if self.can_double_stakes():
            legal.append(LegalAction(BANKER_SEAT, "double_stakes"))
        turn = self.in_turn()
        if turn is None:
            return legal
        seat, hand = turn
        if seat == BANKER_SEAT:
            legal.extend(LegalAction(BANKER_SEAT, name) for name in ("draw", "stay")
                         if self._can(getattr(self, "verify_" + name), seat, None))
            return legal
        h = self._current_hand()
        for name in ("twist", "stick", "burn"):
            if self._can(getattr(self, "verify_" + name), seat, hand):
                legal.append(LegalAction(seat, name, hand))
        if self.can_buy(seat, hand):
            legal.append(LegalAction(seat, "buy", hand, *self.buy_range(h)))
        if self.can_shoot(seat, hand):
            legal.append(LegalAction(seat, "shoot", hand, self.rules.shoot_bet_minimum, self.shoot_room))
        if self.can_split(seat, hand):
            legal.append(LegalAction(seat, "split", hand))
            if self.can_split(seat, hand, self.rules.shoot_bet_minimum):  # with a shoot bet on the new hand
                legal.append(LegalAction(seat, "split", hand, self.rules.shoot_bet_minimum, self.shoot_room))
        return legal

    # ----- settlement ---------------------------------------------------------------------
    def _pay(self, payer: str, payee: str, amount: int, kind: str, seat: int, hand: int | None) -> None:
        if amount <= 0:
            return
        self.transfers.append(Transfer(payer, payee, amount, kind, seat, hand))
        if payer == KITTY:
            self.kitty -= amount
        if payee == KITTY:
            self.kitty += amount

    def _settle_hand(self, seat: PlayerSeat, hand: PlayerHand, outcome: str, banker_pays: int) -> None:
        """Settle one hand: `banker_pays` > 0 is a win for the hand, < 0 a loss; shoot bets follow."""
        party = seat_party(seat.number)
        hand.outcome = outcome
        if banker_pays > 0:
            self._pay(BANKER, party, banker_pays, outcome, seat.number, hand.index)
            self._pay(KITTY, party, hand.shoot_total, "shoot-won", seat.number, hand.index)
        else:
            self._pay(party, BANKER, -banker_pays, outcome, seat.number, hand.index)
            self._pay(party, KITTY, hand.shoot_total, "shoot-lost", seat.number, hand.index)

    def _settle_banker_pontoon(self) -> None:
        """Every player pays the banker's Pontoon, except a natural beating a plain one."""
        rules = self.rules
        banker_natural = is_natural(self.banker)
        for seat in self.seats:
            hand = seat.hands[0]
            if rules.natural_beats_plain and hand.status == PONTOON and is_natural(hand.cards) \
                    and not banker_natural:
                self._settle_hand(seat, hand, "natural-beats-plain", rules.pontoon_pays * hand.stake)
            else:
                self._settle_hand(seat, hand, "banker-pontoon", -rules.banker_pontoon_collects * hand.stake)

    def _settle(self) -> None:
        rules, multiple = self.rules, self.payment_multiple
        banker_value = value(self.banker)
        for seat in self.seats:
            for hand in seat.hands:
                if hand.status == BUST:
                    continue
                stake = hand.total_stake
                if hand.status == ROYAL:
                    self._settle_hand(seat, hand, "royal-pontoon", rules.royal_pontoon_pays * stake)
                elif hand.status == PONTOON:
                    self._settle_hand(seat, hand, "pontoon", rules.pontoon_pays * stake)
                elif self.banker_status == BANKER_TRICK:
                    self._settle_hand(seat, hand, "banker-five-card-trick",
                                      -rules.banker_five_card_trick_collects * stake)
                elif hand.status == FIVE_CARD_TRICK:
                    self._settle_hand(seat, hand, "five-card-trick", rules.five_card_trick_pays * stake)
                elif self.banker_status == BANKER_BUST:
                    self._settle_hand(seat, hand, "banker-bust", stake * multiple)
                elif value(hand.cards) > banker_value:
                    self._settle_hand(seat, hand, "win", stake * multiple)
                else:  # ties go to the banker
                    self._settle_hand(seat, hand, "lose", -stake * multiple)

    # ----- results ------------------------------------------------------------------------
    @property
    def banker_pontoon(self) -> bool:
        return self.banker_status == BANKER_PONTOON

    @property
    def reshuffle(self) -> bool:
        """Any Pontoon made this round (the banker's or a split hand's included) shuffles the pack."""
        return self.banker_pontoon or any(h.status == PONTOON for s in self.seats for h in s.hands)

    @property
    def next_banker(self) -> int | None:
        """The seat nearest the banker's left with an unsplit Pontoon, when the banker had none."""
        if self.phase != COMPLETE or self.banker_pontoon:
            return None
        for seat in self.seats:
            if not seat.split and seat.hands[0].status == PONTOON:
                return seat.number
        return None

    def net(self, party: str) -> int:
        return net_of(party, self.transfers)

    def result(self) -> dict:
        """The round's money in the transcript format's output (complete rounds only)."""
        if self.phase != COMPLETE:
            raise RuleViolation("the round is not complete", self.legal_actions)
        total = value(self.banker)
        players = []
        for seat in self.seats:
            party = seat_party(seat.number)
            players.append({
                "seat": seat.number,
                "net": self.net(party),
                "stake": seat.stake,
                "hands": [{
                    "hand": h.index, "cards": list(h.cards), "stake": h.total_stake, "buys": list(h.buys),
                    "total": value(h.cards), "outcome": h.outcome, "shoot": h.shoot_total,
                    "net": _hand_net(self.transfers, party, h.index),
                    **({"burned": list(h.burned)} if h.burned else {}),
                } for h in seat.hands],
            })
        return {
            "banker": {"cards": list(self.banker), "total": total, "pontoon": self.banker_pontoon,
                       "five_card_trick": self.banker_status == BANKER_TRICK,
                       "bust": self.banker_status == BANKER_BUST, "net": self.net(BANKER)},
            "players": players,
            "kitty": self.kitty,
            "next_banker": self.next_banker,
            "reshuffle": self.reshuffle,
        }

    def snapshot(self) -> dict:
        """Everything a terminal needs to see: phase, what is awaited, legal decisions, every hand."""
        turn = self.in_turn()
        return {
            "phase": self.phase,
            "awaiting": self.awaiting,
            "card_to": self.card_recipient(),
            "in_turn": {"seat": turn[0], "hand": turn[1]} if turn else None,
            "legal_actions": [a.as_dict() for a in self.legal_actions()],
            "stakes_doubled": self.stakes_doubled,
            "banker": {"cards": list(self.banker), "total": value(self.banker), "status": self.banker_status},
            "kitty": self.kitty,
            "shoot_room": self.shoot_room if self.rules.shoot else 0,
            "players": [{
                "seat": s.number, "stake": s.stake,
                "hands": [{"hand": h.index, "cards": list(h.cards), "stake": h.total_stake, "buys": list(h.buys),
                           "twisted": h.twisted, "shoot": h.shoot_total, "total": value(h.cards),
                           "status": h.status, "burned": list(h.burned)} for h in s.hands],
            } for s in self.seats],
        }

    def transcript(self, rules_ref: str | None = None) -> dict:
        """The round so far in the transcript format; a complete round replays to the same money."""
        players = []
        for seat in self.seats:
            entry = {"seat": seat.number, "stake": seat.stake}
            if seat.shoot:
                entry["shoot"] = seat.shoot
            players.append(entry)
        out = {"rules": rules_ref or self.rules.name, "options": self.rules.options(), "players": players,
               "cards": list(self.cards_out), "actions": [action_dict(a, "shoot" if a.action == "split" else "amount") for a in self.actions]}
        if self.rules.shoot:
            out["kitty"] = self.kitty_before
        return out


def _hand_net(transfers: list[Transfer], party: str, hand: int) -> int:
    return sum(t.amount for t in transfers if t.hand == hand and t.to_party == party) - \
        sum(t.amount for t in transfers if t.hand == hand and t.from_party == party)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)

