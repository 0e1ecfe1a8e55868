"""The simulated players' strategy: each kind of decision where it belongs, and only legal ones."""
from __future__ import annotations

import random

from service.terminal.strategy import choose, play_hand


def offers(*names: str, double=(500, 1000)) -> dict[str, dict]:
    out = {}
    for name in names:
        out[name] = {"action": name, "seat": 1, "hand": 0}
        if name == "double":
            out[name].update(min_amount=double[0], max_amount=double[1])
    return out


def test_each_decision_kind_in_its_place():
    assert play_hand(["TS", "8H"], 18, "9D", offers("hit", "stand")) == ("stand", None)
    assert play_hand(["4S", "7H"], 11, "9D", offers("hit", "stand", "double")) == ("double", 1000)
    assert play_hand(["8S", "8H"], 16, "9D", offers("hit", "stand", "split", "double")) == ("split", None)
    assert play_hand(["AS", "AH"], 12, "5D", offers("hit", "stand", "split", "double")) == ("split", None)
    assert play_hand(["9S", "6H"], 15, "KD", offers("hit", "stand", "surrender")) == ("surrender", None)
    assert play_hand(["4S", "7H", "2C"], 13, "QD", offers("stand", "forfeit")) == ("forfeit", None)
    assert play_hand(["4S", "7H", "9C"], 20, "QD", offers("stand", "forfeit")) == ("stand", None)
    assert play_hand(["5S", "4H"], 9, "QD", offers("hit", "stand", "double")) == ("hit", None)
    assert play_hand(["9S", "4H"], 13, "5D", offers("hit", "stand")) == ("stand", None)
    assert play_hand(["9S", "4H"], 13, "8D", offers("hit", "stand")) == ("hit", None)


def test_only_what_is_on_offer():
    # 12 wants a hit, but only stand is offered (say, after split aces): stand.
    assert play_hand(["AS", "AH"], 12, "9D", offers("stand")) == ("stand", None)
    assert play_hand(["9S", "6H"], 15, "KD", offers("hit", "stand")) == ("hit", None)   # no surrender offered
    assert play_hand(["4S", "6H"], 10, "KD", offers("hit", "stand")) == ("hit", None)   # no double offered
    assert play_hand(["4S", "6H"], 10, "KD", {}) == (None, None)


def state(upcard: str = "AS") -> dict:
    turn = [{"seat": 1, "hand": 0, "action": "hit"}, {"seat": 1, "hand": 0, "action": "stand"}]
    return {"legal_actions": turn + [{"seat": 1, "action": "insurance", "min_amount": 1, "max_amount": 500},
                                     {"seat": 2, "action": "insurance", "min_amount": 1, "max_amount": 250}],
            "in_turn": {"seat": 1, "hand": 0, "legal_actions": turn},
            "dealer": {"cards": [upcard]},
            "seats": [{"seat": 1, "hands": [{"hand": 0, "cards": ["9S", "9H"], "total": 18}]},
                      {"seat": 2, "hands": [{"hand": 0, "cards": ["5S", "2H"], "total": 7}]}]}


def test_insurance_is_asked_once_per_seat_then_play_goes_on():
    taken = 0
    for seed in range(50):
        asked: set[int] = set()
        rng = random.Random(seed)
        decisions = [choose(state(), rng, asked) for _ in range(3)]
        insurance = [d for d in decisions if d["action"] == "insurance"]
        taken += len(insurance)
        assert len({d["seat"] for d in insurance}) == len(insurance), "never twice for one seat"
        assert all(d["amount"] in (500, 250) for d in insurance)
        assert decisions[-1] == {"seat": 1, "hand": 0, "action": "stand"}
        assert asked == {1, 2}
    assert 0 < taken < 100, "occasionally, not always"
