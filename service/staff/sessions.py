"""Signing in and out, and the check of a session on every request: failures counted per account
and source address under the account's row lock, the lock (of that account from that address)
after too many in a row, each attempt an audit record (never the password). Whatever failed, the
person is told the same, after the same work: a locked account, an unknown name and a wrong
password cannot be told apart from outside."""
from __future__ import annotations

import logging
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from ..roles import CONSOLE_ROLES
from ..store.repositories.audit import AuditRecord, chain_for
from ..store.repositories.staff import SessionHolder, StaffRow
from ..store.uow import UnitOfWork
from .accounts import USERNAME, normal_username
from .commands import SignIn, SignOut, TouchSession
from .keys import UnreadableSecret
from .passwords import MAX_LENGTH, totp_step
from .policy import StaffPolicy

log = logging.getLogger(__name__)


class SignInOutcome(StrEnum):
    SIGNED_IN = "signed_in"
    FAILED = "failed"           # whatever the reason, a lock included: the person is told only that it failed
    NOT_FOR_CONSOLE = "not_for_console"   # the right PIN of a dealer, who signs in at a table's screen


@dataclass(frozen=True, slots=True)
class SignInResult:
    outcome: SignInOutcome
    token: str | None = None            # the new session's token (signed in only): the cookie's value
    session_id: uuid.UUID | None = None


def staff_actor(username: str) -> str:
    """The actor a person's actions are recorded under."""
    return f"staff:{username}"


@dataclass(frozen=True, slots=True)
class Attempts:
    """Where a way of signing in records its attempts: the console's on the system chain as
    `staff_...` records, a dealer's screen's on its table's chain as `dealer_...` records."""
    prefix: str = "staff"
    table_id: str | None = None

    def record(self, uow: UnitOfWork, what: str, username: str, address: str | None, **details: object) -> None:
        # The attempt is nobody's until it succeeds: the username tried is in the record, no actor.
        uow.audit.append(chain_for(self.table_id), [AuditRecord(f"{self.prefix}_{what}", {
            "username": username, "address": address, **details}, table_id=self.table_id)])


CONSOLE = Attempts()


def sign_in(cmd: SignIn, uow: UnitOfWork, policy: StaffPolicy) -> SignInResult:
    """Check a person's password (and TOTP code when enrolled) and open a session. The result is
    the caller's to commit whatever it is: a failure's count and audit record are kept too."""
    username = normal_username(cmd.username)[:64]
    # A name no account can have (a NUL, which PostgreSQL refuses in text, among them) is looked up
    # nowhere: it fails as an unknown one does.
    row = uow.staff.lock(username) if USERNAME.match(username) else None
    if row is None or not row.active or len(cmd.password) > MAX_LENGTH:
        policy.passwords.spend_verification(cmd.password[:MAX_LENGTH])
        reason = "unknown_account" if row is None else ("deactivated" if not row.active else "too_long")
        CONSOLE.record(uow, "sign_in_failed", username, cmd.address, reason=reason)
        return SignInResult(SignInOutcome.FAILED)
    now = policy.clock()
    address = cmd.address or ""
    failed = uow.staff.failures_from(row.user_id, address)
    # The password is checked even when locked, so a lock costs the answer the same time.
    password_right = policy.passwords.verify(row.password_hash, cmd.password)
    if failed.locked_until is not None and failed.locked_until > now:
        CONSOLE.record(uow, "sign_in_failed", username, cmd.address, reason="locked")
        return SignInResult(SignInOutcome.FAILED)
    if not password_right:
        _failure(uow, row, failed.failures, cmd, policy, now, "wrong_password")
        return SignInResult(SignInOutcome.FAILED)
    if row.role not in CONSOLE_ROLES:
        # Told in words, once the PIN is right (so the words tell a stranger nothing): a dealer
        # deals at an enrolled screen, and opens no console page.
        CONSOLE.record(uow, "sign_in_failed", username, cmd.address, reason="not_a_console_role", role=row.role)
        return SignInResult(SignInOutcome.NOT_FOR_CONSOLE)
    step = None
    if row.totp_secret is not None:
        try:
            secret = policy.keys.unseal(row.totp_secret)
        except UnreadableSecret:
            # Stored in clear or under another key: nobody signs in with it until it is sealed
            # (`pontoon users seal-totp`) or the person enrols again.
            log.error("the TOTP secret of %s is not sealed with this service's key", row.username)
            _failure(uow, row, failed.failures, cmd, policy, now, "totp_unreadable")
            return SignInResult(SignInOutcome.FAILED)
        step = totp_step(secret, cmd.totp, now)
        if step is None or (row.totp_last_step is not None and step <= row.totp_last_step):
            # A code seen before (over someone's shoulder, or replayed) is as bad as a wrong one.
            reason = "totp_missing" if not cmd.totp.strip() else ("wrong_totp" if step is None else "totp_reused")
            _failure(uow, row, failed.failures, cmd, policy, now, reason)
            return SignInResult(SignInOutcome.FAILED)
    uow.staff.clear_failures(row.user_id, address)
    uow.staff.record_sign_in(row.user_id, totp_step=step, password_hash=policy.passwords.hash(cmd.password)
                             if policy.passwords.needs_rehash(row.password_hash) else None)
    token = secrets.token_urlsafe(32)
    session_id = uow.staff.open_session(row.user_id, policy.keys.session_hash(token))
    uow.audit.append(chain_for(None), [AuditRecord("staff_signed_in", {
        "user_id": str(row.user_id), "username": row.username, "session_id": str(session_id),
        "address": cmd.address}, actor=staff_actor(row.username))])
    return SignInResult(SignInOutcome.SIGNED_IN, token, session_id)


