"""A dealer's call for a supervisor: it names the round open at the table, a second press is the
same call, a void of the round answers it, and a supervisor may dismiss it with a reason."""
from __future__ import annotations

import uuid

import pytest

from service.compliance.commands import VoidRound
from service.compliance.void import void_round
from service.refusals import Conflict, Invalid, NotFound
from service.rounds import handlers
from service.rounds.commands import OpenRound, OpenShoe
from service.screens.calls import call_supervisor, dismiss_call, open_calls
from service.screens.commands import CallSupervisor, DismissCall, VisitScreen
from service.screens.sign_in import visit_screen

from .conftest import TABLE, chain

WAGERS = [{"seat": 1, "wager": 1000}]


@pytest.fixture
def screen_id(uow, policy, enrolled):
    return visit_screen(VisitScreen(enrolled("Left"), None), uow, policy).screen.screen_id


def open_round(uow, actor="staff:dana") -> uuid.UUID:
    handlers.open_shoe(OpenShoe(TABLE, "virtual", actor=actor), uow)
    for _ in range(40):   # a round the deal completes at once is no use: it must stay open
        state = handlers.open_round(OpenRound(TABLE, WAGERS, actor=actor), uow)
        if state["status"] == "open":
            return uuid.UUID(str(state["round_id"]))
    raise AssertionError("forty rounds in a row completed on the deal")


def test_a_call_names_the_round_in_play_and_a_second_press_is_the_same_call(uow, screen_id):
    round_id = open_round(uow)
    call = call_supervisor(CallSupervisor(TABLE, screen_id, "staff:dana", " misdeal: two cards stuck "), uow)
    assert call["round_id"] == round_id and call["reason"] == "misdeal: two cards stuck" and not call["already"]
    assert call["screen"] == "Left" and call["called_by"] == "staff:dana"
    record = chain(uow)[-1]
    assert record.kind == "supervisor_called" and record.round_id == str(round_id) and record.actor == "staff:dana"
    assert record.payload["screen"] == "Left" and record.payload["round_id"] == str(round_id)
    again = call_supervisor(CallSupervisor(TABLE, screen_id, "staff:dana"), uow)
    assert again["already"] and again["call_id"] == call["call_id"]
    assert [r.kind for r in chain(uow)].count("supervisor_called") == 1
    assert [c["call_id"] for c in open_calls(uow)] == [call["call_id"]]


def test_a_call_between_rounds_names_no_round(uow, screen_id):
    call = call_supervisor(CallSupervisor(TABLE, screen_id, "staff:dana"), uow)
    assert call["round_id"] is None and chain(uow)[-1].round_id is None


def test_a_call_with_a_reason_too_long_is_refused(uow, screen_id):
    with pytest.raises(Invalid) as refused:
        call_supervisor(CallSupervisor(TABLE, screen_id, "staff:dana", "x" * 201), uow)
    assert set(refused.value.errors) == {"reason"} and open_calls(uow) == []


def test_voiding_the_round_answers_the_call(uow, screen_id):
    round_id = open_round(uow)
    call = call_supervisor(CallSupervisor(TABLE, screen_id, "staff:dana", "misdeal"), uow)
    void_round(VoidRound(round_id, "misdeal at seat 1", "staff:sam"), uow)
    assert open_calls(uow, TABLE) == []
    closed = uow.screens.calls[call["call_id"]]
    assert (closed.outcome, closed.closed_by, closed.closing_reason) == ("voided", "staff:sam", "misdeal at seat 1")
    assert [r.kind for r in chain(uow)][-2:] == ["round_voided", "supervisor_call_answered"]
    assert chain(uow)[-1].round_id == str(round_id)


def test_a_supervisor_dismisses_a_call_with_a_reason(uow, screen_id):
    call = call_supervisor(CallSupervisor(TABLE, screen_id, "staff:dana"), uow)
    with pytest.raises(Invalid):
        dismiss_call(DismissCall(TABLE, call["call_id"], "", "staff:sam"), uow)
    with pytest.raises(NotFound):
        dismiss_call(DismissCall("T2", call["call_id"], "not this table", "staff:sam"), uow)
    dismissed = dismiss_call(DismissCall(TABLE, call["call_id"], "dealt on; the player accepted", "staff:sam"), uow)
    assert dismissed["outcome"] == "dismissed" and open_calls(uow) == []
    assert chain(uow)[-1].kind == "supervisor_call_dismissed" and chain(uow)[-1].actor == "staff:sam"
    with pytest.raises(Conflict):
        dismiss_call(DismissCall(TABLE, call["call_id"], "twice", "staff:sam"), uow)
    # The table may call again once the call is closed.
    assert not call_supervisor(CallSupervisor(TABLE, screen_id, "staff:dana"), uow)["already"]
