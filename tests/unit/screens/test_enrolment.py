"""Enrolling a screen: a code works once and for ten minutes, names its table and its screen, and a
revocation or a second enrolment of the same browser ends the screen. Each leaves its record on the
table's chain; a code or a token never does."""
from __future__ import annotations

import uuid
from datetime import timedelta

import pytest

from service.refusals import Conflict, Invalid, NotFound
from service.screens.commands import EnrolScreen, IssueScreenCode, RevokeScreen, VisitScreen
from service.screens.enrolment import (
    CODE_ALPHABET,
    enrol_screen,
    issue_code,
    normal_code,
    revoke_screen,
    screens_of,
    waiting_codes,
)
from service.screens.sign_in import visit_screen

from .conftest import TABLE, chain, kinds


def test_a_code_enrols_one_screen_for_its_table_under_its_name(uow, policy):
    issued = issue_code(IssueScreenCode(TABLE, "  Left of the pit ", "staff:sam"), uow, policy)
    assert issued.name == "Left of the pit" and issued.expires_at == policy.clock() + timedelta(minutes=10)
    assert len(issued.code) == 11 and issued.code[5] == "-"
    assert all(ch in CODE_ALPHABET for ch in normal_code(issued.code))
    assert [w["name"] for w in waiting_codes(uow, TABLE, policy)] == ["Left of the pit"]

    enrolled = enrol_screen(EnrolScreen(issued.code.lower().replace("-", " "), "10.1.1.5"), uow, policy)
    assert enrolled.screen["table_id"] == TABLE and enrolled.screen["name"] == "Left of the pit"
    assert enrolled.screen["enrolled_by"] == "staff:sam"
    visit = visit_screen(VisitScreen(enrolled.token, None), uow, policy)
    assert visit is not None and visit.screen.screen_id == enrolled.screen["screen_id"] and visit.dealer is None
    assert waiting_codes(uow, TABLE, policy) == []
    assert kinds(uow)[-2:] == ["screen_code_issued", "screen_enrolled"]
    record = chain(uow)[-1]
    assert record.actor == "staff:sam" and record.payload["address"] == "10.1.1.5"
    assert normal_code(issued.code) not in repr(chain(uow)) and enrolled.token not in repr(chain(uow))


def test_a_code_works_once(uow, policy):
    issued = issue_code(IssueScreenCode(TABLE, "Left", "staff:sam"), uow, policy)
    enrol_screen(EnrolScreen(issued.code), uow, policy)
    with pytest.raises(Conflict) as refused:
        enrol_screen(EnrolScreen(issued.code, "10.9.9.9"), uow, policy)
    assert refused.value.code == "code_used" and "used already" in refused.value.errors["code"][0]
    assert refused.value.audit.kind == "screen_enrolment_refused" and refused.value.audit.table_id == TABLE
    assert refused.value.audit.payload["reason"] == "code_used"
    assert len(uow.screens.screens) == 1


def test_a_code_expires_ten_minutes_after_it_was_issued(uow, policy, clock):
    issued = issue_code(IssueScreenCode(TABLE, "Left", "staff:sam"), uow, policy)
    clock.move(minutes=10)
    with pytest.raises(Conflict) as refused:
        enrol_screen(EnrolScreen(issued.code), uow, policy)
    assert refused.value.code == "code_expired" and refused.value.audit.payload["reason"] == "code_expired"
    assert uow.screens.screens == {} and waiting_codes(uow, TABLE, policy) == []


def test_a_code_used_a_moment_before_it_expires_works(uow, policy, clock):
    issued = issue_code(IssueScreenCode(TABLE, "Left", "staff:sam"), uow, policy)
    clock.move(minutes=9, seconds=59)
    assert enrol_screen(EnrolScreen(issued.code), uow, policy).screen["name"] == "Left"


