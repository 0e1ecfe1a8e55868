"""Properties of random legal play: rounds end, the state always offers a way on, money adds up,
and every exported transcript replays to identical money."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.random_play import _RngSource, choose_action, random_wagers
from service.engine.games.canberra import CanberraRound
from service.engine.games.canberra.seats import PLAYING
from service.engine.shoe import VirtualShoe
from service.replay import replay_data
from service.rules import load_paytable, load_rules

RULES = load_rules("canberra")
PAYTABLE = load_paytable("canberra-standard")


def play_checked(rng) -> CanberraRound:
    """Play a round to the end, checking at every step that the state says how to go on."""
    shoe = VirtualShoe(RULES.shoe, _RngSource(rng))
    round_ = CanberraRound(RULES, PAYTABLE, random_wagers(RULES, rng, paytable=PAYTABLE))
    steps = 0
    while round_.awaiting is not None:
        steps += 1
        assert steps < 500, "a round that does not end"
        if round_.awaiting == "card":
            assert round_.card_recipient() is not None
            round_.deal_card(shoe.deal())
        else:
            legal = round_.legal_actions()
            assert legal, f"a decision is awaited but none is legal: {round_.snapshot()}"
            turn = round_.in_turn()
            assert any((a.seat, a.hand) == turn for a in legal if a.action != "insurance")
            round_.act(choose_action(round_, rng))
    return round_


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False))
def test_random_rounds_end_with_every_hand_finished(rng):
    round_ = play_checked(rng)
    for seat in round_.seats:
        for hand in seat.hands:
            assert hand.status != PLAYING and hand.owed == 0


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False))
def test_staked_and_returned_add_up_from_the_bets(rng):
    round_ = play_checked(rng)
    result = round_.result()
    for seat, out in zip(round_.seats, result["seats"], strict=True):
        # What the seat put down, counted from the decisions rather than from the bet lines.
        put_down = seat.wager + sum(seat.side_bets.values()) + seat.insurance
        for action in round_.actions:
            if action.seat == seat.number and action.action in ("double", "split"):
                put_down += action.amount if action.action == "double" else seat.wager
        assert out["staked"] == put_down
        lines = [b for b in round_.bets if b.seat == seat.number]
        assert out["returned"] == sum(b.returned for b in lines)
        assert out["net"] == out["returned"] - out["staked"]
        for line in lines:
            assert line.returned >= 0 and line.stake >= 0
    house = -sum(s["net"] for s in result["seats"])
    assert house == sum(b.stake - b.returned for b in round_.bets)


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False))
def test_export_then_replay_gives_identical_money(rng):
    round_ = play_checked(rng)
    assert replay_data(round_.transcript()) == round_.result()


@settings(max_examples=200, deadline=None)
@given(st.randoms(use_true_random=False))
def test_no_return_exceeds_what_the_paytable_allows(rng):
    round_ = play_checked(rng)
    best = max(line.odds.as_float() for line in PAYTABLE.bonuses)
    for line in round_.bets:
        if line.kind in ("main", "split", "double"):
            assert line.returned <= line.stake * (1 + max(best, PAYTABLE.pontoon.as_float()))
