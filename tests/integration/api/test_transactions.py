"""One request, one transaction: when any write of a request fails, none of its writes stand."""
from __future__ import annotations

import pytest

from service.store.repositories.outbox import OutboxRepository

from .client import ok
from .rounds import round_at_first_decision


def _snapshot(db, round_id, shoe_table):
    return db.execute(
        "SELECT (SELECT version FROM rounds WHERE round_id = %(r)s), (SELECT status FROM rounds WHERE round_id = %(r)s),"
        " (SELECT count(*) FROM round_events WHERE round_id = %(r)s),"
        " (SELECT count(*) FROM audit_log WHERE round_id = %(r)s),"
        " (SELECT count(*) FROM outbox WHERE round_id = %(r)s),"
        " (SELECT position FROM shoes WHERE table_id = %(t)s AND closed_at IS NULL)",
        {"r": round_id, "t": shoe_table}).fetchone()


def _round_awaiting_the_dealers_last_card(terminal, table_id) -> str:
    """Seat 1 stands on 14, seat 2 draws to 15 and stands, the dealer holds 3 K (13): a 7 ends it."""
    round_id = round_at_first_decision(terminal, table_id)["round_id"]
    ok(terminal.post(f"/v1/rounds/{round_id}/actions", {"seat": 1, "action": "stand"}), 200)
    ok(terminal.post(f"/v1/rounds/{round_id}/actions", {"seat": 2, "action": "hit"}), 200)
    ok(terminal.post(f"/v1/rounds/{round_id}/cards", {"card": "8C"}), 200)
    ok(terminal.post(f"/v1/rounds/{round_id}/actions", {"seat": 2, "action": "stand"}), 200)
    state = ok(terminal.post(f"/v1/rounds/{round_id}/cards", {"card": "KH"}), 200)
    assert state["awaiting"] == "card" and state["card_to"] == "dealer"
    return round_id


def _broken(*_args, **_kwargs):
    raise RuntimeError("outbox unavailable")


def test_a_failure_while_completing_a_round_leaves_no_trace(new_table, db, monkeypatch):
    table_id, terminal = new_table(shoe="physical")
    round_id = _round_awaiting_the_dealers_last_card(terminal, table_id)
    before = _snapshot(db, round_id, table_id)

    monkeypatch.setattr(OutboxRepository, "add", _broken)
    with pytest.raises(RuntimeError):       # the app runs with TESTING: errors propagate
        terminal.post(f"/v1/rounds/{round_id}/cards", {"card": "7S"})
    assert _snapshot(db, round_id, table_id) == before

    monkeypatch.undo()
    final = ok(terminal.post(f"/v1/rounds/{round_id}/cards", {"card": "7S"}), 200)
    assert final["status"] == "complete" and final["dealer"]["total"] == 20
    version, status, events, audits, outbox, position = _snapshot(db, round_id, table_id)
    assert (version, status, events, outbox, position) == (before[0] + 1, "complete", before[2] + 1, 1,
                                                           before[5] + 1)
    assert audits == before[3] + 2                    # card_dealt, round_completed


def test_an_unexpected_error_is_a_json_500_that_tells_nothing_inside(app, new_table, db, monkeypatch):
    table_id, terminal = new_table(shoe="physical")
    round_id = _round_awaiting_the_dealers_last_card(terminal, table_id)
    before = _snapshot(db, round_id, table_id)
    monkeypatch.setattr(OutboxRepository, "add", _broken)
    monkeypatch.setattr(app, "testing", False)
    reply = terminal.post(f"/v1/rounds/{round_id}/cards", {"card": "7S"})
    assert reply.status == 500 and reply.body == {"code": "internal_error", "status": 500,
                                                  "message": "internal error"}
    assert _snapshot(db, round_id, table_id) == before


def test_a_statement_failing_in_the_database_as_the_request_commits_leaves_no_trace(new_table, db, monkeypatch):
    # The audit records go with COMMIT, in the round trip that ends the request's pipeline: nothing
    # reads their statement's result before then, so its failure is known only as the request
    # commits, and the commit must not stand.
    import service.audit.log as audit_log

    table_id, terminal = new_table(shoe="physical")
    round_id = _round_awaiting_the_dealers_last_card(terminal, table_id)
    before = _snapshot(db, round_id, table_id)
    monkeypatch.setattr(audit_log, "_APPEND", "SELECT 1 / (%(head_seq)s - %(head_seq)s)")
    with pytest.raises(Exception, match="division by zero"):
        terminal.post(f"/v1/rounds/{round_id}/cards", {"card": "7S"}, idempotency_key="failed-commit")
    assert _snapshot(db, round_id, table_id) == before
    assert db.execute("SELECT count(*) FROM idempotency_keys WHERE idem_key = 'failed-commit'").fetchone()[0] == 0

    monkeypatch.undo()
    final = ok(terminal.post(f"/v1/rounds/{round_id}/cards", {"card": "7S"}, idempotency_key="failed-commit"), 200)
    assert final["status"] == "complete"
