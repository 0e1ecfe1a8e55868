"""Signing in and out: the failure count, the lock after too many failures in a row, the second
factor, session lengths, and what each leaves in the audit log."""
from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pyotp
import pytest

from service.refusals import Conflict, Invalid
from service.staff.accounts import create_staff
from service.staff.commands import (
    ChangePassword,
    CreateStaff,
    EnrolTotp,
    RemoveTotp,
    SignIn,
    SignOut,
    TouchSession,
)
from service.staff.credentials import change_password, enrol_totp, remove_totp
from service.staff.sessions import SignInOutcome, sign_in, sign_out, touch_session
from service.store.repositories.staff import SignInFailures

from .fake_staff import CHEAP

PASSWORD = "correct horse battery"
POLICY = CHEAP


@pytest.fixture
def alice(uow):
    create_staff(CreateStaff("alice", "supervisor", "cli", password=PASSWORD), uow, POLICY)
    return uow.staff.get("alice")


def kinds(uow):
    return [record.kind for record in uow.audit.records.get("system", [])]


def test_a_sign_in_opens_a_session_in_the_persons_name(uow, alice):
    result = sign_in(SignIn("alice", PASSWORD, address="10.0.0.7"), uow, POLICY)
    assert result.outcome is SignInOutcome.SIGNED_IN and result.token
    holder = touch_session(TouchSession(result.token), uow, POLICY)
    assert holder.username == "alice" and holder.role == "supervisor"
    record = uow.audit.records["system"][-1]
    assert record.kind == "staff_signed_in" and record.actor == "staff:alice"
    assert record.payload["address"] == "10.0.0.7" and PASSWORD not in repr(record)
    assert uow.staff.get("alice").last_sign_in_at is not None


def test_each_sign_in_is_a_new_session(uow, alice):
    first = sign_in(SignIn("alice", PASSWORD), uow, POLICY)
    second = sign_in(SignIn("alice", PASSWORD), uow, POLICY)
    assert first.token != second.token and first.session_id != second.session_id


def failures(uow, username, address=""):
    return uow.staff.failures_from(uow.staff.get(username).user_id, address)


def test_five_failures_in_a_row_lock_the_account_from_that_address_even_against_the_right_password(uow, alice):
    outcomes = [sign_in(SignIn("alice", f"wrong password {n}", address="203.0.113.9"), uow, POLICY).outcome
                for n in range(5)]
    assert outcomes == [SignInOutcome.FAILED] * 5
    refused = sign_in(SignIn("alice", PASSWORD, address="203.0.113.9"), uow, POLICY)
    assert refused.outcome is SignInOutcome.FAILED and refused.token is None
    assert kinds(uow).count("staff_sign_in_failed") == 6 and kinds(uow).count("staff_locked") == 1
    assert uow.audit.records["system"][-1].payload["reason"] == "locked"
    assert all(PASSWORD not in repr(record) and "wrong password" not in repr(record)
               for record in uow.audit.records["system"])
    # The lock ends: the right password works again and the count starts afresh.
    locked_until = failures(uow, "alice", "203.0.113.9").locked_until
    after_the_lock = dataclasses.replace(POLICY, clock=lambda: locked_until + timedelta(seconds=1))
    assert sign_in(SignIn("alice", PASSWORD, address="203.0.113.9"), uow, after_the_lock).outcome \
        is SignInOutcome.SIGNED_IN
    assert failures(uow, "alice", "203.0.113.9") == SignInFailures(0, None)


def test_a_strangers_failures_do_not_lock_the_account_out_from_its_owners_address(uow, alice):
    for n in range(7):
        sign_in(SignIn("alice", f"guess {n}", address="198.51.100.66"), uow, POLICY)
    assert kinds(uow).count("staff_locked") == 1
    assert sign_in(SignIn("alice", PASSWORD, address="10.0.0.7"), uow, POLICY).outcome is SignInOutcome.SIGNED_IN
    assert sign_in(SignIn("alice", PASSWORD, address="198.51.100.66"), uow, POLICY).outcome is SignInOutcome.FAILED


