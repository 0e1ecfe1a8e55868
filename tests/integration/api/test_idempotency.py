"""Idempotency-Key: a retried POST gets the first response back and changes nothing; the same key
with another request is refused."""
from __future__ import annotations

import hashlib
import json
import uuid
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
from psycopg.types.json import Jsonb

from bench.processes import wait_for
from service.store.repositories.keys import hash_secret
from tests.support.api_client import Api, flask_sender, ok
from tests.support.locks import waiting_for_locks

from .rounds import TWO_SEATS, round_at_first_decision


def _counts(db, round_id) -> tuple:
    return db.execute("SELECT (SELECT count(*) FROM round_events WHERE round_id = %(r)s), "
                      "(SELECT version FROM rounds WHERE round_id = %(r)s), "
                      "(SELECT count(*) FROM audit_log WHERE round_id = %(r)s)", {"r": round_id}).fetchone()


def test_a_retried_decision_returns_the_first_response_and_changes_nothing(new_table, db):
    table_id, terminal = new_table(shoe="physical")
    round_id = round_at_first_decision(terminal, table_id)["round_id"]
    key = str(uuid.uuid4())
    first = terminal.post(f"/v1/rounds/{round_id}/actions", {"seat": 1, "action": "hit"}, idempotency_key=key)
    assert first.status == 200
    after_first = _counts(db, round_id)
    retry = terminal.post(f"/v1/rounds/{round_id}/actions", {"action": "hit", "seat": 1}, idempotency_key=key)
    assert retry.status == 200 and retry.data == first.data   # the very bytes first sent
    assert retry.headers["Content-Type"] == first.headers["Content-Type"]
    assert retry.headers.get("Idempotent-Replayed") == "true"
    assert _counts(db, round_id) == after_first
    # Without the key the same decision is a new one, and the rules refuse it (a card is owed).
    assert terminal.post(f"/v1/rounds/{round_id}/actions", {"seat": 1, "action": "hit"}).status == 409


def test_the_same_key_with_another_body_is_refused(new_table, db):
    table_id, terminal = new_table(shoe="physical")
    round_id = round_at_first_decision(terminal, table_id)["round_id"]
    key = str(uuid.uuid4())
    ok(terminal.post(f"/v1/rounds/{round_id}/actions", {"seat": 1, "action": "stand"}, idempotency_key=key), 200)
    before = _counts(db, round_id)
    reused = terminal.post(f"/v1/rounds/{round_id}/actions", {"seat": 2, "action": "hit"}, idempotency_key=key)
    assert reused.status == 422 and reused.body["code"] == "idempotency_key_reused"
    assert "Idempotency-Key" in reused.body["errors"]
    elsewhere = terminal.post(f"/v1/rounds/{round_id}/cards", {"card": "2C"}, idempotency_key=key)
    assert elsewhere.status == 422 and elsewhere.body["code"] == "idempotency_key_reused"
    assert _counts(db, round_id) == before


def test_retried_openings_open_one_table_one_shoe_one_round(admin, as_key, make_key, db):
    table_id = "T-" + uuid.uuid4().hex[:8]
    body = {"table_id": table_id, "rules": "canberra", "paytable": "canberra-standard"}
    first = ok(admin.post("/v1/tables", body, idempotency_key="create-1"), 201)
    assert ok(admin.post("/v1/tables", body, idempotency_key="create-1"), 201) == first
    terminal = as_key(make_key("terminal", table_id))
    shoe = ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": "virtual"}, idempotency_key="shoe-1"), 201)
    assert ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": "virtual"}, idempotency_key="shoe-1"), 201) \
        == shoe
    opened = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": TWO_SEATS}, idempotency_key="round-1"), 201)
    again = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": TWO_SEATS}, idempotency_key="round-1"), 201)
    assert again == opened
    assert db.execute("SELECT count(*) FROM shoes WHERE table_id = %s", (table_id,)).fetchone()[0] == 1
    assert db.execute("SELECT count(*) FROM rounds WHERE table_id = %s", (table_id,)).fetchone()[0] == 1


def test_keys_are_per_client(new_table, as_key, make_key):
    table_id, terminal = new_table(shoe="physical")
    other = as_key(make_key("terminal", table_id))
    round_id = round_at_first_decision(terminal, table_id)["round_id"]
    ok(terminal.post(f"/v1/rounds/{round_id}/actions", {"seat": 1, "action": "stand"}, idempotency_key="k"), 200)
    # Another terminal's "k" is its own key: its decision is judged afresh (seat 1 is no longer in turn).
    assert other.post(f"/v1/rounds/{round_id}/actions", {"seat": 1, "action": "stand"},
                      idempotency_key="k").status == 409


def test_a_refused_request_is_not_remembered(new_table):
    table_id, terminal = new_table(shoe="physical")
    round_id = round_at_first_decision(terminal, table_id)["round_id"]
    refused = terminal.post(f"/v1/rounds/{round_id}/actions", {"seat": 2, "action": "hit"}, idempotency_key="r")
    assert refused.status == 409
    ok(terminal.post(f"/v1/rounds/{round_id}/actions", {"seat": 1, "action": "stand"}), 200)
    # Retried once seat 2 is in turn, the same request now applies: only successes are replayed.
    assert terminal.post(f"/v1/rounds/{round_id}/actions", {"seat": 2, "action": "hit"},
                         idempotency_key="r").status == 200


