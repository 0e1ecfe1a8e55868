"""Plays whole rounds with random legal decisions from an injected RNG: for property tests,
benchmarks and simulated terminals."""
from __future__ import annotations

from typing import Protocol

from service.engine.actions import Action
from service.engine.games.canberra import CanberraRound, CanberraRules, Paytable
from service.engine.shoe import VirtualShoe


class Rng(Protocol):
    def random(self) -> float: ...
    def randint(self, a: int, b: int) -> int: ...
    def randrange(self, n: int) -> int: ...


def random_wagers(rules: CanberraRules, rng: Rng, max_seats: int | None = None,
                  paytable: Paytable | None = None) -> list[dict[str, object]]:
    """Random seats and wagers; with a paytable, each of its side bets placed on about a third of them."""
    count = rng.randint(1, max_seats or rules.max_seats)
    seats = sorted(_sample(range(1, rules.max_seats + 1), count, rng))
    out: list[dict[str, object]] = []
    for seat in seats:
        entry: dict[str, object] = {"seat": seat,
                                    "wager": rng.randint(rules.main_limits.minimum, rules.main_limits.minimum * 20)}
        side_bets = {}
        for bet in paytable.side_bets if paytable is not None else ():
            if rng.random() < 0.3:
                side_bets[bet.name] = rng.randint(bet.limits.minimum, min(bet.limits.minimum * 4, bet.limits.maximum))
        if side_bets:
            entry["side_bets"] = side_bets
        out.append(entry)
    return out


def _sample(population: range, k: int, rng: Rng) -> list[int]:
    pool = list(population)
    for i in range(k):
        j = i + rng.randrange(len(pool) - i)
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:k]


class _RngSource:
    """Adapts an Rng to the shoe's randbelow interface (tests only; production uses the CSPRNG)."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def randbelow(self, n: int) -> int:
        return self.rng.randrange(n)


def choose_action(round_: CanberraRound, rng: Rng) -> Action:
    """A random legal decision, with a random amount in its range; standing is favoured near 17+
    so that rounds look like play rather than a walk to bust."""
    legal = round_.legal_actions()
    pick = legal[rng.randrange(len(legal))]
    for option in legal:
        if option.action == "stand" and rng.random() < 0.5:
            pick = option
    amount = None
    if pick.min_amount is not None and pick.max_amount is not None:
        amount = rng.randint(pick.min_amount, pick.max_amount)
    return Action(pick.seat, pick.action, pick.hand, amount)


def play_random_round(rules: CanberraRules, paytable: Paytable, rng: Rng, *,
                      wagers: list[dict[str, object]] | None = None, shoe: VirtualShoe | None = None) -> CanberraRound:
    shoe = shoe or VirtualShoe(rules.shoe, _RngSource(rng))
    round_ = CanberraRound(rules, paytable, wagers or random_wagers(rules, rng, paytable=paytable))
    while round_.awaiting is not None:
        if round_.awaiting == "card":
            round_.deal_card(shoe.deal())
        else:
            round_.act(choose_action(round_, rng))
    return round_
