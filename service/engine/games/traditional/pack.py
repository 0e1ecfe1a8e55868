"""The pack across rounds of the player-banked game: reshuffled after a Pontoon, else used cards to the bottom."""
from __future__ import annotations

from collections import Counter
from typing import Any

from ...cards import CardError, parse_card
from ...shoe import RandomSource, ShoeError, ShoeSpec, shuffled
from .round import TraditionalRound


class TraditionalPack:
    """A virtual pack dealt from the top; the order is plain data so a stateless service can store it.

    Cards a round has out are not in the pack; they come back through `collect` (busts and
    burns, as they happen) and `finish_round` (the rest, or a reshuffle of the whole pack).
    """

    def __init__(self, spec: ShoeSpec, order: list[str]) -> None:
        self.spec = spec
        self._check(order)
        self.order = list(order)          # top of the pack first
        self._collected = 0               # how many of the current round's returned cards are back

    @classmethod
    def shuffled(cls, spec: ShoeSpec, rng: RandomSource) -> TraditionalPack:
        return cls(spec, shuffled(spec.ordered_cards(), rng))

    def _check(self, order: list[str]) -> None:
        if not isinstance(order, list):
            raise ShoeError("a pack's order must be a list of cards")
        allowed = self.spec.composition()
        counted: Counter[str] = Counter()
        for card in order:
            try:
                rank, suit = parse_card(card)
            except CardError as exc:
                raise ShoeError(str(exc)) from None
            counted[rank + suit] += 1
            if counted[rank + suit] > allowed[rank + suit]:
                raise ShoeError(f"{card} appears more often than {self.spec.decks} pack(s) hold")

    @property
    def remaining(self) -> int:
        return len(self.order)

    def deal(self) -> str:
        if not self.order:
            raise ShoeError("the pack is empty: every card is on the table")
        return self.order.pop(0)

    def put_to_bottom(self, cards: list[str]) -> None:
        self._check(self.order + list(cards))
        self.order.extend(cards)

    def collect(self, round_: TraditionalRound) -> None:
        """Put under the pack the cards the round has sent back since the last call (busts, burns)."""
        fresh = round_.returned[self._collected:]
        self._collected += len(fresh)
        self.put_to_bottom(fresh)

    def feed(self, round_: TraditionalRound) -> list[str]:
        """Deal every card the round is owed now, returning busted and burned cards as they go."""
        dealt = []
        self.collect(round_)  # a burn sends its cards under before its new ones are dealt
        while round_.awaiting == "card":
            card = self.deal()
            round_.deal_card(card)
            dealt.append(card)
            self.collect(round_)
        return dealt

    def finish_round(self, round_: TraditionalRound, rng: RandomSource) -> bool:
        """Take the round's cards back after it completes; True when the pack was reshuffled."""
        if not round_.complete:
            raise ShoeError("the round is not complete: its cards are still in play")
        self.collect(round_)
        self._collected = 0
        if round_.reshuffle:
            self.order = shuffled(self.order, rng)
            return True
        return False

    def to_state(self) -> dict[str, Any]:
        return {"decks": self.spec.decks, "order": list(self.order)}

    @classmethod
    def from_state(cls, state: object) -> TraditionalPack:
        """A pack restored between rounds from `to_state()`; refuses a pack that is not whole."""
        if not isinstance(state, dict):
            raise ShoeError("a stored pack must be an object {decks, order}")
        # Stored JSON, untyped: ShoeSpec checks the decks and the pack checks the order.
        decks: Any = state.get("decks")
        order: Any = state.get("order")
        try:
            spec = ShoeSpec(decks)
        except ValueError as exc:
            raise ShoeError(str(exc)) from None
        pack = cls(spec, order)
        if len(pack.order) != spec.size:
            raise ShoeError(f"a stored pack between rounds holds all {spec.size} cards, not {len(pack.order)}")
        return pack


class PhysicalPack:
    """A real pack whose cards the terminal reports as dealt. Since its last shuffle it is a queue
    as the virtual pack is: its cards in an order nobody knows, then the used cards in the order
    they went under it. So until every card of the pack has been dealt once, a card already out
    since the shuffle cannot come again; after that, each card must be the next one that went under.

    `dealt` is every card dealt since the shuffle, in order (the round's so far included);
    `returned` every card gone to the bottom since, in order."""

    def __init__(self, spec: ShoeSpec, dealt: list[str], returned: list[str]) -> None:
        self.spec = spec
        self.dealt = list(dealt)
        self.returned = list(returned)

    def verify_accept(self, card: str) -> str:
        try:
            rank, suit = parse_card(card)
        except CardError as exc:
            raise ShoeError(str(exc)) from None
        key = rank + suit
        position = len(self.dealt)
        if position < self.spec.size:   # still the cards of the shuffle, in an order nobody knows
            out = sum(1 for dealt in self.dealt if _key(dealt) == key)
            if out >= self.spec.decks:
                copies = "it has" if self.spec.decks == 1 else f"all {self.spec.decks} copies have"
                raise ShoeError(f"{card} cannot come from this pack: {copies} been dealt since it was last "
                                f"shuffled, and the {self.spec.size - position} card(s) not dealt since lie above "
                                "the used ones")
            return card
        under = position - self.spec.size
        if under >= len(self.returned):
            raise ShoeError("every card of the pack is on the table: none can be dealt")
        expected = self.returned[under]
        if _key(expected) != key:
            raise ShoeError(f"{card} cannot come from this pack now: every card has been dealt since the shuffle, "
                            f"and the next is {expected}, the next that went under the pack")
        return card

    def accept(self, card: str) -> str:
        """Take a card off the pack; ShoeError if the pack cannot give it now."""
        self.verify_accept(card)
        self.dealt.append(card)
        return card


def _key(card: str) -> str:
    rank, suit = parse_card(card)
    return rank + suit
