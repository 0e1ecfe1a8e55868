"""The pack across rounds: used cards to the bottom in the spec's order, or a reshuffle after a Pontoon."""
from __future__ import annotations

from collections import Counter

import pytest

from service.engine.games.traditional import TraditionalPack, TraditionalRound
from service.engine.shoe import ShoeError, ShoeSpec
from service.rules import load_rules

PACK = ShoeSpec(1)


class CountingRandom:
    """Always picks the lowest index, and counts how often it was asked."""

    def __init__(self) -> None:
        self.calls = 0

    def randbelow(self, n: int) -> int:
        self.calls += 1
        return 0


def _stacked(top: list[str]) -> list[str]:
    return top + [c for c in PACK.ordered_cards() if c not in top]


def _round(players):
    return TraditionalRound(load_rules("british-traditional"), players)


def test_without_a_pontoon_busted_cards_go_under_at_once_and_the_rest_at_the_end_in_deal_order():
    top = ["TH", "9C", "8D", "6S", "9D", "9S", "KH"]
    pack = TraditionalPack(PACK, _stacked(top))
    untouched = pack.order[len(top):]
    round_ = _round([{"seat": 1, "stake": 100}, {"seat": 2, "stake": 100}])
    pack.feed(round_)
    round_.twist(1, 0)
    pack.feed(round_)                                    # KH: 26, bust
    assert pack.order[-3:] == ["TH", "6S", "KH"]         # under the pack before the round ends
    round_.stick(2, 0)
    round_.stay()
    assert pack.finish_round(round_, CountingRandom()) is False
    assert pack.order == untouched + ["TH", "6S", "KH", "9C", "8D", "9D", "9S"]


def test_burned_cards_go_under_when_they_are_burned():
    rules = load_rules("british-traditional", {"burn": 13})
    pack = TraditionalPack(PACK, _stacked(["9H", "TC", "4D", "7S", "2C", "3C"]))
    round_ = TraditionalRound(rules, [{"seat": 1, "stake": 100}])
    pack.feed(round_)
    round_.burn(1, 0)
    pack.feed(round_)
    assert pack.order[-2:] == ["9H", "4D"]
    assert round_.seats[0].hands[0].cards == ["2C", "3C"]


def test_any_pontoon_reshuffles_the_whole_pack_with_the_injected_generator():
    pack = TraditionalPack(PACK, _stacked(["AS", "9C", "JD", "8S"]))
    round_ = _round([{"seat": 1, "stake": 100}])
    pack.feed(round_)
    round_.stay()
    rng = CountingRandom()
    assert pack.finish_round(round_, rng) is True
    assert rng.calls == PACK.size - 1
    assert Counter(pack.order) == Counter(PACK.ordered_cards())
    # Always taking index 0 rotates the pre-shuffle order by one: proof the generator made the order.
    unshuffled = _stacked(["AS", "9C", "JD", "8S"])[4:] + ["AS", "9C", "JD", "8S"]
    assert pack.order == unshuffled[1:] + unshuffled[:1]


def test_the_pack_stores_and_restores_its_order():
    pack = TraditionalPack.shuffled(PACK, CountingRandom())
    state = pack.to_state()
    assert TraditionalPack.from_state(state).order == pack.order
    with pytest.raises(ShoeError, match="holds all 52 cards"):
        TraditionalPack.from_state({"decks": 1, "order": pack.order[1:]})
    with pytest.raises(ShoeError, match="appears more often"):
        TraditionalPack.from_state({"decks": 1, "order": pack.order[1:] + pack.order[:1] * 2})


def test_a_round_in_play_cannot_be_finished():
    pack = TraditionalPack.shuffled(PACK, CountingRandom())
    round_ = _round([{"seat": 1, "stake": 100}])
    with pytest.raises(ShoeError, match="not complete"):
        pack.finish_round(round_, CountingRandom())