def test_a_locked_account_answers_as_a_wrong_password_does_after_the_same_work(uow, alice):
    class CountingHashing(type(POLICY.passwords)):
        verified = 0

        def verify(self, password_hash, password):
            CountingHashing.verified += 1
            return super().verify(password_hash, password)

    counting = dataclasses.replace(POLICY, passwords=CountingHashing(POLICY.passwords.hasher))
    for n in range(5):
        sign_in(SignIn("alice", f"wrong password {n}"), uow, counting)
    CountingHashing.verified = 0
    locked = sign_in(SignIn("alice", PASSWORD), uow, counting)
    locked_work = CountingHashing.verified
    CountingHashing.verified = 0
    wrong = sign_in(SignIn("alice", "wrong password", address="10.0.0.8"), uow, counting)
    assert locked == wrong == type(locked)(SignInOutcome.FAILED)
    assert locked_work == CountingHashing.verified == 1


def test_a_success_clears_the_count_so_only_failures_in_a_row_lock(uow, alice):
    for _ in range(4):
        sign_in(SignIn("alice", "wrong password!"), uow, POLICY)
    sign_in(SignIn("alice", PASSWORD), uow, POLICY)
    for _ in range(4):
        assert sign_in(SignIn("alice", "wrong password!"), uow, POLICY).outcome is SignInOutcome.FAILED
    assert kinds(uow).count("staff_locked") == 0


def test_the_count_and_the_lock_are_configurable(uow, alice):
    now = datetime(2026, 3, 2, 21, 0, tzinfo=UTC)
    policy = dataclasses.replace(CHEAP, max_failures=2, lock=timedelta(minutes=1), clock=lambda: now)
    sign_in(SignIn("alice", "wrong password!"), uow, policy)
    sign_in(SignIn("alice", "wrong password!"), uow, policy)
    assert failures(uow, "alice") == SignInFailures(0, now + timedelta(minutes=1))
    still = dataclasses.replace(policy, clock=lambda: now + timedelta(seconds=59))
    assert sign_in(SignIn("alice", PASSWORD), uow, still).outcome is SignInOutcome.FAILED
    over = dataclasses.replace(policy, clock=lambda: now + timedelta(minutes=1, seconds=1))
    assert sign_in(SignIn("alice", PASSWORD), uow, over).outcome is SignInOutcome.SIGNED_IN


def test_an_unknown_username_fails_like_a_wrong_password_and_is_recorded(uow, alice):
    result = sign_in(SignIn("mallory", PASSWORD), uow, POLICY)
    assert result.outcome is SignInOutcome.FAILED
    record = uow.audit.records["system"][-1]
    assert record.payload["username"] == "mallory" and record.payload["reason"] == "unknown_account"
    assert record.actor is None


def test_sign_out_ends_the_session_at_once(uow, alice):
    result = sign_in(SignIn("alice", PASSWORD), uow, POLICY)
    assert sign_out(SignOut(result.token), uow, POLICY)
    assert touch_session(TouchSession(result.token), uow, POLICY) is None
    assert not sign_out(SignOut(result.token), uow, POLICY)
    assert kinds(uow).count("staff_signed_out") == 1


def test_a_session_ends_when_idle_too_long_or_too_old(uow, alice):
    idle = sign_in(SignIn("alice", PASSWORD), uow, POLICY)
    uow.staff.sessions[idle.session_id].last_seen_at -= POLICY.idle + timedelta(seconds=1)
    assert touch_session(TouchSession(idle.token), uow, POLICY) is None
    old = sign_in(SignIn("alice", PASSWORD), uow, POLICY)
    uow.staff.sessions[old.session_id].created_at -= POLICY.absolute
    assert touch_session(TouchSession(old.token), uow, POLICY) is None
    busy = sign_in(SignIn("alice", PASSWORD), uow, POLICY)
    uow.staff.sessions[busy.session_id].last_seen_at -= POLICY.idle - timedelta(minutes=1)
    assert touch_session(TouchSession(busy.token), uow, POLICY) is not None