def test_a_malformed_idempotency_key_is_422(new_table):
    table_id, terminal = new_table()
    reply = terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": "virtual"}, idempotency_key="x" * 300)
    assert reply.status == 422 and "Idempotency-Key" in reply.body["errors"]


def _table_creation_key(db, admin, body: dict) -> tuple:
    """The admin's key id, and the hash the API gives a POST /v1/tables of `body`: what a row of
    idempotency_keys taken by that request holds."""
    key_id = db.execute("SELECT key_id FROM api_keys WHERE key_hash = %s", (hash_secret(admin.secret),)).fetchone()[0]
    request_hash = hashlib.sha256(b"POST /v1/tables\n" + json.dumps(body, sort_keys=True, separators=(",", ":"))
                                  .encode()).hexdigest()
    return key_id, request_hash


def test_a_request_meeting_its_key_in_flight_waits_and_answers_as_that_one_did(app, admin, database_url, db):
    table_id = "T-" + uuid.uuid4().hex[:8]
    body = {"table_id": table_id, "rules": "canberra", "paytable": "canberra-standard"}
    key_id, request_hash = _table_creation_key(db, admin, body)
    first_response = b'{"answered": "first",  "table_id": "%s"}' % table_id.encode()
    retry = Api(flask_sender(app.test_client()), admin.secret)
    with psycopg.connect(database_url) as first, ThreadPoolExecutor(1) as pool:
        # The first request with this key, between taking it and committing.
        first.execute("INSERT INTO idempotency_keys (key_id, idem_key, request_hash, status_code, body, "
                      "content_type) VALUES (%s, 'in-flight', %s, 201, %s, 'application/json')",
                      (key_id, request_hash, first_response))
        sent = pool.submit(retry.post, "/v1/tables", body, idempotency_key="in-flight")
        wait_for(lambda: waiting_for_locks(db) or sent.done(), 30, "the second request to wait for the first")
        assert not sent.done(), "the second request must wait for the first to end"
        first.commit()
        reply = sent.result(timeout=10)
    assert reply.status == 201 and reply.data == first_response
    assert reply.headers.get("Idempotent-Replayed") == "true"
    # What the second request did (the table, its audit record) went with its rollback.
    assert db.execute("SELECT count(*) FROM tables WHERE table_id = %s", (table_id,)).fetchone()[0] == 0
    assert db.execute("SELECT count(*) FROM audit_log WHERE table_id = %s", (table_id,)).fetchone()[0] == 0


def test_a_key_taken_before_responses_were_kept_as_sent_replays_its_json(admin, db):
    body = {"table_id": "T-" + uuid.uuid4().hex[:8], "rules": "canberra", "paytable": "canberra-standard"}
    key_id, request_hash = _table_creation_key(db, admin, body)
    first_response = {"table_id": body["table_id"], "answered": "first"}
    db.execute("INSERT INTO idempotency_keys (key_id, idem_key, request_hash, status_code, response) "
               "VALUES (%s, 'kept-as-jsonb', %s, 201, %s)", (key_id, request_hash, Jsonb(first_response)))
    reply = admin.post("/v1/tables", body, idempotency_key="kept-as-jsonb")
    assert reply.status == 201 and reply.body == first_response
    assert reply.headers.get("Idempotent-Replayed") == "true"
    assert db.execute("SELECT count(*) FROM tables WHERE table_id = %s", (body["table_id"],)).fetchone()[0] == 0


def test_a_key_is_never_kept_without_a_response(admin, db):
    key_id, _ = _table_creation_key(db, admin, {})
    with pytest.raises(psycopg.errors.CheckViolation):
        db.execute("INSERT INTO idempotency_keys (key_id, idem_key, request_hash, status_code) "
                   "VALUES (%s, 'no-response', 'h', 201)", (key_id,))


def test_a_retry_the_shoe_would_refuse_answers_as_the_first_and_audits_no_refusal(new_table, db):
    table_id, terminal = new_table(shoe="physical")
    round_id = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": TWO_SEATS}), 201)["round_id"]
    for _ in range(3):   # seat 1, seat 2, the dealer's upcard: three of the shoe's four 5H
        ok(terminal.post(f"/v1/rounds/{round_id}/cards", {"card": "5H"}), 200)
    first = ok(terminal.post(f"/v1/rounds/{round_id}/cards", {"card": "5H"}, idempotency_key="fourth"), 200)
    assert first["awaiting"] == "card"   # seat 2's second card is owed: the shoe would be asked again
    retry = terminal.post(f"/v1/rounds/{round_id}/cards", {"card": "5H"}, idempotency_key="fourth")
    assert retry.status == 200 and retry.body == first
    refused = terminal.post(f"/v1/rounds/{round_id}/cards", {"card": "5H"})
    assert refused.status == 409 and refused.body["code"] == "card_refused"
    assert db.execute("SELECT count(*) FROM audit_log WHERE round_id = %s AND kind = 'card_refused'",
                      (round_id,)).fetchone()[0] == 1   # the request without a key, not the retry
