"""A dealer signing in and out on an enrolled screen, and the check of both on every request. A PIN
is checked as a console password is: failures counted per account and source address, the lock
after too many in a row, the same answer whatever failed. A signed-in dealer deals at the screen's
table alone; each attempt is an audit record on that table's chain (never the PIN)."""
from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass
from enum import StrEnum

from ..roles import Role
from ..staff.accounts import USERNAME, dealer_left, normal_username
from ..staff.passwords import MAX_LENGTH
from ..staff.policy import StaffPolicy
from ..staff.sessions import Attempts, count_failure, staff_actor
from ..store.repositories.audit import AuditRecord, chain_for
from ..store.repositories.screens import ScreenRow, ScreenVisit
from ..store.uow import UnitOfWork
from .commands import DealerSignIn, DealerSignOut, VisitScreen

TOKEN_LIMIT = 128       # longer than any token this service makes: looked up nowhere


class DealerOutcome(StrEnum):
    SIGNED_IN = "signed_in"
    FAILED = "failed"               # whatever the reason, a lock included: the dealer is told only that it failed
    NOT_A_DEALER = "not_a_dealer"   # the right password of console staff, who cannot deal
    NO_SCREEN = "no_screen"         # the browser is no live enrolled screen (never enrolled, or revoked)


@dataclass(frozen=True, slots=True)
class DealerSignInResult:
    outcome: DealerOutcome
    token: str | None = None            # the new session's token (signed in only): the session cookie's value
    session_id: uuid.UUID | None = None
    screen: ScreenRow | None = None


def visit_screen(cmd: VisitScreen, uow: UnitOfWork, policy: StaffPolicy) -> ScreenVisit | None:
    """The live screen whose token the browser holds, marked seen, and the dealer whose live
    session on it the browser holds (None: nobody signed in); None when it is no live screen."""
    if not cmd.screen_token or len(cmd.screen_token) > TOKEN_LIMIT:
        return None
    session = cmd.session_token if cmd.session_token and len(cmd.session_token) <= TOKEN_LIMIT else None
    return uow.screens.visit(policy.keys.session_hash(cmd.screen_token),
                             policy.keys.session_hash(session) if session else None,
                             idle=policy.idle, absolute=policy.absolute, seen=cmd.activity)


def sign_in_dealer(cmd: DealerSignIn, uow: UnitOfWork, policy: StaffPolicy) -> DealerSignInResult:
    """Check a dealer's PIN on a live screen and open their session there. The dealer signed in
    on the screen before (the one relieved) and the dealer's own session at any other screen end.
    The result is the caller's to commit whatever it is: a failure's count and record are kept too."""
    screen = (uow.screens.live_of_token(policy.keys.session_hash(cmd.screen_token))
              if cmd.screen_token and len(cmd.screen_token) <= TOKEN_LIMIT else None)
    if screen is None:
        return DealerSignInResult(DealerOutcome.NO_SCREEN)
    attempts = Attempts("dealer", screen.table_id)
    where = {"screen_id": str(screen.screen_id), "screen": screen.name}
    username = normal_username(cmd.username)[:64]
    row = uow.staff.lock(username) if USERNAME.match(username) else None
    if row is None or not row.active or len(cmd.pin) > MAX_LENGTH:
        policy.passwords.spend_verification(cmd.pin[:MAX_LENGTH])
        reason = "unknown_account" if row is None else ("deactivated" if not row.active else "too_long")
        attempts.record(uow, "sign_in_failed", username, cmd.address, reason=reason, **where)
        return DealerSignInResult(DealerOutcome.FAILED, screen=screen)
    now = policy.clock()
    address = cmd.address or ""
    failed = uow.staff.failures_from(row.user_id, address)
    # The PIN is checked even when locked, so a lock costs the answer the same time.
    pin_right = policy.passwords.verify(row.password_hash, cmd.pin)
    if failed.locked_until is not None and failed.locked_until > now:
        attempts.record(uow, "sign_in_failed", username, cmd.address, reason="locked", **where)
        return DealerSignInResult(DealerOutcome.FAILED, screen=screen)
    if not pin_right:
        count_failure(uow, row, failed.failures, cmd.address, policy, now, "wrong_pin", attempts)
        return DealerSignInResult(DealerOutcome.FAILED, screen=screen)
    if row.role != Role.DEALER:
        # Told in words once the password is right (so the words tell a stranger nothing).
        attempts.record(uow, "sign_in_failed", username, cmd.address, reason="not_a_dealer", role=row.role, **where)
        return DealerSignInResult(DealerOutcome.NOT_A_DEALER, screen=screen)
    uow.staff.clear_failures(row.user_id, address)
    uow.staff.record_sign_in(row.user_id, password_hash=policy.passwords.hash(cmd.pin)
                             if policy.passwords.needs_rehash(row.password_hash) else None)
    actor = staff_actor(row.username)
    records: dict[str, list[AuditRecord]] = {}
    # One dealer at a screen, and a dealer at one screen: whoever dealt here is relieved, and the
    # dealer's session at another table ends.
    for ended in uow.screens.end_sessions_on_screen(screen.screen_id, "relieved"):
        reason = "signed_in_again" if ended.user_id == row.user_id else "relieved"
        records.setdefault(chain_for(ended.table_id), []).append(dealer_left(ended, reason, actor))
    for ended in uow.screens.end_sessions_of(row.user_id, "signed_in_elsewhere"):
        records.setdefault(chain_for(ended.table_id), []).append(dealer_left(ended, "signed_in_elsewhere", actor))
    token = secrets.token_urlsafe(32)
    session_id = uow.screens.open_session(user_id=row.user_id, screen_id=screen.screen_id,
                                          token_hash=policy.keys.session_hash(token), address=cmd.address)
    records.setdefault(chain_for(screen.table_id), []).append(AuditRecord("dealer_signed_in", {
        "user_id": str(row.user_id), "username": row.username, "session_id": str(session_id), **where,
        "address": cmd.address}, actor=actor, table_id=screen.table_id))
    uow.audit.append_by_chain(records)
    return DealerSignInResult(DealerOutcome.SIGNED_IN, token, session_id, screen)


def sign_out_dealer(cmd: DealerSignOut, uow: UnitOfWork, policy: StaffPolicy) -> bool:
    """End the dealer's session holding this token; False when there was no open one."""
    if not cmd.session_token or len(cmd.session_token) > TOKEN_LIMIT:
        return False
    ended = uow.screens.end_session_holding(policy.keys.session_hash(cmd.session_token), "signed_out")
    if ended is None:
        return False
    uow.audit.append(chain_for(ended.table_id), [dealer_left(ended, "signed_out", staff_actor(ended.username),
                                                             address=cmd.address)])
    return True