def _failure(uow: UnitOfWork, row: StaffRow, before: int, cmd: SignIn, policy: StaffPolicy, now: datetime,
             reason: str) -> None:
    count_failure(uow, row, before, cmd.address, policy, now, reason, CONSOLE)


def count_failure(uow: UnitOfWork, row: StaffRow, before: int, address: str | None, policy: StaffPolicy,
                  now: datetime, reason: str, attempts: Attempts) -> None:
    """One more failure in a row from this address; the one that reaches the policy's count locks
    the account against this address (and starts the count again, for after the lock)."""
    failures = before + 1
    locks = failures >= policy.max_failures
    locked_until = now + policy.lock if locks else None
    uow.staff.record_failure(row.user_id, address or "", failures=0 if locks else failures,
                             locked_until=locked_until)
    attempts.record(uow, "sign_in_failed", row.username, address, reason=reason, failures_in_a_row=failures)
    if locked_until is not None:
        attempts.record(uow, "locked", row.username, address, failures_in_a_row=failures,
                        locked_until=locked_until.isoformat(timespec="seconds"))


def sign_out(cmd: SignOut, uow: UnitOfWork, policy: StaffPolicy) -> bool:
    """End the session holding this token; False when there was no live one."""
    found = uow.staff.session_of(policy.keys.session_hash(cmd.token))
    if found is None:
        return False
    session_id, user_id = found.session_id, found.user_id
    if not uow.staff.end_session(session_id, "signed_out"):
        return False
    row = uow.staff.get_by_id(user_id)
    username = row.username if row else str(user_id)
    uow.audit.append(chain_for(None), [AuditRecord("staff_signed_out", {
        "user_id": str(user_id), "username": username, "session_id": str(session_id), "address": cmd.address},
        actor=staff_actor(username))])
    return True


def touch_session(cmd: TouchSession, uow: UnitOfWork, policy: StaffPolicy) -> SessionHolder | None:
    """The live session holding the token and who holds it, or None: no session, ended, idle or
    too old, or its account deactivated. Only a person's own requests count as activity: a floor
    left refreshing itself on an unattended screen still times out."""
    if not cmd.token or len(cmd.token) > 128:
        return None
    return uow.staff.touch_session(policy.keys.session_hash(cmd.token), idle=policy.idle, absolute=policy.absolute,
                                   seen=cmd.activity)
