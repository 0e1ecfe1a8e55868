"""The fast path and the reference engine play the same shoes and strategy to the same money, round by round."""
from __future__ import annotations

import dataclasses
from collections import Counter

import numpy as np
import pytest

from bench import reference_player as reference
from service.analysis.fastsim import FastGame, card_codes, card_names
from service.analysis.kernel import P_PONT
from service.analysis.model import RANK_INDEX, SURRENDER, UNSPLIT


def replay_through_reference(game: FastGame, orders: np.ndarray, round_shoe: np.ndarray,
                             round_net: np.ndarray) -> int:
    """Play each recorded shoe through CanberraRound; assert every round's net matches. Returns rounds."""
    strategy, seats, wager = game.strategy, game.seats, game.model.wager
    compared = 0
    last = int(round_shoe.max())
    for shoe in range(last + 1):
        rounds = np.nonzero(round_shoe == shoe)[0]
        order = card_names(orders[shoe])
        # Every shoe but the last ran to its cut card: the reference must stop at the same round.
        nets = reference.play_shoe(strategy, seats, wager, order, game.cut,
                                   rounds=None if shoe < last else len(rounds))
        assert len(nets) == len(rounds), f"shoe {shoe}: {len(nets)} rounds by the engine, {len(rounds)} fast"
        for index, net in zip(rounds, nets):
            assert round_net[index] == net, f"shoe {shoe} round {index}: fast {round_net[index]}, engine {net}"
        compared += len(rounds)
    return compared


def differential(strategy, seats: int, rounds: int, seed: int, fresh: bool = False) -> tuple[int, FastGame]:
    game = FastGame(strategy, seats=seats, fresh_shoe=fresh)
    block = game.run(np.random.default_rng(seed), rounds, record=True)
    assert block.aborted == 0
    assert block.orders is not None and block.round_shoe is not None and block.round_net is not None
    base = Counter(game.base_shoe.tolist())
    for order in block.orders:
        assert Counter(order.tolist()) == base          # every shoe is a shuffle of the real shoe
    return replay_through_reference(game, block.orders, block.round_shoe, block.round_net), game


def test_canberra_three_seats_ten_thousand_rounds(canberra):
    _, _, strategy = canberra
    compared, _ = differential(strategy, seats=3, rounds=10_000, seed=20240601)
    assert compared == 10_000


def test_blackjack_two_seats_ten_thousand_rounds(blackjack):
    _, _, strategy = blackjack
    compared, _ = differential(strategy, seats=2, rounds=10_000, seed=7)
    assert compared == 10_000


def test_canberra_fresh_shoe_every_round(canberra):
    _, _, strategy = canberra
    compared, game = differential(strategy, seats=1, rounds=3_000, seed=11, fresh=True)
    assert compared == 3_000 and game.cut == 0


def rich_shoes(game: FastGame, count: int, seed: int) -> np.ndarray:
    """Shoes heavy in 5s to 8s of few suits, with aces and pictures: bonus lines, five-card 21s,
    splits, doubles and forfeits come often."""
    rng = np.random.default_rng(seed)
    pool = ([f"{r}{s}" for r in "5678" for s in "SH" for _ in range(16)]
            + [f"{r}{s}" for r in "AJ2" for s in "SHDC" for _ in range(4)])
    size = len(game.base_shoe)
    return np.stack([card_codes(list(rng.choice(pool, size=size, replace=True))) for _ in range(count)])


def test_bonus_rich_shoes(canberra):
    _, _, strategy = canberra
    game = FastGame(strategy, seats=3)
    shoes = rich_shoes(game, 150, seed=3)
    block = game.run(np.random.default_rng(0), 100_000, record=True, shoes=shoes)
    played = block.round_shoe >= 0
    compared = replay_through_reference(game, shoes, block.round_shoe[played], block.round_net[played])
    assert compared == block.rounds > 1000
    hits = dict(zip(game.model.line_names, block.line_hits.tolist()))
    for line in ("5_card_21", "6_card_21", "7_plus_card_21", "678_mixed", "678_suited", "678_spades",
                 "777_mixed", "777_suited", "777_spades"):
        assert hits[line] > 0, (line, hits)


