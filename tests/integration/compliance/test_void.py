"""Voiding a round in play: every stake back to its seat in the ledger, the round closed to cards
and decisions, an audit record with the reason; only supervisors, only rounds in play."""
from __future__ import annotations

import uuid

import psycopg

from service.audit.verify import Report, check_database_rounds
from tests.support.api_client import ok
from tests.support.scripted_rounds import SIMPLE_PUSH, play_script

WAGERS = [{"seat": 1, "wager": 1000, "pair_bet": 500}, {"seat": 2, "wager": 2000}]
# Dealer's upcard an ace: seat 1 insures for 500, splits its eights, doubles hand 0 for 800 onto
# 8-3 and draws 9: the round waits for seat 1's stand-or-forfeit when the fault is found.
FAULTY = ["8H", "5C", "AS", "8D", "9D", {"seat": 1, "action": "insurance", "amount": 500},
          {"seat": 1, "hand": 0, "action": "split"}, "3S", {"seat": 1, "hand": 0, "action": "double", "amount": 800},
          "9S"]


def test_a_void_refunds_every_stake_and_closes_the_round(new_table, supervisor, db):
    table_id, terminal = new_table()
    state = play_script(terminal, table_id, WAGERS, FAULTY, stop_after=len(FAULTY))
    assert state["awaiting"] == "decision" and state["status"] == "open"
    round_id = state["round_id"]

    key = str(uuid.uuid4())
    voided = ok(supervisor.post(f"/v1/rounds/{round_id}/void", {"reason": "misdeal: two cards stuck together"},
                                idempotency_key=key), 200)
    assert voided["status"] == "void" and voided["reason"] == "misdeal: two cards stuck together"
    refunds = {seat["seat"]: seat for seat in voided["refunds"]}
    assert refunds[1]["refunded"] == 1000 + 1000 + 800 + 500 + 500 and refunds[2]["refunded"] == 2000
    assert sorted((bet["kind"], bet["hand"], bet["stake"]) for bet in refunds[1]["bets"]) == sorted([
        ("main", 0, 1000), ("split", 1, 1000), ("double", 0, 800), ("pair", None, 500), ("insurance", None, 500)])
    assert voided["total_refunded"] == 5800

    ledger = db.execute("SELECT seat, hand, kind, stake, returned, outcome FROM ledger_entries WHERE round_id = %s "
                        "ORDER BY seat", (round_id,)).fetchall()
    assert ledger == [(1, -1, "void_refund", 3800, 3800, "void"), (2, -1, "void_refund", 2000, 2000, "void")]
    status, reason, voided_at = db.execute("SELECT status, void_reason, voided_at FROM rounds WHERE round_id = %s",
                                           (round_id,)).fetchone()
    assert status == "void" and reason.startswith("misdeal") and voided_at is not None
    [(actor, record)] = db.execute("SELECT actor, payload FROM audit_log WHERE kind = 'round_voided' "
                                   "AND round_id = %s", (round_id,)).fetchall()
    assert record["reason"].startswith("misdeal") and record["total_refunded"] == 5800
    assert record["before"]["status"] == "open" and record["after"]["status"] == "void" and actor

    for refused in (terminal.post(f"/v1/rounds/{round_id}/actions", {"seat": 1, "hand": 0, "action": "stand"}),
                    terminal.post(f"/v1/rounds/{round_id}/cards", {"card": "2H"}),
                    supervisor.post(f"/v1/rounds/{round_id}/void", {"reason": "again"})):
        assert refused.status == 409 and refused.body["code"] == "round_not_open", refused.body
    replay = supervisor.post(f"/v1/rounds/{round_id}/void", {"reason": "misdeal: two cards stuck together"},
                             idempotency_key=key)
    assert replay.status == 200 and replay.headers.get("Idempotent-Replayed") == "true"
    assert db.execute("SELECT count(*) FROM ledger_entries WHERE round_id = %s", (round_id,)).fetchone()[0] == 2
    assert ok(terminal.get(f"/v1/rounds/{round_id}"), 200)["status"] == "void"
    next_round = play_script(terminal, table_id, [{"seat": 1, "wager": 1000}], SIMPLE_PUSH)
    assert next_round["status"] == "complete", "the table plays on"


def test_only_a_round_in_play_is_voided(new_table, supervisor):
    table_id, terminal = new_table()
    done = play_script(terminal, table_id, [{"seat": 1, "wager": 1000}], SIMPLE_PUSH)
    refused = supervisor.post(f"/v1/rounds/{done['round_id']}/void", {"reason": "too late"})
    assert refused.status == 409 and refused.body["code"] == "round_not_open"
    assert supervisor.post(f"/v1/rounds/{uuid.uuid4()}/void", {"reason": "none such"}).status == 404


def test_a_void_needs_a_reason_and_a_supervisor(new_table, supervisor, operator, as_key, make_key, db):
    table_id, terminal = new_table()
    state = play_script(terminal, table_id, [{"seat": 1, "wager": 1000}], SIMPLE_PUSH, stop_after=2)
    path = f"/v1/rounds/{state['round_id']}/void"
    for body in ({}, {"reason": ""}, {"reason": "  "}, {"reason": "x", "extra": 1}):
        assert supervisor.post(path, body).status == 422, body
    for caller in (operator, terminal, as_key(make_key("compliance")), as_key(make_key("admin"))):
        assert caller.post(path, {"reason": "not mine to void"}).status == 403
    assert db.execute("SELECT status FROM rounds WHERE round_id = %s", (state["round_id"],)).fetchone()[0] == "open"
    stale = supervisor.post(path, {"reason": "fault"}, headers={"If-Match": '"0"'})
    assert stale.status == 409 and stale.body["code"] == "revision_conflict"
    assert ok(supervisor.post(path, {"reason": "fault"}), 200)["total_refunded"] == 1000


def void_problems(database_url: str, round_id: str) -> list[str]:
    report = Report()
    with psycopg.connect(database_url) as conn:
        check_database_rounds(conn, report)
    return [problem.why for problem in report.problems if problem.where == f"round {round_id}"]


def test_audit_verify_holds_a_voids_refunds_to_its_audit_record(new_table, supervisor, db, database_url):
    table_id, terminal = new_table()
    round_id = play_script(terminal, table_id, WAGERS, FAULTY, stop_after=len(FAULTY))["round_id"]
    ok(supervisor.post(f"/v1/rounds/{round_id}/void", {"reason": "misdeal"}), 200)
    assert void_problems(database_url, round_id) == []

    db.execute("UPDATE ledger_entries SET stake = 1, returned = 999999 WHERE round_id = %s AND seat = 2", (round_id,))
    assert void_problems(database_url, round_id) == [
        "seat 2 void_refund: the ledger holds (stake, returned, outcome) (1, 999999, 'void'), "
        "its round_voided record lists (2000, 2000, 'void')"]
