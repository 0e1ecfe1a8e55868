"""Two requests on one round at once: the round's row lock lets exactly one apply."""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from bench.processes import wait_for
from tests.support.api_client import Api, flask_sender
from tests.support.locks import waiting_for_locks

from .rounds import round_at_first_decision


def _at_once(app, terminal: Api, requests: list[tuple[str, dict, dict]], hold_lock=None, watch=None) -> list:
    """Send the requests from parallel threads (each with its own client). With `hold_lock`, the
    round's row is held locked until every request waits for a lock (seen on `watch`, an
    autocommit connection), so they truly overlap."""
    barrier = threading.Barrier(len(requests))

    def send(request):
        path, body, headers = request
        api = Api(flask_sender(app.test_client()), terminal.secret)
        barrier.wait()
        return api.post(path, body, headers=headers)

    with ThreadPoolExecutor(len(requests)) as pool:
        futures = [pool.submit(send, r) for r in requests]
        if hold_lock is not None:
            wait_for(lambda: waiting_for_locks(watch) >= len(requests), 30, "every request to wait at the lock")
            hold_lock.commit()
        return [f.result(timeout=30) for f in futures]


def _lock_round(database_url, round_id):
    import psycopg
    conn = psycopg.connect(database_url)
    conn.execute("SELECT 1 FROM rounds WHERE round_id = %s FOR UPDATE", (round_id,))
    return conn


def test_two_conflicting_decisions_exactly_one_applies(app, new_table, database_url, db):
    for _attempt in range(3):
        table_id, terminal = new_table(shoe="physical")
        round_id = round_at_first_decision(terminal, table_id)["round_id"]
        path = f"/v1/rounds/{round_id}/actions"
        lock = _lock_round(database_url, round_id)
        try:
            replies = _at_once(app, terminal, [(path, {"seat": 1, "action": "stand"}, {}),
                                               (path, {"seat": 1, "action": "hit"}, {})], hold_lock=lock, watch=db)
        finally:
            lock.close()
        assert sorted(r.status for r in replies) == [200, 409], [(r.status, r.body) for r in replies]
        assert [r for r in replies if r.status == 409][0].body["code"] == "decision_refused"
        assert db.execute("SELECT count(*) FROM round_events WHERE round_id = %s AND kind = 'action'",
                          (round_id,)).fetchone()[0] == 1


def test_two_identical_decisions_on_one_revision_exactly_one_applies(app, new_table, database_url, db):
    table_id, terminal = new_table(shoe="virtual")
    state = terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": [{"seat": 1, "wager": 1000}]}).body
    while "hit" not in {a["action"] for a in state["legal_actions"]}:  # e.g. a Pontoon: next round
        terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": "virtual"})
        state = terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": [{"seat": 1, "wager": 1000}]}).body
    path = f"/v1/rounds/{state['round_id']}/actions"
    if_match = {"If-Match": str(state["revision"])}
    lock = _lock_round(database_url, state["round_id"])
    try:
        replies = _at_once(app, terminal, [(path, {"seat": 1, "action": "hit"}, if_match)] * 2, hold_lock=lock,
                           watch=db)
    finally:
        lock.close()
    assert sorted(r.status for r in replies) == [200, 409]
    assert [r for r in replies if r.status == 409][0].body["code"] == "revision_conflict"


def test_one_idempotency_key_sent_twice_at_once_applies_once(app, new_table, database_url, db):
    table_id, terminal = new_table(shoe="physical")
    round_id = round_at_first_decision(terminal, table_id)["round_id"]
    request = (f"/v1/rounds/{round_id}/actions", {"seat": 1, "action": "stand"}, {"Idempotency-Key": "twice"})
    lock = _lock_round(database_url, round_id)
    try:
        replies = _at_once(app, terminal, [request, request], hold_lock=lock, watch=db)
    finally:
        lock.close()
    assert [r.status for r in replies] == [200, 200] and replies[0].body == replies[1].body
    assert db.execute("SELECT count(*) FROM round_events WHERE round_id = %s AND kind = 'action'",
                      (round_id,)).fetchone()[0] == 1