def rigged_shoe(game: FastGame, first: list[str], seed: int) -> np.ndarray:
    """A shoe that starts with these cards, the rest of the real shoe after them in random order."""
    rest = Counter(card_names(game.base_shoe))
    rest.subtract(first)
    tail = [card for card, n in rest.items() for _ in range(n)]
    np.random.default_rng(seed).shuffle(tail)
    return card_codes(first + tail)[None, :]


def test_super_bonus_and_envy(canberra):
    _, _, strategy = canberra
    game = FastGame(strategy, seats=3)
    # Seat 1 holds 7S 7S against a 7 and draws the third 7S; seats 2 and 3 receive the envy.
    shoe = rigged_shoe(game, ["7S", "2H", "9D", "7H", "7S", "5C", "9C", "7S"], seed=5)
    block = game.run(np.random.default_rng(0), 1, record=True, shoes=shoe)
    hits = dict(zip(game.model.line_names, block.line_hits.tolist()))
    assert hits["super_bonus"] == 1 and hits["envy"] == 2
    round_ = reference.play_round(strategy, 3, game.model.wager, iter(card_names(shoe[0])).__next__)
    kinds = [line.kind for line in round_.bets]
    assert kinds.count("super_bonus") == 1 and kinds.count("envy") == 2
    assert reference.round_net(round_) == block.round_net[0]


def test_surrender_against_pictures_and_aces(canberra):
    """The derived Canberra table never surrenders; force it on 12 to 16 so both paths settle it."""
    rules, _, strategy = canberra
    forced = dataclasses.replace(strategy, play=strategy.play.copy())
    for upcard in rules.surrender_upcards:
        if upcard in RANK_INDEX:
            forced.play[RANK_INDEX[upcard], UNSPLIT, 2, 12:17, 0, 0] = SURRENDER
    compared, game = differential(forced, seats=2, rounds=3_000, seed=17)
    assert compared == 3_000


def test_a_wrong_payout_is_caught(canberra):
    """The comparison can fail: pay Pontoon one cent more in the fast path and it must notice."""
    _, _, strategy = canberra
    game = FastGame(strategy, seats=2)
    game.ip[P_PONT] += 1
    block = game.run(np.random.default_rng(1), 400, record=True)
    with pytest.raises(AssertionError):
        replay_through_reference(game, block.orders, block.round_shoe, block.round_net)


def knob_shoes(game: FastGame, count: int, seed: int) -> np.ndarray:
    """Shoes heavy in aces, pictures and 5s to 8s: split aces that draw aces, dealer Pontoons,
    doubles on 9 to 11, and bonus 21s on split and doubled hands come often."""
    rng = np.random.default_rng(seed)
    pool = ([f"{r}{s}" for r in "A5678" for s in "SH" for _ in range(12)]
            + [f"{r}{s}" for r in "JK234" for s in "SHDC" for _ in range(3)])
    size = len(game.base_shoe)
    return np.stack([card_codes(list(rng.choice(pool, size=size, replace=True))) for _ in range(count)])


@pytest.mark.parametrize("rules_name, paytable_name, changes", [
    ("pontoon-8d-obbo-spl2-nlc", "pontoon-bonuses", {}),      # each waiting hand's wager; aces re-split
    ("pontoon-8d-spl2-spa1-d9", "pontoon-bonuses", {}),       # every stake; doubling on 9 to 11, two cards
    ("canberra", "canberra-standard", {"bonuses_on_split_hands": False, "bonuses_on_doubled_hands": True}),
])
def test_the_rule_knobs_settle_alike(rules_name, paytable_name, changes):
    from service.analysis.strategy import derive
    from service.rules import load_paytable, load_rules
    rules = dataclasses.replace(load_rules(rules_name), **changes)
    game = FastGame(derive(rules, load_paytable(paytable_name)), seats=3)
    shoes = knob_shoes(game, 40, seed=29)
    block = game.run(np.random.default_rng(0), 100_000, record=True, shoes=shoes)
    played = block.round_shoe >= 0
    compared = replay_through_reference(game, shoes, block.round_shoe[played], block.round_net[played])
    assert compared == block.rounds > 400
