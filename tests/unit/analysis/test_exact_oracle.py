"""The recursion against a plain one written apart from it: card by card over the counts left in
the shoe, memoised, with the dealer's draws recursed for each shoe and splits walked path by path.
Against a ten in six decks, where a dealer blackjack takes doubles and split hands too."""
from __future__ import annotations

from functools import cache

import pytest

from service.analysis.exact.blackjack import analyse_even_money
from service.rules import load_house_banked_rules, load_paytable

ACE, TEN = 0, 9
VALUES = (11, 2, 3, 4, 5, 6, 7, 8, 9, 10)      # an ace counts 11 until the hand would bust
DECKS = 6
FULL = tuple(4 * DECKS * (4 if rank == TEN else 1) for rank in range(10))
UPCARD = TEN
MAX_HANDS = 4


def _add(hand: tuple[int, int], rank: int) -> tuple[int, int]:
    """(total, aces still counted 11) after one more card."""
    total, soft = hand[0] + VALUES[rank], hand[1] + (rank == ACE)
    while total > 21 and soft:
        total, soft = total - 10, soft - 1
    return total, soft


def _less(shoe: tuple[int, ...], rank: int, count: int = 1) -> tuple[int, ...]:
    left = list(shoe)
    left[rank] -= count
    return tuple(left)


@cache
def _dealer(shoe: tuple[int, ...], hand: tuple[int, int], cards: int) -> tuple[float, ...]:
    """Chances of the dealer's 17, 18, 19, 20, 21, bust and blackjack; hits soft 17."""
    total, soft = hand
    if cards >= 2 and (total > 21 or total >= 18 or (total == 17 and not soft)):
        return tuple(float(i == (5 if total > 21 else total - 17)) for i in range(7))
    left, chances = sum(shoe), [0.0] * 7
    for rank in range(10):
        if not shoe[rank]:
            continue
        p = shoe[rank] / left
        if cards == 1 and {UPCARD, rank} == {ACE, TEN}:
            chances[6] += p
            continue
        for i, q in enumerate(_dealer(_less(shoe, rank), _add(hand, rank), cards + 1)):
            chances[i] += p * q
    return tuple(chances)


def _stand(total: int, shoe: tuple[int, ...]) -> float:
    if total > 21:
        return -1.0
    d = _dealer(shoe, _add((0, 0), UPCARD), 1)
    return d[5] - d[6] + sum(d[k - 17] * ((total > k) - (total < k)) for k in range(17, 22))


@cache
def _hit(hand: tuple[int, int], shoe: tuple[int, ...]) -> float:
    left = sum(shoe)
    value = 0.0
    for rank in range(10):
        if shoe[rank]:
            after = _add(hand, rank)
            rest = _less(shoe, rank)
            best = -1.0 if after[0] > 21 else max(_stand(after[0], rest), _hit(after, rest))
            value += shoe[rank] / left * best
    return value


def _double(hand: tuple[int, int], shoe: tuple[int, ...]) -> float:
    left = sum(shoe)
    return sum(shoe[rank] / left * 2 * _stand(_add(hand, rank)[0], _less(shoe, rank))
               for rank in range(10) if shoe[rank])


def _two_cards(first: int, second: int) -> dict[str, float]:
    shoe = _less(_less(_less(FULL, UPCARD), first), second)
    hand = _add(_add((0, 0), first), second)
    return {"stand": _stand(hand[0], shoe), "hit": _hit(hand, shoe), "double": _double(hand, shoe)}


def _split(pair: int) -> float:
    """Every path of second cards: a hand's shoe lacks the upcard and the pair cards split so far,
    nothing else; a pair card drawn while fewer than four hands are out makes one more hand."""
    def hand_value(rank: int, hands: int) -> float:
        shoe = _less(_less(_less(FULL, UPCARD), pair, hands), rank)
        hand = _add(_add((0, 0), pair), rank)
        if pair == ACE:
            return _stand(hand[0], shoe)
        return max(_stand(hand[0], shoe), _hit(hand, shoe), _double(hand, shoe))

    total = 0.0
    paths = [(1.0, 2, 2, 0.0)]          # chance, hands out, hands waiting for a second card, value so far
    while paths:
        chance, hands, waiting, value = paths.pop()
        if not waiting:
            total += chance * value
            continue
        shoe = _less(_less(FULL, UPCARD), pair, hands)
        left = sum(shoe)
        for rank in range(10):
            if not shoe[rank]:
                continue
            p = chance * shoe[rank] / left
            if rank == pair and pair != ACE and hands < MAX_HANDS:
                paths.append((p, hands + 1, waiting + 1, value))
            else:
                paths.append((p, hands, waiting - 1, value + hand_value(rank, hands)))
    return total


@pytest.fixture(scope="module")
def against_a_ten():
    rules = load_house_banked_rules("blackjack-enhc")
    assert (rules.shoe.decks, rules.split_max_hands, rules.double_after_split) == (DECKS, MAX_HANDS, True)
    values = analyse_even_money(rules, load_paytable("blackjack"))
    return {(h.first, h.second): h.values for h in values.hands if h.upcard == UPCARD}


@pytest.mark.parametrize(("first", "second"), [(TEN, 5), (TEN, 6), (8, 1), (7, 7), (4, 4)],
                         ids=["T,6", "T,7", "9,2", "8,8", "5,5"])
def test_stand_hit_and_double_against_a_ten(against_a_ten, first, second):
    ours = against_a_ten[first, second]
    for decision, value in _two_cards(first, second).items():
        assert ours[decision] == pytest.approx(value, abs=1e-12), decision


@pytest.mark.parametrize("pair", [7, ACE], ids=["8,8", "A,A"])
def test_splits_against_a_ten(against_a_ten, pair):
    assert against_a_ten[pair, pair]["split"] == pytest.approx(_split(pair), abs=1e-12)
