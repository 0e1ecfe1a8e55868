"""Virtual shoes commit to their order and reveal it; physical shoes refuse impossible cards."""
from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine.shoe import PhysicalShoe, SecureRandom, ShoeError, ShoeSpec, VirtualShoe, verify_commitment

CANBERRA = ShoeSpec(decks=4, ranks_removed=("T",))


class SeededSource:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def randbelow(self, n: int) -> int:
        return self.rng.randrange(n)


def test_virtual_shoe_deals_the_whole_composition():
    shoe = VirtualShoe(CANBERRA, SeededSource(1))
    dealt = [shoe.deal() for _ in range(192)]
    assert Counter(dealt) == CANBERRA.composition()
    with pytest.raises(ShoeError):
        shoe.deal()


def test_commitment_matches_the_revealed_order_and_salt():
    shoe = VirtualShoe(CANBERRA, SeededSource(2))
    commitment = shoe.commitment
    dealt = [shoe.deal() for _ in range(20)]
    order, salt = shoe.reveal()
    assert order[:20] == dealt
    assert verify_commitment(commitment, order, salt)
    swapped = order[:]
    swapped[0], swapped[1] = swapped[1], swapped[0]
    assert swapped == order or not verify_commitment(commitment, swapped, salt)
    assert not verify_commitment(commitment, order, salt + "0")


def test_an_injected_source_makes_the_order_repeatable_and_the_default_is_secure():
    assert VirtualShoe(CANBERRA, SeededSource(3)).reveal()[0] == VirtualShoe(CANBERRA, SeededSource(3)).reveal()[0]
    assert isinstance(SecureRandom().randbelow(10), int)
    a, b = VirtualShoe(CANBERRA), VirtualShoe(CANBERRA)
    assert a.reveal()[0] != b.reveal()[0] and a.salt != b.salt


def test_a_restored_shoe_continues_where_it_stopped():
    shoe = VirtualShoe(CANBERRA, SeededSource(4))
    for _ in range(10):
        shoe.deal()
    order, salt = shoe.reveal()
    restored = VirtualShoe(CANBERRA, order=order, salt=salt, position=shoe.position)
    assert restored.commitment == shoe.commitment
    assert restored.deal() == shoe.deal()


def test_cut_card():
    shoe = VirtualShoe(ShoeSpec(decks=4, ranks_removed=("T",), penetration=0.5), SeededSource(5))
    for _ in range(95):
        shoe.deal()
    assert not shoe.past_cut_card
    shoe.deal()
    assert shoe.past_cut_card


def test_physical_shoe_refuses_a_ten_and_a_fifth_copy():
    shoe = PhysicalShoe(CANBERRA)
    with pytest.raises(ShoeError, match="rank T is removed"):
        shoe.accept("TH")
    with pytest.raises(ShoeError, match="rank T is removed"):
        shoe.accept("10H")
    for _ in range(4):
        shoe.accept("7S")
    with pytest.raises(ShoeError, match="all 4 copies"):
        shoe.accept("7S")
    with pytest.raises(ShoeError, match="not a card"):
        shoe.accept("1X")
    assert shoe.dealt == ["7S"] * 4


# Tokens near the edges: aces and sevens in every spelling, a removed rank, and no card at all.
_TOKENS = ["7S", "7s", "AS", "as", "AH", "9D", "KC", "TH", "10H", "1X", "", "7"]


@settings(max_examples=300, deadline=None)
@given(already=st.lists(st.sampled_from(_TOKENS), max_size=6), cards=st.lists(st.sampled_from(_TOKENS), max_size=14),
       decks=st.integers(1, 3))
def test_holding_all_the_cards_agrees_with_accepting_them_one_by_one(already, cards, decks):
    spec = ShoeSpec(decks=decks, ranks_removed=("T",))
    before = PhysicalShoe(spec)
    for card in already:
        if before.can_accept(card):
            before.accept(card)
    one_by_one = PhysicalShoe(spec, dealt=before.dealt)
    fits = True
    for card in cards:
        if not one_by_one.can_accept(card):
            fits = False
            break
        one_by_one.accept(card)
    assert PhysicalShoe(spec, dealt=before.dealt).holds_all(cards) is fits
