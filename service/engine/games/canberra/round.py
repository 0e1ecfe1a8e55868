"""One round of the house-banked game: deal, decisions with verify/can/act, dealer play."""
from __future__ import annotations

from collections import namedtuple
from functools import partial

from ...round_core import RoundCore, action_dict
from ...actions import (CardDealt, DecisionTaken, LegalAction, NotAwaitingCard, RuleViolation,
                       new_card_dealt, new_decision_taken)
from ...cards import ACES, CARD_POINTS, RANK_OF, SUIT_OF, TEN_VALUED, best_total, hard_total, parse_card
from .paytable import Paytable
from .rules import CanberraRules, Limits

# Hand statuses. PLAYING hands take decisions; STOOD hands wait for the dealer; the rest are
# decided already (PONTOON may still wait for the dealer when the rules do not pay it at once).
PLAYING, STOOD, WON21, PONTOON, BUST, FORFEIT, SURRENDERED = (
    "playing", "stood", "twenty-one", "pontoon", "bust", "forfeit", "surrendered")
DEAL, PLAY, DEALER, COMPLETE = "deal", "play", "dealer", "complete"


_LABELS = [[f"seat {seat} hand {index}" for index in range(16)] for seat in range(10)]


class Hand:
    """One hand of a seat: its cards, stakes and where it stands. Mutable; the round owns it."""

    __slots__ = ("index", "wager", "cards", "double", "split_aces", "status", "owed", "decided",
                 "double_base", "after_double", "hard", "aces", "label", "outcome")

    def __init__(self, index: int, wager: int, split_aces: bool = False, seat: int = 0) -> None:
        self.index = index
        # Where its cards go, in records: made once per process for the seats and hands a table can have.
        self.label = _LABELS[seat][index] if seat < 10 and index < 16 else f"seat {seat} hand {index}"
        self.outcome: str | None = None          # set at settlement
        self.wager = wager
        self.cards: list[str] = []
        self.double = 0
        self.split_aces = split_aces
        self.status = PLAYING
        self.owed = 0                          # cards this hand is owed right now
        self.decided = False                   # a playing decision was taken on it
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

    __slots__ = ("number", "wager", "pair_bet", "insurance", "hands", "first_two", "staked", "returned")

    def __init__(self, number: int, wager: int, pair_bet: int = 0) -> None:
        self.number = number
        self.wager = wager
        self.pair_bet = pair_bet
        self.insurance = 0
        self.hands = [Hand(0, wager, False, number)]
        self.first_two: tuple[str, ...] = ()
        self.staked = 0                        # totals of its bet lines, set at settlement
        self.returned = 0

    @property
    def split(self) -> bool:
        return len(self.hands) > 1


class BetLine(namedtuple("BetLine", "seat hand kind stake returned outcome")):
    """One bet's stake and return at settlement: the unit the ledger records. `hand` is None for
    a seat's own bet; `kind` is main, split, double, insurance, pair, super_bonus or envy."""

    __slots__ = ()


new_bet_line = partial(tuple.__new__, BetLine)   # from a tuple of the fields: cheaper, as in actions.py
_SEAT_FIELDS = frozenset({"seat", "wager", "pair_bet"})   # what a seat's entry may hold
LIMITED_BETS = frozenset({"main", "pair_bet"})            # the bets a table may set its own limits for


