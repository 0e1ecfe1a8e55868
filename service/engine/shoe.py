"""Shoes: a virtual shoe shuffled by a secure generator with a SHA-256 commitment, and a
physical shoe fed card by card that refuses cards it cannot hold."""
from __future__ import annotations

import hashlib
import hmac
import secrets
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from operator import eq
from typing import Protocol

from .cards import CANONICAL, RANKS, SUITS, CardError, parse_card
from .rule_errors import RuleFieldError


class RandomSource(Protocol):
    """Where a shuffle's randomness comes from: the CSPRNG in production, a seeded one in tests."""

    def randbelow(self, n: int) -> int: ...


@dataclass(frozen=True, slots=True)
class ShoeSpec:
    """What a shoe holds: how many packs, which ranks are taken out, and where the cut card goes."""

    decks: int
    ranks_removed: tuple[str, ...] = ()
    penetration: float = 0.75
    # Derived once from the ranks: the cards (each in its one spelling) a shoe of this kind holds.
    card_set: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.decks, int) or not 1 <= self.decks <= 16:
            raise RuleFieldError("decks", "must be a whole number from 1 to 16")
        unknown = [r for r in self.ranks_removed if r not in RANKS]
        if unknown:
            raise RuleFieldError("ranks_removed", f"names unknown ranks {unknown}; ranks are {' '.join(RANKS)}")
        if not 0.1 <= self.penetration <= 1.0:
            raise RuleFieldError("penetration",
                                 "must be between 0.1 and 1.0 (fraction of the shoe dealt before the cut card)")
        # A derived table, not a field given: set as a frozen dataclass's own __init__ sets fields.
        object.__setattr__(self, "card_set", frozenset(rank + suit for rank in self.ranks for suit in SUITS))

    @property
    def ranks(self) -> tuple[str, ...]:
        return tuple(r for r in RANKS if r not in self.ranks_removed)

    def composition(self) -> Counter[str]:
        return Counter(_composition(self))

    def ordered_cards(self) -> list[str]:
        return [r + s for _ in range(self.decks) for s in SUITS for r in self.ranks]

    @property
    def size(self) -> int:
        return len(self.ranks) * len(SUITS) * self.decks


@lru_cache(maxsize=32)
def _composition(spec: ShoeSpec) -> dict[str, int]:
    return {r + s: spec.decks for r in spec.ranks for s in SUITS}


def fits_in_shoe(spec: ShoeSpec, cards: list[str]) -> bool:
    """Whether a full shoe of this description holds all these cards together."""
    held = spec.card_set
    if held.issuperset(cards):   # as transcripts mostly write them: each card in its one spelling
        keys = sorted(cards)
    else:
        spelt = [CANONICAL.get(card) for card in cards]
        if not held.issuperset(spelt):  # a token that is no card (None), or a removed rank
            return False
        keys = sorted(card for card in spelt if card is not None)
    # Sorted, a card held more often than the shoe's decks meets its own copy `decks` places on.
    return not any(map(eq, keys, keys[spec.decks:]))


class ShoeError(ValueError):
    """A card the shoe cannot give or cannot hold."""


class SecureRandom:
    """The production source: the operating system's CSPRNG via `secrets`."""

    def randbelow(self, n: int) -> int:
        return secrets.randbelow(n)


def shuffled(cards: list[str], rng: RandomSource) -> list[str]:
    """A Fisher-Yates shuffle of a copy of `cards` drawn from `rng` (never the global random)."""
    order = list(cards)
    for i in range(len(order) - 1, 0, -1):
        j = rng.randbelow(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def commitment_of(order: list[str], salt: str) -> str:
    """SHA-256 over the salt and the order, published before the first card is dealt."""
    return hashlib.sha256((salt + ":" + ",".join(order)).encode("ascii")).hexdigest()


class VirtualShoe:
    """A shoe shuffled once (Fisher-Yates over a secure source), dealt from the top."""

    def __init__(self, spec: ShoeSpec, rng: RandomSource | None = None, *, order: list[str] | None = None,
                 salt: str | None = None, position: int = 0) -> None:
        self.spec = spec
        if order is None:
            order = shuffled(spec.ordered_cards(), rng or SecureRandom())
            salt = salt or secrets.token_hex(16)
        elif salt is None:
            raise ShoeError("a restored shoe needs its salt")
        self._order = list(order)
        self.salt = salt
        self.position = position

    @cached_property
    def commitment(self) -> str:
        """What was published when the shoe opened; a restored shoe (every request after the
        first) rarely needs it, so it is hashed only when asked for."""
        return commitment_of(self._order, self.salt)

    @property
    def remaining(self) -> int:
        return len(self._order) - self.position

    @property
    def past_cut_card(self) -> bool:
        return self.position >= int(len(self._order) * self.spec.penetration)

    def deal(self) -> str:
        if self.position >= len(self._order):
            raise ShoeError("the shoe is empty")
        card = self._order[self.position]
        self.position += 1
        return card

    def reveal(self) -> tuple[list[str], str]:
        """The order and salt, to be published when the shoe closes."""
        return list(self._order), self.salt


def verify_commitment(commitment: str, order: list[str], salt: str) -> bool:
    return hmac.compare_digest(commitment, commitment_of(order, salt))


class PhysicalShoe:
    """A real shoe: the terminal reports each card; a card the shoe cannot hold is refused."""

    def __init__(self, spec: ShoeSpec, dealt: list[str] | None = None) -> None:
        self.spec = spec
        self._decks = spec.decks
        self._out: dict[str, int] = {}      # copies of each card dealt so far
        self.dealt: list[str] = []
        for card in dealt or ():
            self.accept(card)

    def verify_accept(self, card: str) -> str:
        try:
            rank, suit = parse_card(card)
        except CardError as exc:
            raise ShoeError(str(exc)) from None
        if rank in self.spec.ranks_removed:
            raise ShoeError(f"{card} cannot come from this shoe: rank {rank} is removed")
        key = rank + suit
        if self._out.get(key, 0) >= self._decks:
            raise ShoeError(f"{card} cannot come from this shoe: all {self.spec.decks} copies are already out")
        return key

    def can_accept(self, card: str) -> bool:
        try:
            self.verify_accept(card)
        except ShoeError:
            return False
        return True

    def holds_all(self, cards: list[str]) -> bool:
        """Whether the shoe, as it stands, could give all these cards: then none of them, dealt in
        any order, can be refused, and a replay need not check them one by one."""
        return fits_in_shoe(self.spec, [*self.dealt, *cards])

    def accept(self, card: str) -> str:
        """Take a card out of the shoe; ShoeError if the shoe cannot hold it."""
        key = self.verify_accept(card)
        self._out[key] = self._out.get(key, 0) + 1
        self.dealt.append(card)
        return card
