"""A person confirming, at the moment of a decision, that it is them: their password again (and
their authenticator's code when they enrolled one). A failure counts toward the sign-in lock as
a failed sign-in does, from the same address, and is recorded; a locked account confirms nothing."""
from __future__ import annotations

from dataclasses import dataclass
from typing import NoReturn

from ..refusals import Forbidden
from ..store.repositories.staff import StaffRow
from ..store.uow import UnitOfWork
from .keys import UnreadableSecret
from .passwords import MAX_LENGTH, totp_step
from .policy import StaffPolicy
from .sessions import CONSOLE, count_failure


@dataclass(frozen=True, slots=True)
class Confirmation:
    password: str
    totp: str = ""
    address: str | None = None          # where the request came from: failures are counted per address


def confirm(uow: UnitOfWork, person: StaffRow, confirmation: Confirmation, policy: StaffPolicy, what: str) -> None:
    """Hold `person` to their password (and TOTP code) for `what`, or refuse (403 not_confirmed),
    the failure counted and recorded in a transaction of its own."""
    row = uow.staff.lock_by_id(person.user_id) or person
    now = policy.clock()
    address = confirmation.address or ""
    failed = uow.staff.failures_from(row.user_id, address)
    password = confirmation.password[:MAX_LENGTH + 1]
    right = len(password) <= MAX_LENGTH and policy.passwords.verify(row.password_hash, password)
    if failed.locked_until is not None and failed.locked_until > now:
        _refuse(row, what, "locked", confirmation, policy, counted=False,
                told="the account is locked after too many failed sign-ins: try again later")
    if not right:
        _refuse(row, what, "wrong_password", confirmation, policy, told="not your password", field="password")
    step = None
    if row.totp_secret is not None:
        try:
            step = totp_step(policy.keys.unseal(row.totp_secret), confirmation.totp, now)
        except UnreadableSecret:
            _refuse(row, what, "totp_unreadable", confirmation, policy, field="totp",
                    told="your second factor cannot be read: enrol it again")
        if step is None or (row.totp_last_step is not None and step <= row.totp_last_step):
            reason = ("totp_missing" if not confirmation.totp.strip() else
                      "wrong_totp" if step is None else "totp_reused")
            _refuse(row, what, reason, confirmation, policy, field="totp",
                    told="your authenticator's current code is needed too" if reason == "totp_missing" else
                    "not the code your authenticator shows now (each code works once)")
        uow.staff.set_totp_secret(row.user_id, row.totp_secret, step)   # the code is spent
    uow.staff.clear_failures(row.user_id, address)


def _refuse(row: StaffRow, what: str, reason: str, confirmation: Confirmation, policy: StaffPolicy, *,
            told: str, field: str = "password", counted: bool = True) -> NoReturn:
    def keep(uow: UnitOfWork) -> None:
        locked = uow.staff.lock_by_id(row.user_id) or row
        before = uow.staff.failures_from(locked.user_id, confirmation.address or "").failures
        if counted:
            count_failure(uow, locked, before, confirmation.address, policy, policy.clock(), f"confirmation_{reason}",
                          CONSOLE)
        else:
            CONSOLE.record(uow, "sign_in_failed", locked.username, confirmation.address,
                           reason=f"confirmation_{reason}")

    raise Forbidden(f"{what} needs {row.username}'s own confirmation: {told}", code="not_confirmed",
                    errors={field: [told]}, keep=keep)
