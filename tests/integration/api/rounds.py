"""Set-ups shared by the round tests: a physical round dealt up to its first decision."""
from __future__ import annotations

from tests.support.api_client import Api, ok

TWO_SEATS = [{"seat": 1, "wager": 1000}, {"seat": 2, "wager": 1000}]
# Seat 1: 9H 5D (14), seat 2: 5C 2S (7), dealer's upcard 3D.
FIRST_DEAL = ["9H", "5C", "3D", "5D", "2S"]


def round_at_first_decision(terminal: Api, table_id: str) -> dict:
    state = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": TWO_SEATS}), 201)
    for card in FIRST_DEAL:
        state = ok(terminal.post(f"/v1/rounds/{state['round_id']}/cards", {"card": card}), 200)
    assert state["in_turn"]["seat"] == 1 and state["seats"][0]["hands"][0]["total"] == 14
    return state
