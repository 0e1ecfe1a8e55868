"""The cards a physical-shoe terminal reports: a real shoe's worth, shuffled from a seeded source."""
from __future__ import annotations

import random

from ..engine.shoe import ShoeSpec, VirtualShoe


class SeededSource:
    """A reproducible RandomSource for the engine's shuffle (a simulator's, never the house's)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def randbelow(self, n: int) -> int:
        return self.rng.randrange(n)


class LocalShoe:
    """The dealer's shoe on the table: shuffled once, dealt from the top, changed at the cut card
    or when too few cards are left for another round."""

    def __init__(self, spec: ShoeSpec, rng: random.Random, cards_per_round: int) -> None:
        self.spec = spec
        self.rng = rng
        self.cards_per_round = cards_per_round
        self.shoe = VirtualShoe(spec, SeededSource(rng))

    def needs_changing(self) -> bool:
        return self.shoe.past_cut_card or self.shoe.remaining < self.cards_per_round

    def change(self) -> None:
        self.shoe = VirtualShoe(self.spec, SeededSource(self.rng))

    def deal(self) -> str:
        return self.shoe.deal()
