"""Admins' changes to staff accounts: what may be created, the last admin kept, sessions ended by a
deactivation or a password reset, and an audit record for each that never holds a password."""
from __future__ import annotations

import pytest

from service.refusals import Conflict, Invalid, NotFound
from service.staff.accounts import change_role, create_staff, deactivate_staff, list_staff, reset_password
from service.staff.commands import ChangeRole, CreateStaff, DeactivateStaff, ResetPassword, SignIn
from service.staff.sessions import SignInOutcome, sign_in

from .fake_staff import CHEAP

PASSWORD = "correct horse battery"


def make(uow, username="alice", role="operator", password=PASSWORD):
    return create_staff(CreateStaff(username, role, "staff:root", password=password), uow, CHEAP)


def audit(uow):
    return uow.audit.records.get("system", [])


def test_an_account_is_created_with_its_password_hashed_and_recorded_without_it(uow):
    issued = make(uow, username="  Alice ", role="supervisor")
    row = uow.staff.get("alice")
    assert issued.account["username"] == "alice" and not issued.generated
    assert row.role == "supervisor" and row.active and row.display_name == "alice"
    assert row.password_hash != PASSWORD and CHEAP.passwords.verify(row.password_hash, PASSWORD)
    [record] = audit(uow)
    assert record.kind == "staff_created" and record.actor == "staff:root"
    assert record.payload["username"] == "alice" and PASSWORD not in repr(record)


def test_without_a_password_one_is_generated_and_handed_back_once(uow):
    issued = create_staff(CreateStaff("bob", "compliance", "cli"), uow, CHEAP)
    assert issued.generated and len(issued.password) >= 12
    assert CHEAP.passwords.verify(uow.staff.get("bob").password_hash, issued.password)
    assert issued.password not in repr(audit(uow))


@pytest.mark.parametrize("username, role, password, fields", [
    ("alice", "operator", "short", {"password"}),
    ("alice", "terminal", PASSWORD, {"role"}),
    ("9lives", "operator", PASSWORD, {"username"}),
    ("a", "operator", PASSWORD, {"username"}),
    ("alice", "operator", "alice", {"password"}),
    ("x y", "croupier", "tiny", {"username", "role", "password"}),
    ("dana", "dealer", "12345", {"pin"}),
    ("dana", "dealer", "12a456", {"pin"}),
    ("dana", "dealer", "correct horse battery", {"pin"}),
    ("dana", "dealer", "777777", {"pin"}),
    ("dana", "dealer", "456789", {"pin"}),
    ("dana", "dealer", "1234567890123", {"pin"}),
])
def test_a_bad_field_is_named(uow, username, role, password, fields):
    with pytest.raises(Invalid) as refused:
        make(uow, username, role, password)
    assert set(refused.value.errors) == fields
    assert uow.staff.rows == {}


def test_a_taken_username_is_a_conflict_on_that_field(uow):
    make(uow)
    with pytest.raises(Conflict) as refused:
        make(uow, username="ALICE")
    assert "username" in refused.value.errors


def test_deactivation_ends_sessions_and_blocks_sign_in(uow):
    make(uow, role="admin", username="root")
    make(uow)
    first = sign_in(SignIn("alice", PASSWORD), uow, CHEAP)
    deactivate_staff(DeactivateStaff("alice", "staff:root"), uow)
    assert uow.staff.sessions[first.session_id].ended_reason == "deactivated"
    assert sign_in(SignIn("alice", PASSWORD), uow, CHEAP).outcome is SignInOutcome.FAILED
    record = next(r for r in audit(uow) if r.kind == "staff_deactivated")
    assert record.actor == "staff:root" and record.payload["sessions_ended"] == 1
    with pytest.raises(Conflict):
        deactivate_staff(DeactivateStaff("alice", "staff:root"), uow)
    with pytest.raises(NotFound):
        deactivate_staff(DeactivateStaff("nobody", "staff:root"), uow)


def test_the_last_active_admin_is_neither_deactivated_nor_demoted(uow):
    make(uow, username="root", role="admin")
    with pytest.raises(Conflict) as refused:
        deactivate_staff(DeactivateStaff("root", "cli"), uow)
    assert refused.value.code == "last_admin"
    with pytest.raises(Conflict):
        change_role(ChangeRole("root", "operator", "cli"), uow)
    make(uow, username="second", role="admin")
    deactivate_staff(DeactivateStaff("root", "cli"), uow)
    assert not uow.staff.get("root").active


def test_a_password_reset_ends_every_session_and_the_old_password(uow):
    make(uow)
    session = sign_in(SignIn("alice", PASSWORD), uow, CHEAP).session_id
    issued = reset_password(ResetPassword("alice", "staff:root"), uow, CHEAP)
    assert issued.generated and uow.staff.sessions[session].ended_reason == "password_reset"
    assert sign_in(SignIn("alice", PASSWORD), uow, CHEAP).outcome is SignInOutcome.FAILED
    assert sign_in(SignIn("alice", issued.password), uow, CHEAP).outcome is SignInOutcome.SIGNED_IN
    assert issued.password not in repr(audit(uow))
    with pytest.raises(Invalid):
        reset_password(ResetPassword("alice", "staff:root", password="too short"), uow, CHEAP)


def test_a_role_change_is_recorded_from_and_to(uow):
    make(uow)
    change_role(ChangeRole("alice", "supervisor", "staff:root"), uow)
    assert uow.staff.get("alice").role == "supervisor"
    record = audit(uow)[-1]
    assert record.kind == "staff_role_changed" and record.payload["from"] == "operator"
    assert record.payload["to"] == "supervisor"
    with pytest.raises(Conflict):
        change_role(ChangeRole("alice", "supervisor", "staff:root"), uow)
    with pytest.raises(Invalid):
        change_role(ChangeRole("alice", "terminal", "staff:root"), uow)


def test_the_list_shows_no_hash_or_secret(uow):
    make(uow)
    [account] = list_staff(uow)
    assert account["username"] == "alice" and account["totp_enrolled"] is False
    assert not {"password_hash", "totp_secret"} & set(account)


@pytest.mark.parametrize("display_name", ["Nora\x00New", "Nora\nNew", "Nora\u202eweN", "Nora\u2066New", "Nora\x7f"])
def test_a_display_name_with_control_characters_or_direction_marks_is_refused(uow, display_name):
    with pytest.raises(Invalid) as refused:
        create_staff(CreateStaff("nora", "operator", "staff:root", display_name=display_name, password=PASSWORD),
                     uow, CHEAP)
    assert set(refused.value.errors) == {"display_name"}
    assert uow.staff.rows == {}


def test_a_username_with_a_nul_fails_as_an_unknown_one_does(uow):
    make(uow)
    assert sign_in(SignIn("alice\x00", PASSWORD), uow, CHEAP).outcome is SignInOutcome.FAILED
