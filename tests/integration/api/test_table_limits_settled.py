"""A round played under its table's own limits (outside the rules' defaults) is settled, and
re-verified, under those same limits."""
from __future__ import annotations

import psycopg
import pytest

from service.audit.verify import Report, check_database_rounds
from service.settlement.connection import connect
from service.settlement.settle import settle_rounds
from tests.support.api_client import ok

pytestmark = pytest.mark.integration


def play(terminal, table_id: str, wagers: list[dict], cards: list[str], actions: list[dict]) -> str:
    state = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": wagers}), 201)
    round_id, cards, actions = state["round_id"], list(cards), list(actions)
    while state["awaiting"] is not None:
        if state["awaiting"] == "card":
            state = ok(terminal.post(f"/v1/rounds/{round_id}/cards", {"card": cards.pop(0)}), 200)
        else:
            state = ok(terminal.post(f"/v1/rounds/{round_id}/actions", actions.pop(0)), 200)
    assert not actions
    return round_id


def settled_stakes(database_url: str, db, round_id: str) -> dict[str, int]:
    with connect(database_url) as conn:
        outcome = settle_rounds(conn, [round_id])
    assert outcome.settled == [round_id], outcome
    return dict(db.execute("SELECT kind, stake FROM ledger_entries WHERE round_id = %s", (round_id,)).fetchall())


def problems_of(database_url: str, round_ids: set[str]) -> list:
    report = Report()
    with psycopg.connect(database_url) as conn:
        check_database_rounds(conn, report)
    return [problem for problem in report.problems if problem.where.removeprefix("round ") in round_ids]


def test_a_wager_above_the_rules_maximum_at_a_table_allowing_it(new_table, database_url, db):
    table_id, terminal = new_table(shoe="physical", limits={"main": {"min": 500, "max": 5_000_000}})
    round_id = play(terminal, table_id, [{"seat": 1, "wager": 2_000_000}],
                    ["9H", "3D", "8D", "5C", "9C", "9D", "9S"], [{"seat": 1, "hand": 0, "action": "stand"}])
    assert settled_stakes(database_url, db, round_id) == {"main": 2_000_000}
    assert problems_of(database_url, {round_id}) == []


def test_a_double_below_the_rules_minimum_at_a_table_with_a_low_minimum(new_table, database_url, db):
    table_id, terminal = new_table(shoe="physical", limits={"main": {"min": 100, "max": 100_000}})
    round_id = play(terminal, table_id, [{"seat": 1, "wager": 1000}],
                    ["5H", "3D", "6D", "8C", "9S", "7C", "8S", "9D", "9C"],
                    [{"seat": 1, "hand": 0, "action": "double", "amount": 200},
                     {"seat": 1, "hand": 0, "action": "stand"}])
    assert settled_stakes(database_url, db, round_id) == {"main": 1000, "double": 200}
    assert problems_of(database_url, {round_id}) == []


def test_the_transcript_of_a_round_under_its_tables_own_limits_replays(new_table, database_url, db):
    """The transcript a round exports names its table's limits, so `pontoon replay` plays a
    wager the rules' defaults would refuse, to the money the ledger holds."""
    from service.replay import replay_data

    table_id, terminal = new_table(shoe="physical", limits={"main": {"min": 500, "max": 5_000_000}})
    round_id = play(terminal, table_id, [{"seat": 1, "wager": 2_000_000}],
                    ["9H", "3D", "8D", "5C", "9C", "9D", "9S"], [{"seat": 1, "hand": 0, "action": "stand"}])
    transcript = ok(terminal.get(f"/v1/rounds/{round_id}/transcript"), 200)
    assert transcript["limits"]["main"] == {"min": 500, "max": 5_000_000}
    replayed = replay_data(transcript)
    assert settled_stakes(database_url, db, round_id) == {"main": 2_000_000}
    returned = db.execute("SELECT sum(returned) FROM ledger_entries WHERE round_id = %s", (round_id,)).fetchone()[0]
    assert [(s["seat"], s["staked"], s["returned"]) for s in replayed["seats"]] == [(1, 2_000_000, returned)]
