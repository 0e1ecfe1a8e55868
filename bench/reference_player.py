"""The reference engine (CanberraRound) played by a small player that asks the strategy table."""
from __future__ import annotations

from collections.abc import Callable

from service.analysis.model import ACTION_NAMES, DOUBLE, RANK_INDEX, SPLIT_ACE, SPLIT_HAND, SUIT_INDEX, UNSPLIT
from service.analysis.strategy import Strategy
from service.engine.actions import Action
from service.engine.cards import parse_card
from service.engine.games.canberra.round import CanberraRound


def decide(round_: CanberraRound, strategy: Strategy) -> Action:
    """The strategy's decision for the hand in turn, named from the round's own state."""
    turn, upcard = round_.in_turn(), round_.upcard_rank
    if turn is None or upcard is None:
        raise ValueError("the round awaits no decision")
    seat_no, hand_no = turn
    seat = next(s for s in round_.seats if s.number == seat_no)
    hand = seat.hands[hand_no]
    kind = SPLIT_ACE if hand.split_aces else SPLIT_HAND if seat.split else UNSPLIT
    parsed = [parse_card(c) for c in hand.cards]
    after = round_.hand_total(hand)[0] if hand.after_double else None
    action = strategy.decide(RANK_INDEX[upcard], kind, [RANK_INDEX[r] for r, _ in parsed],
                             [SUIT_INDEX[s] for _, s in parsed], after, round_.can_split(seat_no, hand_no))
    return Action(seat_no, ACTION_NAMES[action], hand_no, hand.wager if action == DOUBLE else None)


def play_round(strategy: Strategy, seats: int, wager: int, deal: Callable[[], str]) -> CanberraRound:
    """A complete round with `seats` seats of `wager` each, cards from `deal`, decisions from the table."""
    round_ = CanberraRound(strategy.rules, strategy.paytable,
                           [{"seat": n, "wager": wager} for n in range(1, seats + 1)])
    while not round_.complete:
        if round_.awaiting == "card":
            round_.deal_card(deal())
        else:
            round_.act(decide(round_, strategy))
    return round_


def round_net(round_: CanberraRound) -> int:
    """The players' net money over the round, in cents."""
    if round_.bets is None:
        raise ValueError("the round is not settled")
    return sum(line.returned - line.stake for line in round_.bets)


def play_shoe(strategy: Strategy, seats: int, wager: int, order: list[str], cut: int,
              rounds: int | None = None) -> list[int]:
    """Rounds through one shoe order until the cut card (or `rounds` of them): each round's net."""
    position = 0

    def deal() -> str:
        nonlocal position
        card = order[position]
        position += 1
        return card

    nets: list[int] = []
    while (rounds is None and (not nets or position < cut)) or (rounds is not None and len(nets) < rounds):
        nets.append(round_net(play_round(strategy, seats, wager, deal)))
    return nets
