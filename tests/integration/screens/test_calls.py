"""A dealer's call for a supervisor reaches the console: the floor and the table's page show it, a
supervisor's void of the round answers it, or the supervisor dismisses it with a reason; and the
table's page, recall and the API's recall say who dealt each round."""
from __future__ import annotations

import uuid

import pytest

from service.command_runner import run_command
from service.rounds.commands import OpenRound
from service.rounds.handlers import open_round
from service.store.uow import unit_of_work
from tests.support.api_client import ok

WAGERS = [{"seat": 1, "wager": 1000}]


@pytest.fixture
def round_in_play(app, as_key, make_key):
    """round_in_play(table, actor=None) -> the id of a round left open at the table (a virtual shoe
    opened first), opened by a terminal's key, or by `actor` through the handler."""
    def play(table: str, actor: str | None = None) -> uuid.UUID:
        terminal = as_key(make_key("terminal", table))
        ok(terminal.post(f"/v1/tables/{table}/shoes", {"mode": "virtual"}), 201)
        for _ in range(40):   # a round the deal completes at once is no use here
            if actor is None:
                state = ok(terminal.post(f"/v1/tables/{table}/rounds", {"wagers": WAGERS}), 201)
            else:
                with unit_of_work(app.extensions["pontoon.pool"]) as uow:
                    state = run_command(uow, lambda: open_round(OpenRound(table, WAGERS, actor=actor), uow))
            if state["status"] == "open":
                return uuid.UUID(str(state["round_id"]))
        raise AssertionError("forty rounds in a row completed on the deal")
    return play


def test_the_call_reaches_the_supervisors_floor_and_the_void_answers_it(dealer_at, signed_in, round_in_play,
                                                                          table, db):
    round_id = round_in_play(table)
    screen, dealer = dealer_at(table, "Left")
    called = screen.post("/dealer/call-supervisor", {"reason": "two cards stuck together"},
                         headers={"HX-Request": "true"})
    html = called.get_data(as_text=True)
    assert called.status_code == 201 and 'data-called="yes"' in html and "two cards stuck together" in html
    again = screen.post("/dealer/call-supervisor", {}, headers={"HX-Request": "true"})
    assert again.status_code == 200 and 'data-called="yes"' in again.get_data(as_text=True)
    assert db.execute("SELECT count(*) FROM audit_log WHERE kind = 'supervisor_called' AND round_id = %s",
                      (round_id,)).fetchone() == (1,)

    supervisor = signed_in("supervisor")
    floor = supervisor.get("/console/floor/rows").get_data(as_text=True)
    assert f'data-table="{table}"' in floor and dealer.username in floor and "two cards stuck together" in floor
    assert "supervisor called" in floor and "Void this round" in floor
    page = supervisor.get(f"/console/tables/{table}/live").get_data(as_text=True)
    assert "Left" in page and str(round_id) in page and "Dismiss" in page
    operator = signed_in("operator").get("/console/floor/rows").get_data(as_text=True)
    assert "two cards stuck together" in operator and "Dismiss" not in operator     # seen by all, answered by some

    voided = supervisor.post(f"/console/tables/{table}/void", {"round_id": str(round_id), "reason": "misdeal",
                                                               "confirmed": "yes"})
    assert voided.status_code == 200
    assert "two cards stuck together" not in supervisor.get("/console/floor/rows").get_data(as_text=True)
    assert db.execute("SELECT outcome, closed_by FROM supervisor_calls WHERE table_id = %s", (table,)).fetchone() \
        == ("voided", f"staff:{supervisor.login.username}")
    assert 'data-called="no"' in screen.get("/dealer/call-supervisor", headers={"HX-Request": "true"}).get_data(
        as_text=True)


def test_a_supervisor_dismisses_a_call_with_a_reason(dealer_at, signed_in, table, db):
    screen, _ = dealer_at(table)
    assert screen.post("/dealer/call-supervisor", {}).status_code == 201      # between rounds: no round named
    call_id = db.execute("SELECT call_id FROM supervisor_calls WHERE table_id = %s", (table,)).fetchone()[0]
    path = f"/console/tables/{table}/calls/{call_id}/dismiss"
    supervisor = signed_in("supervisor")
    assert "between rounds" in supervisor.get(path).get_data(as_text=True)
    no_reason = supervisor.post(path, {"reason": " "})
    assert no_reason.status_code == 422 and 'id="dismiss-reason-error"' in no_reason.get_data(as_text=True)
    done = supervisor.post(path, {"reason": "the dealer dealt on"})
    assert done.status_code == 303
    assert db.execute("SELECT outcome, closing_reason FROM supervisor_calls WHERE call_id = %s",
                      (call_id,)).fetchone() == ("dismissed", "the dealer dealt on")
    assert supervisor.get(path).status_code == 404
    assert signed_in("admin").get(path).status_code == 403


def test_a_call_with_too_long_a_reason_is_refused_next_to_its_field(dealer_at, table):
    screen, _ = dealer_at(table)
    refused = screen.post("/dealer/call-supervisor", {"reason": "x" * 201}, headers={"HX-Request": "true"})
    assert refused.status_code == 422 and 'id="call-reason-error"' in refused.get_data(as_text=True)


def test_the_table_page_recall_and_the_api_say_who_dealt_each_round(make_dealer, round_in_play, signed_in, as_key,
                                                                      make_key, table):
    dealer = make_dealer()
    by_dealer = round_in_play(table, actor=f"staff:{dealer.username}")
    supervisor = signed_in("supervisor")
    assert supervisor.post(f"/console/tables/{table}/void", {"round_id": str(by_dealer), "reason": "test",
                                                             "confirmed": "yes"}).status_code == 200
    page = supervisor.get(f"/console/tables/{table}/live").get_data(as_text=True)
    assert f'data-dealer="staff:{dealer.username}"' in page
    recall = supervisor.get(f"/console/recall?table={table}").get_data(as_text=True)
    assert f'data-dealer="staff:{dealer.username}"' in recall
    recalled = ok(as_key(make_key("compliance")).get(f"/v1/tables/{table}/recall?last=5"), 200)
    [shown] = [r for r in recalled["rounds"] if r["round_id"] == str(by_dealer)]
    assert shown["dealt_by"] == [{"actor": f"staff:{dealer.username}", "screen": None}]
