"""A small API client over Flask's test client, and scripted rounds on a physical shoe."""
from __future__ import annotations

from ..api.client import Api, Reply, Send, flask_sender, ok  # noqa: F401  (the shared client)

# A script is the round's steps in order: a card ("8H") or a decision (a dict for /actions).
SIMPLE_PUSH = ["9H", "7D", "8C", {"seat": 1, "hand": 0, "action": "stand"}, "KD"]
# Seat 1 (1000, pair bet 500) is dealt 8-8 and splits; hand 0 takes 3 and doubles for 1000 onto 9
# (20) and stands; hand 1 takes 2, hits K (20), stands. Seat 2 (2000) stands on 14. Dealer 6 K K busts.
SPLIT_AND_DOUBLE_WAGERS = [{"seat": 1, "wager": 1000, "pair_bet": 500}, {"seat": 2, "wager": 2000}]
SPLIT_AND_DOUBLE = ["8H", "5C", "6C", "8D", "9D", {"seat": 1, "hand": 0, "action": "split"}, "3S",
                    {"seat": 1, "hand": 0, "action": "double", "amount": 1000}, "9S",
                    {"seat": 1, "hand": 0, "action": "stand"}, "2C", {"seat": 1, "hand": 1, "action": "hit"}, "KS",
                    {"seat": 1, "hand": 1, "action": "stand"}, {"seat": 2, "hand": 0, "action": "stand"}, "KD", "KC"]


def play_script(terminal: Api, table_id: str, wagers: list[dict], script: list, *, new_shoe: bool = True,
                stop_after: int | None = None) -> dict:
    """Open a round on a fresh physical shoe and post the script's cards and decisions in order
    (the first `stop_after` steps only, if given); returns the last state."""
    if new_shoe:
        ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": "physical"}), 201)
    state = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": wagers}), 201)
    steps = script if stop_after is None else script[:stop_after]
    for step in steps:
        if isinstance(step, str):
            assert state["awaiting"] == "card", (step, state["awaiting"], state["legal_actions"])
            state = ok(terminal.post(f"/v1/rounds/{state['round_id']}/cards", {"card": step}), 200)
        else:
            assert state["awaiting"] == "decision", (step, state["awaiting"])
            state = ok(terminal.post(f"/v1/rounds/{state['round_id']}/actions", step), 200)
    if stop_after is None:
        assert state["awaiting"] is None and state["status"] == "complete", state
    return state
