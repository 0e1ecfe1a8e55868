"""A key is confirmed before anything of the request is read or locked: a key the check refuses
is answered at once, however long another session holds the round's or the table's locks, and the
mark of a key's use stands whatever the request's fate."""
from __future__ import annotations

import threading
import uuid

import pytest

from tests.support.api_client import Api, flask_sender, ok

from .play import basic_decision

pytestmark = pytest.mark.integration


def test_a_key_refused_for_another_table_is_answered_before_the_round_is_locked(client, make_key, db):
    admin = Api(flask_sender(client), make_key("admin"))
    table_id, other_table = (f"T-{uuid.uuid4().hex[:10]}" for _ in range(2))
    for table in (table_id, other_table):
        ok(admin.post("/v1/tables", {"table_id": table, "rules": "canberra", "paytable": "canberra-standard"}), 201)
    terminal = Api(flask_sender(client), make_key("terminal", table_id))
    ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": "physical"}), 201)
    state = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": [{"seat": 1, "wager": 1000}]}), 201)
    stranger = Api(flask_sender(client), make_key("terminal", other_table))

    # The round is held by another session: a request that took its lock would wait for it.
    with db.transaction():
        db.execute("SELECT 1 FROM rounds WHERE round_id = %s FOR UPDATE", (state["round_id"],))
        replies = []
        request = threading.Thread(
            target=lambda: replies.append(stranger.post(f"/v1/rounds/{state['round_id']}/cards", {"card": "7S"})))
        request.start()
        request.join(timeout=10)
        blocked = request.is_alive()
    request.join()   # the lock released: a request that waited on it goes on
    assert not blocked, "a key refused by its check waited on the round's lock"
    assert replies[0].status == 403 and replies[0].body["code"] == "wrong_table"


@pytest.mark.parametrize("held", ["tables", "shoes", "audit_chain_heads"])
def test_a_key_refused_for_another_table_is_answered_before_the_table_is_locked(client, make_key, db, held):
    admin = Api(flask_sender(client), make_key("admin"))
    table_id, other_table = (f"T-{uuid.uuid4().hex[:10]}" for _ in range(2))
    for table in (table_id, other_table):
        ok(admin.post("/v1/tables", {"table_id": table, "rules": "canberra", "paytable": "canberra-standard"}), 201)
    ok(Api(flask_sender(client), make_key("terminal", table_id)).post(f"/v1/tables/{table_id}/shoes",
                                                                      {"mode": "virtual"}), 201)
    stranger = Api(flask_sender(client), make_key("terminal", other_table))
    row = {"tables": "table_id = %(t)s", "shoes": "table_id = %(t)s AND closed_at IS NULL",
           "audit_chain_heads": "chain = 'table:' || %(t)s"}[held]

    # The table's row (its shoe's, its chain head's) is held by another session: a request that
    # took the lock would wait for it.
    with db.transaction():
        assert db.execute(f"SELECT 1 FROM {held} WHERE {row} FOR UPDATE", {"t": table_id}).fetchall()
        replies = []
        request = threading.Thread(target=lambda: replies.append(stranger.post(
            f"/v1/tables/{table_id}/rounds", {"wagers": [{"seat": 1, "wager": 1000}]})))
        request.start()
        request.join(timeout=10)
        blocked = request.is_alive()
    request.join()
    assert not blocked, f"a key refused by its check waited on the lock of {held}"
    assert replies[0].status == 403 and replies[0].body["code"] == "wrong_table"


def test_a_decision_that_marks_its_keys_use_keeps_the_mark_and_acts(new_table, db):
    table_id, terminal = new_table(shoe="virtual")
    for _ in range(40):
        state = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": [{"seat": 1, "wager": 1000}]}), 201)
        if state["awaiting"] == "decision":
            break
    assert state["awaiting"] == "decision"
    db.execute("UPDATE api_keys SET last_used_at = now() - interval '5 minutes' WHERE table_id = %s", (table_id,))
    after = ok(terminal.post(f"/v1/rounds/{state['round_id']}/actions", basic_decision(state)), 200)
    assert after["revision"] == state["revision"] + 1
    marked = db.execute("SELECT last_used_at > now() - interval '1 minute' AS marked FROM api_keys "
                        "WHERE table_id = %s", (table_id,), ).fetchone()
    assert marked == (True,)


def test_a_refused_decision_keeps_the_mark_of_its_keys_use(new_table, db):
    table_id, terminal = new_table(shoe="virtual")
    db.execute("UPDATE api_keys SET last_used_at = now() - interval '5 minutes' WHERE table_id = %s", (table_id,))
    refused = terminal.post(f"/v1/rounds/{uuid.uuid4()}/actions", {"seat": 1, "action": "stand", "hand": 0})
    assert refused.status == 404
    marked = db.execute("SELECT last_used_at > now() - interval '1 minute' AS marked FROM api_keys "
                        "WHERE table_id = %s", (table_id,)).fetchone()
    assert marked == (True,)
