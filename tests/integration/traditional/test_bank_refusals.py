"""What the bank, kitty and round endpoints refuse, and that a refusal moves no money."""
from __future__ import annotations

import uuid

from tests.support.api_client import Api, flask_sender, ok

from .money import bank_of


def _refused(reply, status: int, code: str) -> dict:
    assert (reply.status, reply.body["code"]) == (status, code), reply.body
    return reply.body


def test_a_house_banked_table_has_no_bank_or_kitty(admin, client, make_key):
    table_id = f"C-{uuid.uuid4().hex[:10]}"
    ok(admin.post("/v1/tables", {"table_id": table_id, "rules": "canberra", "paytable": "canberra-standard"}), 201)
    terminal = Api(flask_sender(client), make_key("terminal", table_id))
    _refused(terminal.post(f"/v1/tables/{table_id}/kitty", {"action": "put_up", "amount": 1000}), 409,
             "not_player_banked")
    _refused(terminal.post(f"/v1/tables/{table_id}/bank/sale", {"to_seat": 1, "price": 100}), 409, "not_player_banked")
    ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": "physical"}), 201)
    _refused(terminal.post(f"/v1/tables/{table_id}/rounds", {"players": [{"seat": 1, "stake": 100}]}), 409,
             "wrong_game")
    assert "bank" not in ok(terminal.get(f"/v1/tables/{table_id}"), 200)


def test_rounds_of_the_player_banked_game_take_players(new_table):
    table_id, terminal = new_table("british-traditional", "physical")
    _refused(terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": [{"seat": 1, "wager": 100}]}), 409,
             "wrong_game")
    both = {"wagers": [{"seat": 1, "wager": 100}], "players": [{"seat": 1, "stake": 100}]}
    _refused(terminal.post(f"/v1/tables/{table_id}/rounds", both), 422, "invalid_request")
    _refused(terminal.post(f"/v1/tables/{table_id}/rounds", {"players": [{"seat": 1, "stake": 50}]}), 409,
             "wager_refused")
    shoot = {"players": [{"seat": 1, "stake": 100, "shoot": 100}]}
    _refused(terminal.post(f"/v1/tables/{table_id}/rounds", shoot), 409, "wager_refused")
    _refused(terminal.post(f"/v1/tables/{table_id}/kitty", {"action": "put_up", "amount": 1000}), 409, "no_kitty_game")


def test_nothing_moves_while_a_round_is_open(new_table, db):
    table_id, terminal = new_table("shoot-pontoon", "physical")
    ok(terminal.post(f"/v1/tables/{table_id}/kitty", {"action": "put_up", "amount": 1000}), 201)
    _refused(terminal.post(f"/v1/tables/{table_id}/kitty", {"action": "put_up", "amount": 1000}), 409, "kitty_up")
    _refused(terminal.post(f"/v1/tables/{table_id}/kitty", {"action": "put_up", "amount": 100}), 409, "kitty_up")
    ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"players": [{"seat": 1, "stake": 100, "shoot": 1000}]}), 201)
    _refused(terminal.post(f"/v1/tables/{table_id}/kitty", {"action": "top_up", "amount": 500}), 409, "round_open")
    _refused(terminal.post(f"/v1/tables/{table_id}/bank/sale", {"to_seat": 1, "price": 100}), 409, "round_open")
    assert terminal.post(f"/v1/tables/{table_id}/bank/sale", {"to_seat": 0, "price": 100}).status == 422
    assert bank_of(terminal, table_id) == {"table_id": table_id, "banker_place": 0, "banker_chair": 1, "places": 10,
                                           "shoot": True, "kitty": 1000}
    assert db.execute("SELECT count(*) FROM table_transfers WHERE table_id = %s", (table_id,)).fetchone()[0] == 1


def test_a_retried_kitty_is_put_up_once_and_another_tables_terminal_is_refused(new_table, db):
    table_id, terminal = new_table("shoot-pontoon", "physical")
    other_id, other = new_table("shoot-pontoon", "physical")
    body = {"action": "put_up", "amount": 700}
    first = ok(terminal.post(f"/v1/tables/{table_id}/kitty", body, idempotency_key="kitty-1"), 201)
    again = terminal.post(f"/v1/tables/{table_id}/kitty", body, idempotency_key="kitty-1")
    assert again.status == 201 and again.body == first and again.headers.get("Idempotent-Replayed") == "true"
    assert bank_of(terminal, table_id)["kitty"] == 700
    _refused(other.post(f"/v1/tables/{table_id}/kitty", body), 403, "wrong_table")
    assert db.execute("SELECT count(*), sum(amount) FROM table_transfers WHERE table_id = %s",
                      (table_id,)).fetchone() == (1, 700)
