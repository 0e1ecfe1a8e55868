"""A simple player for virtual-shoe rounds: stand when allowed, otherwise hit."""
from __future__ import annotations

from tests.support.api_client import Api, ok


def basic_decision(state: dict) -> dict:
    legal = state["in_turn"]["legal_actions"]
    names = {a["action"] for a in legal}
    seat, hand = state["in_turn"]["seat"], state["in_turn"]["hand"]
    action = "stand" if "stand" in names else "hit" if "hit" in names else sorted(names)[0]
    return {"seat": seat, "hand": hand, "action": action}


def play_virtual_round(terminal: Api, table_id: str, wagers: list[dict]) -> dict:
    """Open a round on the table's virtual shoe and play it out; returns the final state."""
    state = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": wagers}), 201)
    while state["awaiting"] == "decision":
        state = ok(terminal.post(f"/v1/rounds/{state['round_id']}/actions", basic_decision(state)), 200)
    assert state["awaiting"] is None and state["status"] == "complete", state
    return state