def test_a_code_nobody_issued_is_refused_and_recorded_without_it(uow, policy):
    with pytest.raises(Invalid) as refused:
        enrol_screen(EnrolScreen("ABCDE-FGHJK", "203.0.113.4"), uow, policy)
    assert refused.value.code == "unknown_code" and refused.value.audit.payload == {
        "reason": "unknown_code", "address": "203.0.113.4"}
    with pytest.raises(Invalid) as malformed:
        enrol_screen(EnrolScreen("12"), uow, policy)
    assert malformed.value.code == "invalid_code" and malformed.value.audit is None


@pytest.mark.parametrize("name, field", [("", "name"), ("x" * 65, "name"), ("Left\u202e", "name")])
def test_a_screens_name_is_checked(uow, policy, name, field):
    with pytest.raises(Invalid) as refused:
        issue_code(IssueScreenCode(TABLE, name, "staff:sam"), uow, policy)
    assert set(refused.value.errors) == {field}


def test_a_code_is_for_a_table_that_exists_and_a_name_no_live_screen_there_has(uow, policy, enrolled):
    with pytest.raises(NotFound):
        issue_code(IssueScreenCode("T9", "Left", "staff:sam"), uow, policy)
    enrolled("Left")
    with pytest.raises(Conflict) as taken:
        issue_code(IssueScreenCode(TABLE, "Left", "staff:sam"), uow, policy)
    assert set(taken.value.errors) == {"name"}
    assert issue_code(IssueScreenCode("T2", "Left", "staff:sam"), uow, policy).name == "Left"


def test_two_codes_for_one_name_enrol_one_screen(uow, policy):
    first = issue_code(IssueScreenCode(TABLE, "Left", "staff:sam"), uow, policy)
    second = issue_code(IssueScreenCode(TABLE, "Left", "staff:ann"), uow, policy)
    enrol_screen(EnrolScreen(first.code), uow, policy)
    with pytest.raises(Conflict) as refused:
        enrol_screen(EnrolScreen(second.code), uow, policy)
    assert refused.value.code == "screen_name_taken"


def test_a_revoked_screen_is_no_screen_at_its_next_request(uow, policy, enrolled):
    token = enrolled("Left")
    screen_id = visit_screen(VisitScreen(token, None), uow, policy).screen.screen_id
    with pytest.raises(Invalid) as no_reason:
        revoke_screen(RevokeScreen(TABLE, screen_id, "  ", "staff:sam"), uow)
    assert set(no_reason.value.errors) == {"reason"}
    with pytest.raises(NotFound):
        revoke_screen(RevokeScreen("T2", screen_id, "stolen", "staff:sam"), uow)
    revoked = revoke_screen(RevokeScreen(TABLE, screen_id, "stolen", "staff:sam"), uow)
    assert revoked["revoked_by"] == "staff:sam" and revoked["revoke_reason"] == "stolen"
    assert visit_screen(VisitScreen(token, None), uow, policy) is None
    assert chain(uow)[-1].kind == "screen_revoked" and chain(uow)[-1].payload["reason"] == "stolen"
    with pytest.raises(Conflict):
        revoke_screen(RevokeScreen(TABLE, screen_id, "again", "staff:sam"), uow)
    with pytest.raises(NotFound):
        revoke_screen(RevokeScreen(TABLE, uuid.uuid4(), "nothing", "staff:sam"), uow)


def test_enrolling_a_browser_again_revokes_the_screen_it_was(uow, policy, enrolled):
    old = enrolled("Left")
    issued = issue_code(IssueScreenCode("T2", "Centre", "staff:ann"), uow, policy)
    new = enrol_screen(EnrolScreen(issued.code, previous_token=old), uow, policy)
    assert visit_screen(VisitScreen(old, None), uow, policy) is None
    assert visit_screen(VisitScreen(new.token, None), uow, policy).screen.table_id == "T2"
    assert kinds(uow)[-1] == "screen_revoked" and kinds(uow, "T2")[-1] == "screen_enrolled"
    listed = screens_of(uow, TABLE, policy)
    assert [(s["name"], s["revoked_by"]) for s in listed] == [("Left", "staff:ann")]