class CanberraRound(RoundCore):
    """A round of house-banked Pontoon; cards come in through deal_card, decisions through act."""

    def __init__(self, rules: CanberraRules, paytable: Paytable, wagers: list[dict],
                 limits: dict[str, Limits] | None = None) -> None:
        self.rules = rules
        self.paytable = paytable
        self.main_limits = limits.get("main", rules.main_limits) if limits else rules.main_limits
        self.pair_limits = limits.get("pair_bet", rules.pair_limits) if limits else rules.pair_limits
        self.seats: list[Seat] = self._seats_from(wagers)
        self.dealer: list[str] = []
        self.phase = DEAL
        self.log: list[CardDealt | DecisionTaken] = []
        self.any_playing_decision = False
        first_hands = [seat.hands[0] for seat in self.seats]
        self._deal_targets: list[Hand | None] = [*first_hands, None, *first_hands]  # None: the dealer's upcard
        self._deal_pos = 0
        self._seat_pos = 0
        self._hand_pos = 0
        self._hand: Hand | None = None          # the hand play has reached
        self._dealer_has_waiting = False
        self.bets: list[BetLine] | None = None
        self._dealer_final: tuple[int, bool] = (0, False)   # the dealer's total and Pontoon, once settled
        # "card", "decision", or None once complete; kept current by every change so that the
        # state always says what it waits for.
        self.awaiting: str | None = "card"

    # ----- set-up -------------------------------------------------------------------------
    def _seats_from(self, wagers: list[dict]) -> list[Seat]:
        if not wagers:
            raise RuleViolation("a round needs at least one seat with a wager")
        seats: dict[int, Seat] = {}
        max_seats = self.rules.max_seats
        low, high = self.main_limits.minimum, self.main_limits.maximum
        pair_low, pair_high = self.pair_limits.minimum, self.pair_limits.maximum
        pays_pairs = self.paytable.pair is not None
        # `type(x) is int` on purpose: it refuses booleans, which isinstance would let through.
        in_order, last = True, 0
        for entry in wagers:
            number, wager, pair = entry.get("seat"), entry.get("wager"), entry.get("pair_bet", 0)
            if (type(number) is not int or not 1 <= number <= max_seats or number in seats
                    or type(wager) is not int or not low <= wager <= high
                    or len(entry) != 2 + ("pair_bet" in entry)   # with seat and wager there, no field but pair_bet
                    or (type(pair) is not int or pair)   # 0 is no pair bet; null or false is no number
                    and not (pays_pairs and type(pair) is int and pair_low <= pair <= pair_high)):
                self._refuse_wager(entry, number, wager, pair, seats)
            seats[number] = Seat(number, wager, pair)
            in_order, last = in_order and number > last, number
        # In seat order, as the cards are dealt (a transcript mostly lists them so already).
        return list(seats.values()) if in_order else [seats[n] for n in sorted(seats)]

    def _refuse_wager(self, entry: dict, number: object, wager: object, pair: object,
                      seats: dict[int, Seat]) -> None:
        """Raise the reason a seat's wagers cannot open the round (the first check that fails)."""
        if type(number) is not int or not 1 <= number <= self.rules.max_seats:
            raise RuleViolation(f"seat {number!r} does not exist: seats are 1 to {self.rules.max_seats}")
        if number in seats:
            raise RuleViolation(f"seat {number} has two wagers")
        if not entry.keys() <= _SEAT_FIELDS:
            raise RuleViolation(f"seat {number}: unknown fields {sorted(entry.keys() - _SEAT_FIELDS)}")
        if type(wager) is not int or not self.main_limits.contains(wager):
            raise RuleViolation(f"seat {number}: wager {wager!r} is outside the table limits "
                                f"{self.main_limits.minimum} to {self.main_limits.maximum}")
        if type(pair) is not int:
            raise RuleViolation(f"seat {number}: pair bet must be a whole number of cents, not {pair!r}")
        if self.paytable.pair is None:
            raise RuleViolation(f"seat {number}: this paytable has no pair bet")
        raise RuleViolation(f"seat {number}: pair bet {pair!r} is outside its limits "
                            f"{self.pair_limits.minimum} to {self.pair_limits.maximum}")

    # ----- where the round stands ---------------------------------------------------------
    @property
    def cards_out(self) -> list[str]:
        """Every card dealt in this round, in order (read from the log)."""
        return [record.card for record in self.log if type(record) is CardDealt]

    @property
    def complete(self) -> bool:
        return self.phase == COMPLETE

    @property
    def upcard_rank(self) -> str | None:
        return RANK_OF[self.dealer[0]] if self.dealer else None

    def card_recipient(self) -> str | None:
        """Who the next card goes to, as "dealer" or "seat S hand H"; None when no card is owed."""
        if self.phase == DEAL:
            target = self._deal_targets[self._deal_pos]
            return "dealer" if target is None else target.label
        if self.phase == PLAY:
            hand = self._current_hand()
            return f"seat {self.seats[self._seat_pos].number} hand {hand.index}" if hand.owed else None
        if self.phase == DEALER:
            return "dealer"
        return None

    def in_turn(self) -> tuple[int, int] | None:
        """(seat, hand) whose decision is awaited."""
        if self.phase != PLAY or self._current_hand().owed:
            return None
        return self.seats[self._seat_pos].number, self._hand_pos

    def _current_hand(self) -> Hand:
        return self._hand

    def _seat(self, number: int) -> Seat:
        for seat in self.seats:
            if seat.number == number:
                return seat
        raise RuleViolation(f"seat {number} is not dealt in this round", self.legal_actions)

    def hand_total(self, hand: Hand) -> tuple[int, bool]:
        return hand.total(self.rules.double_aces_count_one)

    # ----- cards --------------------------------------------------------------------------
    def deal_card(self, card: str) -> CardDealt:
        """Give the next card out of the shoe to whoever the rules say is owed one."""
        if card not in CARD_POINTS:
            parse_card(card)  # raises CardError with the reason
        if self.phase == DEAL:
            position = self._deal_pos
            hand = self._deal_targets[position]
            self._deal_pos = position = position + 1
            if hand is None:
                self.dealer.append(card)
                record = new_card_dealt((card, "dealer"))
            else:
                hand.add(card)
                record = new_card_dealt((card, hand.label))
            if position < len(self._deal_targets):
                self.log.append(record)
                return record
            self._finish_deal()
        elif self.phase == PLAY and self._hand.owed:
            hand = self._hand
            hand.add(card)
            hand.owed -= 1
            record = new_card_dealt((card, hand.label))
            if not hand.owed:
                self._after_hand_card(hand)
        elif self.phase == DEALER:
            self.dealer.append(card)
            record = new_card_dealt((card, "dealer"))
        else:
            raise NotAwaitingCard("no card is owed now: the round awaits "
                                  + ("a decision" if self.phase == PLAY else "nothing, it is complete"),
                                  self.legal_actions)
        self.log.append(record)
        self._advance()
        return record

    def _finish_deal(self) -> None:
        is_pontoon_pair, twenty_one = self.rules.is_pontoon_pair, WON21 if self.rules.twenty_one_wins_at_once else STOOD
        for seat in self.seats:
            hand = seat.hands[0]
            first, second = hand.cards
            seat.first_two = (first, second)
            if is_pontoon_pair(RANK_OF[first], RANK_OF[second]):
                hand.status = PONTOON
            elif hand.aces and hand.hard == 11:   # two cards make 21 only as an ace and a ten-valued card
                hand.status = twenty_one
        self.phase = PLAY
        self._seat_pos, self._hand_pos = 0, 0
        self._enter_hand()

    def _after_hand_card(self, hand: Hand) -> None:
        """A hand has the cards it was owed: settle what that decides (bust, 21, split aces)."""
        if hand.double_base is not None:
            total, _ = self.hand_total(hand)
            if total > 21:
                hand.status = BUST
            elif total == 21 and self.rules.twenty_one_wins_at_once:
                hand.status = WON21
            elif self.rules.forfeit_after_double:
                hand.after_double = True
            else:
                hand.status = STOOD
            return
        total = hand.hard + 10 if hand.aces and hand.hard <= 11 else hand.hard
        if total > 21:
            hand.status = BUST
        elif total == 21:
            if len(hand.cards) == 2 and self.seats[self._seat_pos].split and self.rules.split_hand_pontoon and \
                    self.rules.is_pontoon_pair(*(parse_card(c)[0] for c in hand.cards)):
                hand.status = PONTOON
            else:
                hand.status = WON21 if self.rules.twenty_one_wins_at_once else STOOD
        elif hand.split_aces and self.rules.split_aces_one_card and len(hand.cards) == 2:
            hand.status = STOOD

    def _enter_hand(self) -> Hand | None:
        """The hand play has reached (None past the last seat): a split hand holding one card is
        owed its second now."""
        if self._seat_pos >= len(self.seats):
            self._hand = None
            return None
        hand = self._hand = self.seats[self._seat_pos].hands[self._hand_pos]
        if hand.status == PLAYING and len(hand.cards) == 1:
            hand.owed = 1
        return hand

    def _advance(self) -> None:
        if self.phase == PLAY:
            hand = self._hand
            while hand is not None:
                if hand.owed:
                    self.awaiting = "card"
                    return
                if hand.status == PLAYING:
                    self.awaiting = "decision"
                    return
                if self._hand_pos + 1 < len(self.seats[self._seat_pos].hands):
                    self._hand_pos += 1
                else:
                    self._seat_pos, self._hand_pos = self._seat_pos + 1, 0
                hand = self._enter_hand()
            self.phase = DEALER
            self._dealer_has_waiting = False
            for seat in self.seats:
                for h in seat.hands:
                    if h.status == STOOD:
                        self._dealer_has_waiting = True
        if self.phase == DEALER:
            if self._dealer_owed_card():
                self.awaiting = "card"
            else:
                self.phase = COMPLETE
                self.awaiting = None
                self.bets = self._settle()

    def _dealer_owed_card(self) -> bool:
        dealer, rules = self.dealer, self.rules
        if len(dealer) < 2:
            return True
        if len(dealer) == 2 and rules.is_pontoon_pair(RANK_OF[dealer[0]], RANK_OF[dealer[1]]):
            return False
        if not self._dealer_has_waiting and not rules.dealer_draws_when_no_hand_waiting:
            return False
        total, soft = best_total(dealer)
        stands_on = rules.dealer_stands_on
        return total < stands_on or (total == stands_on and soft and rules.dealer_hits_soft_17)

    @property
    def dealer_pontoon(self) -> bool:
        if len(self.dealer) != 2:
            return False
        return self.rules.is_pontoon_pair(RANK_OF[self.dealer[0]], RANK_OF[self.dealer[1]])

    # ----- decisions ----------------------------------------------------------------------
    def _verify_turn(self, seat: int, hand: int | None, action: str) -> Hand:
        if self.phase != PLAY:
            raise RuleViolation(f"{action} is not allowed: the round is "
                                + ("still being dealt" if self.phase == DEAL else "past the players' turns"),
                                self.legal_actions)
        current = self._hand
        if current.owed:
            raise RuleViolation(f"{action} is not allowed: a card is owed to seat "
                                f"{self.seats[self._seat_pos].number} hand {current.index} first",
                                self.legal_actions)
        number = self.seats[self._seat_pos].number
        if seat != number or (hand if hand is not None else 0) != self._hand_pos:
            raise RuleViolation(f"{action} by seat {seat} hand {hand if hand is not None else 0} is out of turn: "
                                f"seat {number} hand {self._hand_pos} is in turn", self.legal_actions)
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
        return self._decided(h, seat, "hit")

    def verify_stand(self, seat: int, hand: int | None = None) -> Hand:
        h = self._verify_turn(seat, hand, "stand")
        if h.after_double and self.rules.forfeit_after_double:
            return h
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
        return self._decided(h, seat, "stand")

    def double_range(self, h: Hand) -> tuple[int, int]:
        low = {"table_minimum": self.main_limits.minimum, "wager": h.wager, "one_cent": 1}[self.rules.double_minimum]
        return min(low, h.wager), h.wager

    def verify_double(self, seat: int, hand: int | None = None, amount: int | None = None) -> Hand:
        h = self._verify_turn(seat, hand, "double")
        if h.double or h.after_double:
            self._refuse("double is not allowed: the hand is already doubled")
        if h.split_aces and not self.rules.double_on_split_aces:
            self._refuse("double is not allowed on split aces")
        if self._seat(seat).split and not self.rules.double_after_split:
            self._refuse("double is not allowed after a split")
        if self.rules.double_max_cards is not None and len(h.cards) > self.rules.double_max_cards:
            self._refuse(f"double is not allowed on more than {self.rules.double_max_cards} cards")
        total, _ = h.total(self.rules.double_aces_count_one)
        if total >= 21:
            self._refuse(f"double is not allowed on a total of {total}")
        if amount is not None:
            low, high = self.double_range(h)
            if not isinstance(amount, int) or isinstance(amount, bool) or not low <= amount <= high:
                self._refuse(f"double amount {amount!r} is outside {low} to {high}")
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
        return self._decided(h, seat, "double", amount)

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
        return self._decided(h, seat, "forfeit")

    def verify_split(self, seat: int, hand: int | None = None) -> Hand:
        h = self._verify_turn(seat, hand, "split")
        if len(h.cards) != 2 or h.double or h.after_double:
            self._refuse("split is allowed only on a hand's first two cards")
        (r1, _), (r2, _) = parse_card(h.cards[0]), parse_card(h.cards[1])
        if r1 != r2 and (self.rules.split_same_rank_only or hard_total([h.cards[0]]) != hard_total([h.cards[1]])):
            self._refuse(f"split is not allowed: {h.cards[0]} and {h.cards[1]} are not a pair")
        if r1 == "A" and h.split_aces and not self.rules.split_aces_resplit:
            self._refuse("split is not allowed: aces may be split once")
        if len(self._seat(seat).hands) >= self.rules.split_max_hands:
            self._refuse(f"split is not allowed: a seat may hold at most {self.rules.split_max_hands} hands")
        return h

    def can_split(self, seat: int, hand: int | None = None) -> bool:
        return self._can(self.verify_split, seat, hand)

    def split(self, seat: int, hand: int | None = None) -> DecisionTaken:
        h = self.verify_split(seat, hand)
        s = self._seat(seat)
        aces = parse_card(h.cards[0])[0] == "A"
        new = Hand(len(s.hands), s.wager, split_aces=aces, seat=s.number)
        new.add(h.remove_last())
        s.hands.append(new)
        h.split_aces = aces
        h.owed = 1
        return self._decided(h, seat, "split")

    def verify_surrender(self, seat: int, hand: int | None = None) -> Hand:
        h = self._verify_turn(seat, hand, "surrender")
        if self.upcard_rank not in self.rules.surrender_upcards:
            self._refuse(f"surrender is not allowed against an upcard of {self.dealer[0]}")
        if self._seat(seat).split or h.decided or len(h.cards) != 2:
            self._refuse("surrender is allowed only as the first decision on the first two cards of an unsplit hand")
        return h

    def can_surrender(self, seat: int, hand: int | None = None) -> bool:
        return self._can(self.verify_surrender, seat, hand)

    def surrender(self, seat: int, hand: int | None = None) -> DecisionTaken:
        h = self.verify_surrender(seat, hand)
        h.status = SURRENDERED
        return self._decided(h, seat, "surrender")

    def insurance_range(self, seat: Seat) -> tuple[int, int]:
        return self.rules.insurance_minimum, self.rules.insurance_max_fraction.winnings(seat.wager, "down")

    def verify_insurance(self, seat: int, hand: int | None = None, amount: int | None = None) -> Seat:
        if hand is not None:
            self._refuse(f"insurance is the seat's, not a hand's: name no hand (hand {hand!r} given)")
        if self.phase != PLAY:
            self._refuse("insurance is offered only after the deal and before the dealer plays")
        if self.upcard_rank not in self.rules.insurance_upcards:
            self._refuse(f"insurance is not offered against an upcard of {self.dealer[0]}")
        if self.any_playing_decision:
            self._refuse("insurance is offered only before the first playing decision")
        s = self._seat(seat)
        if s.insurance:
            self._refuse(f"seat {seat} is already insured")
        if s.hands[0].status == PONTOON:
            self._refuse(f"seat {seat} holds Pontoon, already paid: no insurance")
        low, high = self.insurance_range(s)
        if high < low:
            self._refuse(f"seat {seat}'s wager is too small to insure")
        if amount is not None and (not isinstance(amount, int) or isinstance(amount, bool) or not low <= amount <= high):
            self._refuse(f"insurance amount {amount!r} is outside {low} to {high}")
        return s

    def can_insurance(self, seat: int, hand: int | None = None, amount: int | None = None) -> bool:
        return self._can(self.verify_insurance, seat, hand, amount)

    def insurance(self, seat: int, hand: int | None = None, amount: int | None = None) -> DecisionTaken:
        if amount is None:
            self._refuse("insurance needs an amount")
        s = self.verify_insurance(seat, hand, amount)
        s.insurance = amount
        return self._record(seat, None, "insurance", amount, advance=False)

    def _decided(self, h: Hand, seat: int, action: str, amount: int | None = None) -> DecisionTaken:
        """Log a playing decision just applied to `h` and move the round on."""
        h.decided = True
        self.any_playing_decision = True
        record = new_decision_taken((seat, h.index, action, amount))
        self.log.append(record)
        self._advance()
        return record

    DECISIONS = ("hit", "stand", "double", "forfeit", "split", "surrender", "insurance")
    TAKES_AMOUNT = frozenset({"double", "insurance"})

    def legal_actions(self) -> list[LegalAction]:
        """Every decision allowed now, with amount ranges: the hand in turn's, then insurance."""
        legal: list[LegalAction] = []
        turn = self.in_turn()
        if turn is not None:
            seat, hand = turn
            h = self._current_hand()
            for name in ("hit", "stand", "split", "surrender", "forfeit"):
                if self._can(getattr(self, "verify_" + name), seat, hand):
                    legal.append(LegalAction(seat, name, hand))
            if self._can(self.verify_double, seat, hand, None):
                low, high = self.double_range(h)
                legal.append(LegalAction(seat, "double", hand, low, high))
            if self.upcard_rank in self.rules.insurance_upcards and not self.any_playing_decision:
                for s in self.seats:
                    if self._can(self.verify_insurance, s.number, None, None):
                        low, high = self.insurance_range(s)
                        legal.append(LegalAction(s.number, "insurance", None, low, high))
        return legal

    # ----- settlement ---------------------------------------------------------------------
    def _settle(self) -> list[BetLine]:
        rules, pay = self.rules, self.paytable
        rounding = rules.rounding
        upcard = self.upcard_rank
        dealer_total, _ = best_total(self.dealer)
        dealer_pontoon = self.dealer_pontoon
        self._dealer_final = dealer_total, dealer_pontoon   # the dealer's hand is over: the result reads it
        dealer_bust = dealer_total > 21
        second_ten = len(self.dealer) > 1 and RANK_OF[self.dealer[1]] in TEN_VALUED
        lines: list[BetLine] = []
        add = lines.append
        super_winners: set[int] = set()
        for seat in self.seats:
            number = seat.number
            # The seat's totals as its lines are made (they are the sums of its lines' stakes and returns).
            staked = returned = 0
            if seat.pair_bet:
                won = RANK_OF[seat.first_two[0]] == RANK_OF[seat.first_two[1]]
                back = seat.pair_bet + pay.pair.winnings(seat.pair_bet, rounding) if won else 0
                add(new_bet_line((number, None, "pair", seat.pair_bet, back, "pair" if won else "no-pair")))
                staked += seat.pair_bet
                returned += back
            if seat.insurance:
                won = second_ten
                back = seat.insurance + rules.insurance_pays.winnings(seat.insurance, rounding) if won else 0
                add(new_bet_line((number, None, "insurance", seat.insurance, back,
                                  "insurance-won" if won else "insurance-lost")))
                staked += seat.insurance
                returned += back
            one_wager_taken = False
            for hand in seat.hands:
                index = hand.index
                main, double, outcome = self._settle_hand(
                    seat, hand, upcard, dealer_total, dealer_pontoon, dealer_bust, rounding, super_winners)
                if outcome == "dealer-pontoon":
                    if rules.dealer_pontoon_takes == "all_stakes":
                        main, double = 0, 0
                    elif not one_wager_taken:
                        one_wager_taken = True
                        main, double = 0, hand.double
                    else:
                        main, double = hand.wager, hand.double
                hand.outcome = outcome
                add(new_bet_line((number, index, "split" if index else "main", hand.wager, main, outcome)))
                staked += hand.wager
                returned += main
                if hand.double:
                    add(new_bet_line((number, index, "double", hand.double, double, outcome)))
                    staked += hand.double
                    returned += double
                if outcome == "super-bonus":
                    prize = pay.super_bonus.prize_for(hand.wager)
                    add(new_bet_line((number, index, "super_bonus", 0, prize, "super-bonus")))
                    returned += prize
            seat.staked, seat.returned = staked, returned
        if super_winners and pay.super_bonus.envy:
            for seat in self.seats:
                if super_winners - {seat.number}:
                    add(new_bet_line((seat.number, None, "envy", 0, pay.super_bonus.envy, "envy")))
                    seat.returned += pay.super_bonus.envy
        return lines

    def _settle_hand(self, seat: Seat, hand: Hand, upcard: str, dealer_total: int, dealer_pontoon: bool,
                     dealer_bust: bool, rounding: str, super_winners: set[int]) -> tuple[int, int, str]:
        """(returned on the hand's wager, returned on its double, outcome)."""
        pay, rules = self.paytable, self.rules
        w, d, status = hand.wager, hand.double, hand.status
        if status == STOOD:   # waits for the dealer: the commonest, so tried first
            if dealer_pontoon:
                return 0, 0, "dealer-pontoon"
            total, _ = hand.total(rules.double_aces_count_one)
            if dealer_bust or total > dealer_total:
                if d:
                    odds = pay.doubled_win
                    return w + odds.winnings(w, rounding), d + odds.winnings(d, rounding), \
                        "dealer-bust" if dealer_bust else "win"
                return w + pay.win.winnings(w, rounding), 0, "dealer-bust" if dealer_bust else "win"
            if total == dealer_total:
                return w, d, "push"
            return 0, 0, "lose"
        if status == BUST:
            return 0, 0, "bust"
        if status == PONTOON:
            if dealer_pontoon and not rules.player_pontoon_paid_at_once:
                return w, d, "push"
            return w + pay.pontoon.winnings(w, rounding), d, "pontoon"
        if status == FORFEIT:
            return 0, d, "forfeit"
        if status == SURRENDERED:
            if dealer_pontoon and rules.surrender_lost_to_dealer_pontoon:
                return 0, 0, "surrender-dealer-pontoon"
            return rules.surrender_returns.winnings(w, rounding), 0, "surrender"
        if status == WON21:
            return self._pay_twenty_one(seat, hand, upcard, rounding, super_winners)
        raise AssertionError(f"seat {seat.number} hand {hand.index} is still {status} at settlement")

    def _pay_twenty_one(self, seat: Seat, hand: Hand, upcard: str, rounding: str,
                        super_winners: set[int]) -> tuple[int, int, str]:
        pay = self.paytable
        w, d = hand.wager, hand.double
        if d:
            return w + pay.doubled_win.winnings(w, rounding), d + pay.doubled_win.winnings(d, rounding), "twenty-one"
        ranks = [RANK_OF[c] for c in hand.cards]
        suits = [SUIT_OF[c] for c in hand.cards]
        if pay.super_bonus is not None and not seat.split and pay.super_bonus.matches(ranks, suits, upcard):
            super_winners.add(seat.number)
            return w, 0, "super-bonus"
        line = pay.best_bonus(ranks, suits)
        if line is not None and line.odds.pays_more_than(pay.win):
            return w + line.odds.winnings(w, rounding), 0, line.name
        return w + pay.win.winnings(w, rounding), 0, "twenty-one"

    # ----- results ------------------------------------------------------------------------
    def result(self) -> dict:
        """The round's money as the transcript format's output (complete rounds only)."""
        if self.bets is None:
            raise RuleViolation("the round is not complete", self.legal_actions)
        dealer_total, dealer_pontoon = self._dealer_final
        aces_one = self.rules.double_aces_count_one
        seats = []
        # Plain loops: this runs once per replayed round, and a comprehension is a function call.
        for seat in self.seats:
            hands = []
            for h in seat.hands:
                hands.append({"hand": h.index, "cards": h.cards.copy(), "stake": h.wager + h.double,
                              "total": h.total(aces_one)[0], "outcome": h.outcome})
            seats.append({"seat": seat.number, "staked": seat.staked, "returned": seat.returned,
                          "net": seat.returned - seat.staked, "hands": hands})
        return {"dealer": {"cards": self.dealer.copy(), "total": dealer_total, "pontoon": dealer_pontoon,
                           "bust": dealer_total > 21},
                "seats": seats}

    def snapshot(self) -> dict:
        """Everything a terminal needs to see: phase, what is awaited, legal decisions, every hand."""
        turn = self.in_turn()
        dealer_total, dealer_soft = best_total(self.dealer) if self.dealer else (0, False)
        return {
            "phase": self.phase,
            "awaiting": self.awaiting,
            "card_to": self.card_recipient(),
            "in_turn": {"seat": turn[0], "hand": turn[1]} if turn else None,
            "legal_actions": [a.as_dict() for a in self.legal_actions()],
            "dealer": {"cards": list(self.dealer), "total": dealer_total, "soft": dealer_soft,
                       "pontoon": self.dealer_pontoon},
            "seats": [{
                "seat": s.number, "wager": s.wager, "pair_bet": s.pair_bet, "insurance": s.insurance,
                "hands": [{"hand": h.index, "cards": list(h.cards), "wager": h.wager, "double": h.double,
                           "stake": h.stake, "total": self.hand_total(h)[0] if h.cards else 0,
                           "status": h.status} for h in s.hands],
            } for s in self.seats],
        }

    def transcript(self, rules_ref: str | None = None, paytable_ref: str | None = None) -> dict:
        """The round so far in the transcript format; a complete round replays to the same money."""
        out = {
            "rules": rules_ref or self.rules.name,
            "paytable": paytable_ref or self.paytable.name,
            "seats": self.seat_entries(),
            "cards": list(self.cards_out),
            "actions": [action_dict(a) for a in self.actions],
        }
        if self.main_limits != self.rules.main_limits or self.pair_limits != self.rules.pair_limits:
            out["limits"] = {kind: {"min": lim.minimum, "max": lim.maximum}
                             for kind, lim in (("main", self.main_limits), ("pair_bet", self.pair_limits))}
        return out

    def seat_entries(self) -> list[dict]:
        """The wagers the round opened with, in the transcript's `seats` form."""
        out = []
        for seat in self.seats:
            entry = {"seat": seat.number, "wager": seat.wager}
            if seat.pair_bet:
                entry["pair_bet"] = seat.pair_bet
            out.append(entry)
        return out


