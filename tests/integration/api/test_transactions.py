"""One request, one transaction: when any write of a request fails, none of its writes stand."""
from __future__ import annotations

import dataclasses
import uuid

import pytest

from service.store.repositories.audit import AuditRepository
from service.store.repositories.outbox import OutboxRepository
from service.store.repositories.rounds import LockedRound, RoundsRepository
from tests.support.api_client import ok
from tests.support.app_fixtures import through
from tests.support.metrics import sample

from .play import basic_decision
from .rounds import round_at_first_decision


def _snapshot(db, round_id, shoe_table):
    return db.execute(
        "SELECT (SELECT version FROM rounds WHERE round_id = %(r)s),"
        " (SELECT status FROM rounds WHERE round_id = %(r)s),"
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


class _OutboxUnavailable(OutboxRepository):
    def add(self, *_args, **_kwargs) -> None:
        raise RuntimeError("outbox unavailable")


class _AuditFailingInTheDatabase(AuditRepository):
    """The audit records are the request's last statement before its Idempotency-Key and COMMIT:
    this one fails in the database."""

    def append(self, chain, records, head=None) -> None:
        self.db.execute("SELECT 1 / (%(written)s - %(written)s)", {"written": len(records)})


def test_a_failure_while_completing_a_round_leaves_no_trace(new_table, db, app_with):
    table_id, terminal = new_table(shoe="physical")
    round_id = _round_awaiting_the_dealers_last_card(terminal, table_id)
    before = _snapshot(db, round_id, table_id)

    with pytest.raises(RuntimeError):       # the app runs with TESTING: errors propagate
        through(app_with(outbox=_OutboxUnavailable), terminal).post(f"/v1/rounds/{round_id}/cards", {"card": "7S"})
    assert _snapshot(db, round_id, table_id) == before

    final = ok(terminal.post(f"/v1/rounds/{round_id}/cards", {"card": "7S"}), 200)
    assert final["status"] == "complete" and final["dealer"]["total"] == 20
    version, status, events, audits, outbox, position = _snapshot(db, round_id, table_id)
    assert (version, status, events, outbox, position) == (before[0] + 1, "complete", before[2] + 1, 1,
                                                           before[5] + 1)
    assert audits == before[3] + 2                    # card_dealt, round_completed


def test_an_unexpected_error_is_a_json_500_that_tells_nothing_inside(new_table, db, app_with):
    table_id, terminal = new_table(shoe="physical")
    round_id = _round_awaiting_the_dealers_last_card(terminal, table_id)
    before = _snapshot(db, round_id, table_id)
    broken = through(app_with(testing=False, outbox=_OutboxUnavailable), terminal)
    reply = broken.post(f"/v1/rounds/{round_id}/cards", {"card": "7S"})
    assert reply.status == 500 and reply.body == {"code": "internal_error", "status": 500,
                                                  "message": "internal error"}
    assert _snapshot(db, round_id, table_id) == before


def test_a_statement_failing_in_the_database_as_the_request_commits_leaves_no_trace(new_table, db, app_with):
    table_id, terminal = new_table(shoe="physical")
    round_id = _round_awaiting_the_dealers_last_card(terminal, table_id)
    before = _snapshot(db, round_id, table_id)
    with pytest.raises(Exception, match="division by zero"):
        through(app_with(audit=_AuditFailingInTheDatabase), terminal).post(
            f"/v1/rounds/{round_id}/cards", {"card": "7S"}, idempotency_key="failed-commit")
    assert _snapshot(db, round_id, table_id) == before
    assert db.execute("SELECT count(*) FROM idempotency_keys WHERE idem_key = 'failed-commit'").fetchone()[0] == 0

    final = ok(terminal.post(f"/v1/rounds/{round_id}/cards", {"card": "7S"}, idempotency_key="failed-commit"), 200)
    assert final["status"] == "complete"


def _virtual_round_awaiting_a_decision(terminal, table_id) -> dict:
    wagers = [{"seat": 1, "wager": 1000}, {"seat": 3, "wager": 500}]
    for _ in range(40):   # a round the deal settles at once (a Pontoon, say) is no use here
        state = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": wagers}), 201)
        if state["awaiting"] == "decision":
            return state
    raise AssertionError("forty rounds in a row needed no decision")


def test_a_decision_answers_with_the_round_as_stored(new_table):
    # The answer's version, opening and completion times are the ones the database keeps.
    table_id, terminal = new_table(shoe="virtual")
    for _ in range(5):
        state = _virtual_round_awaiting_a_decision(terminal, table_id)
        opened = ok(terminal.get(f"/v1/rounds/{state['round_id']}"), 200)
        assert (state["revision"], state["opened_at"]) == (opened["revision"], opened["opened_at"])
        while state["awaiting"] == "decision":
            state = ok(terminal.post(f"/v1/rounds/{state['round_id']}/actions", basic_decision(state)), 200)
            stored = ok(terminal.get(f"/v1/rounds/{state['round_id']}"), 200)
            assert (state["revision"], state["status"], state["completed_at"]) == \
                (stored["revision"], stored["status"], stored["completed_at"])
        assert state["status"] == "complete" and state["completed_at"] is not None


class _RoundsReadStale(RoundsRepository):
    """Gives the version a caller that forgot the lock might hold."""

    def lock_with_events(self, *args, **kwargs) -> LockedRound:
        locked = super().lock_with_events(*args, **kwargs)
        assert locked.row is not None
        return dataclasses.replace(locked, row=dataclasses.replace(locked.row, version=locked.row.version - 1))


def test_a_save_that_misses_its_version_stops_the_commit_it_travels_with(new_table, db, app_with):
    # A save that matched no row fails its statement: the audit records and the Idempotency-Key
    # that would follow it, and the commit, never happen.
    table_id, terminal = new_table(shoe="virtual")
    state = _virtual_round_awaiting_a_decision(terminal, table_id)
    round_id = state["round_id"]
    before = _snapshot(db, round_id, table_id)
    with pytest.raises(Exception, match="changed under its lock"):
        through(app_with(rounds=_RoundsReadStale), terminal).post(
            f"/v1/rounds/{round_id}/actions", basic_decision(state), idempotency_key="stale-save")
    assert _snapshot(db, round_id, table_id) == before
    assert db.execute("SELECT count(*) FROM idempotency_keys WHERE idem_key = 'stale-save'").fetchone()[0] == 0

    after = ok(terminal.post(f"/v1/rounds/{round_id}/actions", basic_decision(state), idempotency_key="stale-save"),
               200)
    assert after["revision"] == state["revision"] + 1


def test_a_decisions_lock_takes_its_tables_audit_chain_head(new_table, database_url):
    # The round's lock reads the head of the chain its records go on (chain_for's, written in SQL),
    # locked, with the transaction's time: nothing is locked after the round's lock.
    import psycopg

    from service.games import SHOE_DEALT_GAMES
    from service.store.repositories.audit import chain_for

    table_id, terminal = new_table(shoe="virtual")
    round_id = _virtual_round_awaiting_a_decision(terminal, table_id)["round_id"]
    with psycopg.connect(database_url) as conn:
        locked = RoundsRepository(conn).lock_with_events(round_id, shoe_games=SHOE_DEALT_GAMES)
        now = conn.execute("SELECT now()").fetchone()[0]
        head = conn.execute("SELECT seq, hash FROM audit_chain_heads WHERE chain = %s",
                            (chain_for(table_id),)).fetchone()
        assert locked.head is not None and locked.head.position == head and locked.head.now == now
        assert RoundsRepository(conn).lock_with_events(round_id).head is None   # only when asked for
        audit = AuditRepository(conn)
        assert audit.lock_table_head(table_id, SHOE_DEALT_GAMES) == locked.head    # an opening's, alike
        assert audit.lock_table_head(table_id, ("traditional",)) is None


@pytest.mark.parametrize("moment", ["before its reads", "before its commit"])
def test_a_connection_lost_in_the_middle_of_a_command_is_a_503_and_the_pool_serves_on(new_table, db, app_with,
                                                                                    moment):
    table_id, terminal = new_table(shoe="physical")
    state = round_at_first_decision(terminal, table_id)
    round_id = state["round_id"]
    before = _snapshot(db, round_id, table_id)
    decision = {"seat": 1, "action": "stand"}

    def server_goes_away(conn) -> None:
        db.execute("SELECT pg_terminate_backend(%s)", (conn.info.backend_pid,))

    class RoundsLostBeforeTheirReads(RoundsRepository):
        def lock_with_events(self, *args, **kwargs) -> LockedRound:
            server_goes_away(self.db)
            return super().lock_with_events(*args, **kwargs)

    class AuditLostBeforeTheCommit(AuditRepository):   # the round saved and its records chained
        def append(self, *args, **kwargs) -> None:
            super().append(*args, **kwargs)
            server_goes_away(self.db)

    app = (app_with(rounds=RoundsLostBeforeTheirReads) if moment == "before its reads"
           else app_with(audit=AuditLostBeforeTheCommit))
    reply = through(app, terminal).post(f"/v1/rounds/{round_id}/actions", decision)
    assert reply.status == 503 and reply.body["code"] == "database_unavailable", reply.body
    assert _snapshot(db, round_id, table_id) == before
    assert ok(terminal.post(f"/v1/rounds/{round_id}/actions", decision), 200)["revision"] == state["revision"] + 1


def test_the_pool_gauge_counts_the_connection_a_request_holds(settings):
    """Connections in use are counted while requests hold them: a gauge sampled between requests
    would always say none."""
    from flask import jsonify

    from service.api.transactions import request_uow
    from service.app import create_app

    def in_use() -> float:
        return sample("pontoon_db_pool_connections", state="in_use")

    app = create_app(settings)
    try:
        @app.get("/probe-pool")
        def probe():
            request_uow()
            return jsonify(in_use=in_use())

        before = in_use()
        assert app.test_client().get("/probe-pool").get_json() == {"in_use": before + 1}
        assert in_use() == before
    finally:
        app.extensions["pontoon.pool"].close()


def test_a_made_up_http_method_adds_no_metric_series(app, client):
    def counted() -> float:
        return sample("pontoon_http_requests_total", method="other", endpoint="/v1/tables", status="405")

    before = counted()
    for method in ("QQQA", "QQQB"):
        assert client.open("/v1/tables", method=method).status_code == 405
    assert counted() == before + 2


def test_a_method_an_endpoint_does_not_take_is_counted_under_that_endpoint(app, client):
    def counted(endpoint: str) -> float:
        return sample("pontoon_http_requests_total", method="DELETE", endpoint=endpoint, status="405")

    before, before_unmatched = counted("/v1/rounds/<uuid:round_id>"), counted("unmatched")
    assert client.delete(f"/v1/rounds/{uuid.uuid4()}").status_code == 405
    assert counted("/v1/rounds/<uuid:round_id>") == before + 1
    assert counted("unmatched") == before_unmatched
    assert client.delete("/v1/no-such-thing").status_code == 404
