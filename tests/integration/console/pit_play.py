"""Play for the pit pages' tests: keys, tables and rounds through the REST API in-process, settlement
run in-process, and a page's table row or section picked out of its HTML."""
from __future__ import annotations

import re
import uuid

import pytest

from service.settlement.connection import connect
from service.settlement.settle import settle_rounds

from ..api.client import Api, flask_sender, ok

# A Canberra round on a physical shoe, step by step (cards and decisions), from the compliance tests:
# seat 1 (1000, pair bet 500) is dealt 8-8 and splits; hand 0 takes 3 and doubles for 1000 onto 9
# and stands; hand 1 takes 2, hits K, stands. Seat 2 (2000) stands on 14. Dealer 6 K K busts.
SPLIT_AND_DOUBLE_WAGERS = [{"seat": 1, "wager": 1000, "pair_bet": 500}, {"seat": 2, "wager": 2000}]
SPLIT_AND_DOUBLE = ["8H", "5C", "6C", "8D", "9D", {"seat": 1, "hand": 0, "action": "split"}, "3S",
                    {"seat": 1, "hand": 0, "action": "double", "amount": 1000}, "9S",
                    {"seat": 1, "hand": 0, "action": "stand"}, "2C", {"seat": 1, "hand": 1, "action": "hit"}, "KS",
                    {"seat": 1, "hand": 1, "action": "stand"}, {"seat": 2, "hand": 0, "action": "stand"}, "KD", "KC"]
# Up to seat 1's split and the card to its first hand: it awaits hand 0's decision (double, hit...).
AFTER_SPLIT = 7


@pytest.fixture
def api(client, make_key):
    """api(role, table=None) -> an Api calling in-process with a new key of that role."""
    return lambda role, table=None: Api(flask_sender(client), make_key(role, table))


@pytest.fixture
def new_table(api):
    """new_table(rules="canberra", shoe="physical") -> (table_id, terminal Api), a shoe open."""
    def make(rules: str = "canberra", shoe: str | None = "physical", prefix: str = "PIT") -> tuple[str, Api]:
        table_id = f"{prefix}-{uuid.uuid4().hex[:8]}"
        body = {"table_id": table_id, "rules": rules}
        if rules == "canberra":
            body["paytable"] = "canberra-standard"
        ok(api("admin").post("/v1/tables", body), 201)
        terminal = api("terminal", table_id)
        if shoe:
            ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": shoe}), 201)
        return table_id, terminal
    return make


@pytest.fixture
def settle(database_url):
    """settle(*round_ids): what the settlement worker does, now, in-process."""
    def run(*round_ids: str) -> None:
        with connect(database_url) as conn:
            outcome = settle_rounds(conn, list(round_ids))
        assert not outcome.refused, outcome.refused
    return run


def play(terminal: Api, table_id: str, wagers: list[dict], script: list, stop_after: int | None = None) -> dict:
    """Open a house-banked round and post the script's cards and decisions (the first `stop_after`
    steps only, if given); returns the round's last state."""
    state = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": wagers}), 201)
    for step in script if stop_after is None else script[:stop_after]:
        if isinstance(step, str):
            state = ok(terminal.post(f"/v1/rounds/{state['round_id']}/cards", {"card": step}), 200)
        else:
            state = ok(terminal.post(f"/v1/rounds/{state['round_id']}/actions", step), 200)
    return state


def row_of(html: str, table_id: str) -> str:
    """The floor's row for one table."""
    found = re.search(rf'<tr id="floor-{re.escape(table_id)}".*?</tr>', html, re.S)
    assert found, f"no floor row for {table_id}"
    return found.group(0)


def section(html: str, element_id: str) -> str:
    found = re.search(rf'<section id="{re.escape(element_id)}".*?</section>', html, re.S)
    assert found, f"no section {element_id}"
    return found.group(0)


def text_of(html: str) -> str:
    """The page's text with its tags dropped and its spaces squeezed (none before punctuation), as
    a reader sees it."""
    squeezed = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()
    return re.sub(r" ([,.:;)])", r"\1", squeezed)
