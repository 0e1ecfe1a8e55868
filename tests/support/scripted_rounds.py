"""Scripted house-banked rounds: a round's cards and decisions in order, posted by a terminal through
the API, for the folders that need a round in a known state."""
from __future__ import annotations

from tests.support.api_client import Api, ok

# A script is the round's steps in order: a card ("8H") or a decision (a dict for /actions).
SIMPLE_PUSH = ["9H", "7D", "8C", {"seat": 1, "hand": 0, "action": "stand"}, "KD"]
# Seat 1 (1000, pair bet 500) is dealt 8-8 and splits; hand 0 takes 3 and doubles for 1000 onto 9
# (20) and stands; hand 1 takes 2, hits K (20), stands. Seat 2 (2000) stands on 14. Dealer 6 K K busts.
SPLIT_AND_DOUBLE_WAGERS = [{"seat": 1, "wager": 1000, "pair_bet": 500}, {"seat": 2, "wager": 2000}]
SPLIT_AND_DOUBLE = ["8H", "5C", "6C", "8D", "9D", {"seat": 1, "hand": 0, "action": "split"}, "3S",
                    {"seat": 1, "hand": 0, "action": "double", "amount": 1000}, "9S",
                    {"seat": 1, "hand": 0, "action": "stand"}, "2C", {"seat": 1, "hand": 1, "action": "hit"}, "KS",
                    {"seat": 1, "hand": 1, "action": "stand"}, {"seat": 2, "hand": 0, "action": "stand"}, "KD", "KC"]
# Up to seat 1's split and the card to its first hand: it awaits hand 0's decision (double, hit...).
AFTER_SPLIT = 7


def play(terminal: Api, table_id: str, wagers: list[dict], script: list, *, stop_after: int | None = None) -> dict:
    """Open a round on the table's open shoe and post the script's cards and decisions in order (the
    first `stop_after` steps only, if given); returns the round's last state."""
    state = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": wagers}), 201)
    for step in script if stop_after is None else script[:stop_after]:
        if isinstance(step, str):
            assert state["awaiting"] == "card", (step, state["awaiting"], state["legal_actions"])
            state = ok(terminal.post(f"/v1/rounds/{state['round_id']}/cards", {"card": step}), 200)
        else:
            assert state["awaiting"] == "decision", (step, state["awaiting"])
            state = ok(terminal.post(f"/v1/rounds/{state['round_id']}/actions", step), 200)
    return state


def play_script(terminal: Api, table_id: str, wagers: list[dict], script: list, *, new_shoe: bool = True,
                stop_after: int | None = None) -> dict:
    """`play` on a new physical shoe (on the open one with new_shoe=False); a script played whole
    leaves the round complete."""
    if new_shoe:
        ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": "physical"}), 201)
    state = play(terminal, table_id, wagers, script, stop_after=stop_after)
    if stop_after is None:
        assert state["awaiting"] is None and state["status"] == "complete", state
    return state


# A Shoot Pontoon round (the player-banked game) up to the banker's turn. Seat 1 splits its eights
# (3 and Q on them), buys a nine for $5 on the first and sticks on 20 and 18; seat 2 buys a four for
# $3 and twists a five and a six: a Five Card Trick of 20. The banker then stays on 17: seat 1 wins
# $10 and $5, seat 2 twice its $6 and its $2 shoot bet from the kitty.
SHOOT_PLAYERS = [{"seat": 1, "stake": 500}, {"seat": 2, "stake": 300, "shoot": 200}]
SHOOT_DEAL = ["8H", "2C", "7S", "8C", "3D", "TD"]
SHOOT_PLAY = [({"seat": 1, "hand": 0, "action": "split"}, ["3C", "QD"]),
              ({"seat": 1, "hand": 0, "action": "buy", "amount": 500}, ["9S"]),
              ({"seat": 1, "hand": 0, "action": "stick"}, []),
              ({"seat": 1, "hand": 1, "action": "stick"}, []),
              ({"seat": 2, "hand": 0, "action": "buy", "amount": 300}, ["4H"]),
              ({"seat": 2, "hand": 0, "action": "twist"}, ["5S"]),
              ({"seat": 2, "hand": 0, "action": "twist"}, ["6C"])]


def play_shoot_to_the_bankers_turn(terminal: Api, table_id: str) -> str:
    """The Shoot round above, on the table's open shoe with a kitty put up: its round id."""
    round_id = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"players": SHOOT_PLAYERS}), 201)["round_id"]
    for card in SHOOT_DEAL:
        ok(terminal.post(f"/v1/rounds/{round_id}/cards", {"card": card}), 200)
    for action, cards in SHOOT_PLAY:
        ok(terminal.post(f"/v1/rounds/{round_id}/actions", action), 200)
        for card in cards:
            ok(terminal.post(f"/v1/rounds/{round_id}/cards", {"card": card}), 200)
    return round_id
