"""How many times a request waits on PostgreSQL, counted by a relay between the two: each Sync,
Flush or simple Query the app sends is one wait for the server's answer (a round trip). A
command's BEGIN and COMMIT are statements of its pipeline, and wait for nothing of their own."""
from __future__ import annotations

import os
import threading
import uuid

import pytest

from bench.floor_app import create_app
from service.config import Settings
from tests.support.api_client import Api, flask_sender, ok
from tests.support.message_recorder import MessageRecorder

from .play import basic_decision

pytestmark = pytest.mark.integration

ASKS = {"S", "H", "Q"}   # Sync, Flush, Query: the messages the server answers


@pytest.fixture(scope="module")
def recorded(database_url):
    """(the app with its pool's connections relayed through a recorder, the recorder). The benchmark's
    app (bench/floor_app.py): the product API with the floor endpoint the decisions are set beside."""
    recorder = MessageRecorder(database_url)
    app = create_app(Settings.from_env({**os.environ, "DATABASE_URL": recorder.url}))
    app.config["TESTING"] = True
    yield app, recorder
    app.extensions["pontoon.pool"].close()


def _round_trips(recorder: MessageRecorder, call) -> tuple[int, object]:
    """(the waits `call` made, its answer). psycopg follows the Sync that ends a pipeline with a
    Flush, sent before it reads anything: the two are one wait."""
    mark = recorder.mark()
    answer = call()
    waits, previous = 0, None
    for kind in recorder.sent_since(mark):
        waits += kind in ASKS and not (kind == "H" and previous == "S")
        previous = kind
    return waits, answer


def _table_with_shoe(admin: Api, client, make_key, mode: str) -> tuple[str, Api]:
    """A new Canberra table with a shoe of `mode` opened by its own terminal's key."""
    table_id = f"T-{uuid.uuid4().hex[:10]}"
    ok(admin.post("/v1/tables", {"table_id": table_id, "rules": "canberra", "paytable": "canberra-standard"}), 201)
    terminal = Api(flask_sender(client), make_key("terminal", table_id))
    ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": mode}), 201)
    return table_id, terminal


def test_a_decision_waits_on_the_database_twice_and_the_floor_four_times(recorded, make_key):
    app, recorder = recorded
    client = app.test_client()
    admin = Api(flask_sender(client), make_key("admin"))
    table_id, terminal = _table_with_shoe(admin, client, make_key, "virtual")   # the key's first use is marked
    ok(admin.post("/v1/ops/floor", None), 201)

    decisions = 0
    for _ in range(40):
        trips, state = _round_trips(recorder, lambda: ok(terminal.post(
            f"/v1/tables/{table_id}/rounds", {"wagers": [{"seat": 1, "wager": 1000}]}), 201))
        # BEGIN, the key check and the table's, shoe's and head's locks; the round with COMMIT.
        assert trips == 2
        while state["awaiting"] == "decision":
            trips, state = _round_trips(recorder, lambda state=state: ok(terminal.post(
                f"/v1/rounds/{state['round_id']}/actions", basic_decision(state)), 200))
            # BEGIN, the key check and the round's lock with its reads; the change with COMMIT.
            assert trips == 2
            decisions += 1
        if decisions >= 3:
            break
    assert decisions >= 3

    # Outside a pipeline, a statement's first run on a connection prepares it in a round trip of its
    # own: the fewest of a few requests is what a connection that has served one costs.
    trips = min(_round_trips(recorder, lambda: ok(admin.post("/v1/ops/floor", None), 201))[0] for _ in range(6))
    assert trips == 4   # BEGIN; the key check; the INSERT; COMMIT


def test_a_key_refused_in_the_round_trip_that_locks_the_round_locks_nothing(recorded, make_key, db):
    app, recorder = recorded
    client = app.test_client()
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
def test_a_key_refused_in_the_round_trip_that_locks_the_table_locks_nothing(recorded, make_key, db, held):
    app, recorder = recorded
    client = app.test_client()
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


def test_a_decision_that_marks_its_keys_use_commits_the_mark_and_still_acts_under_the_rounds_lock(new_table, db):
    # The mark stays in the request's transaction, which also holds the round's lock taken with the
    # key check; the decision acts under that lock, and the mark commits with it.
    table_id, terminal = new_table(shoe="virtual")
    for _ in range(40):
        state = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": [{"seat": 1, "wager": 1000}]}), 201)
        if state["awaiting"] == "decision":
            break
    assert state["awaiting"] == "decision"
    db.execute("UPDATE api_keys SET last_used_at = now() - interval '5 minutes' WHERE table_id = %s", (table_id,))
    after = ok(terminal.post(f"/v1/rounds/{state['round_id']}/actions", basic_decision(state)), 200)
    assert after["revision"] == state["revision"] + 1
    marked = db.execute("SELECT last_used_at > now() - interval '1 minute' FROM api_keys WHERE table_id = %s",
                        (table_id,)).fetchone()[0]
    assert marked


def test_an_opening_on_a_physical_shoe_waits_twice_and_a_card_four_times(recorded, make_key):
    app, recorder = recorded
    client = app.test_client()
    admin = Api(flask_sender(client), make_key("admin"))
    table_id, terminal = _table_with_shoe(admin, client, make_key, "physical")
    trips, state = _round_trips(recorder, lambda: ok(terminal.post(
        f"/v1/tables/{table_id}/rounds", {"wagers": [{"seat": 1, "wager": 1000}]}), 201))
    assert trips == 2   # BEGIN, the key check and the locks; the round with COMMIT
    for card in ("7S", "8H", "2C"):   # the deal: the player's two cards and the dealer's one
        trips, state = _round_trips(recorder, lambda state=state, card=card: ok(terminal.post(
            f"/v1/rounds/{state['round_id']}/cards", {"card": card}), 200))
        # BEGIN, the key check and the round's lock with its reads; the shoe's lock; the change
        # with the audit chain's head; the audit records with COMMIT.
        assert trips == 4