def test_changing_the_password_needs_the_current_one_and_ends_the_other_sessions(uow, alice):
    mine = sign_in(SignIn("alice", PASSWORD), uow, POLICY)
    elsewhere = sign_in(SignIn("alice", PASSWORD), uow, POLICY)
    with pytest.raises(Invalid) as refused:
        change_password(ChangePassword(alice.user_id, "not it at all", "short", mine.session_id), uow, POLICY)
    assert set(refused.value.errors) == {"current_password", "new_password"}
    change_password(ChangePassword(alice.user_id, PASSWORD, "a much better passphrase", mine.session_id), uow, POLICY)
    assert touch_session(TouchSession(mine.token), uow, POLICY) is not None
    assert touch_session(TouchSession(elsewhere.token), uow, POLICY) is None
    assert sign_in(SignIn("alice", "a much better passphrase"), uow, POLICY).outcome is SignInOutcome.SIGNED_IN
    assert "staff_password_changed" in kinds(uow)


def test_a_second_factor_once_enrolled_is_asked_for_and_a_wrong_code_counts_as_a_failure(uow, alice):
    secret = pyotp.random_base32()
    with pytest.raises(Invalid) as refused:
        enrol_totp(EnrolTotp(alice.user_id, secret, "000000" if pyotp.TOTP(secret).now() != "000000" else "111111",
                             PASSWORD), uow, POLICY)
    assert "code" in refused.value.errors
    enrol_totp(EnrolTotp(alice.user_id, secret, pyotp.TOTP(secret).now(), PASSWORD), uow, POLICY)
    assert sign_in(SignIn("alice", PASSWORD), uow, POLICY).outcome is SignInOutcome.FAILED
    assert failures(uow, "alice") == SignInFailures(1, None)
    next_code = pyotp.TOTP(secret).at(datetime.now(UTC), counter_offset=1)   # the enrolment spent now's
    result = sign_in(SignIn("alice", PASSWORD, totp=next_code), uow, POLICY)
    assert result.outcome is SignInOutcome.SIGNED_IN
    assert touch_session(TouchSession(result.token), uow, POLICY).totp_enrolled
    assert secret not in repr(uow.audit.records["system"])


def test_each_code_signs_in_once(uow, alice):
    secret = pyotp.random_base32()
    totp = pyotp.TOTP(secret)
    enrol_totp(EnrolTotp(alice.user_id, secret, totp.at(datetime.now(UTC), counter_offset=-1), PASSWORD), uow, POLICY)
    code = totp.now()
    assert sign_in(SignIn("alice", PASSWORD, totp=code), uow, POLICY).outcome is SignInOutcome.SIGNED_IN
    assert sign_in(SignIn("alice", PASSWORD, totp=code), uow, POLICY).outcome is SignInOutcome.FAILED
    assert uow.audit.records["system"][-1].payload["reason"] == "totp_reused"


def test_removing_the_second_factor_needs_the_password_and_is_refused_where_the_role_needs_one(uow, alice):
    secret = pyotp.random_base32()
    enrol_totp(EnrolTotp(alice.user_id, secret, pyotp.TOTP(secret).now(), PASSWORD), uow, POLICY)
    with pytest.raises(Conflict):
        needs_one = dataclasses.replace(CHEAP, totp_roles=frozenset({"supervisor"}))
        remove_totp(RemoveTotp(alice.user_id, PASSWORD), uow, needs_one)
    with pytest.raises(Invalid):
        remove_totp(RemoveTotp(alice.user_id, "not the password"), uow, POLICY)
    remove_totp(RemoveTotp(alice.user_id, PASSWORD), uow, POLICY)
    assert uow.staff.get("alice").totp_secret is None
    assert kinds(uow)[-2:] == ["staff_totp_enrolled", "staff_totp_removed"]
