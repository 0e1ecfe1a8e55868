"""Enrolling a screen for a table: an admin or a supervisor issues a one-time code (good for ten
minutes), the screen redeems it for a device token of its own, and either can be revoked. Each is
an audit record on the table's chain; a code or a token never is."""
from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from ..refusals import Conflict, Invalid, NotFound
from ..staff.accounts import UNPRINTABLE, dealer_left
from ..staff.policy import StaffPolicy
from ..store.repositories.audit import AuditRecord, chain_for
from ..store.repositories.screens import CodeRow, ScreenListing, ScreenRow
from ..store.uow import UnitOfWork
from .commands import EnrolScreen, IssueScreenCode, RevokeScreen

CODE_LIFETIME = timedelta(minutes=10)
# Letters and digits nobody misreads for another (no I, O, 0 or 1): ten of them are 50 random bits,
# out of reach of guessing in ten minutes.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 10
NAME_MAX = 64
REASON_MAX = 500


@dataclass(frozen=True, slots=True)
class IssuedCode:
    """A code just issued: the only time it is seen."""
    table_id: str
    name: str
    code: str                   # as shown: two groups of five, e.g. "KX7PM-Q2RTA"
    expires_at: datetime


@dataclass(frozen=True, slots=True)
class EnrolledScreen:
    """A screen just enrolled, and the token its device cookie holds (only its keyed hash is kept)."""
    screen: dict[str, Any]
    token: str


def shown_code(code: str) -> str:
    return f"{code[:5]}-{code[5:]}"


def normal_code(text: str) -> str:
    """A code as typed (any case, with or without the dash or spaces), as it was made."""
    return "".join(ch for ch in text[:64].upper() if not ch.isspace() and ch != "-")


def screen_view(row: ScreenRow) -> dict[str, Any]:
    """A screen as the console shows it (never its token's hash)."""
    return {"screen_id": row.screen_id, "name": row.name, "table_id": row.table_id, "enrolled_by": row.enrolled_by,
            "enrolled_at": row.enrolled_at, "last_seen_at": row.last_seen_at, "revoked_at": row.revoked_at,
            "revoked_by": row.revoked_by, "revoke_reason": row.revoke_reason}


def _listing_view(listing: ScreenListing) -> dict[str, Any]:
    return {**screen_view(listing.screen), "dealer": listing.dealer_username,
            "dealer_name": listing.dealer_display_name, "dealer_since": listing.dealer_since}


def _text(value: str, field: str, what: str, limit: int, errors: dict[str, list[str]]) -> str:
    text = value.strip()
    if not text:
        errors[field] = [f"give {what}"]
    elif len(text) > limit:
        errors[field] = [f"at most {limit} characters"]
    elif UNPRINTABLE.search(text):
        errors[field] = ["no control characters, line breaks or bidirectional marks"]
    return text


def issue_code(cmd: IssueScreenCode, uow: UnitOfWork, policy: StaffPolicy) -> IssuedCode:
    """A one-time code enrolling one screen, named `cmd.name`, for the table, good until
    CODE_LIFETIME from now (by the policy's clock)."""
    errors: dict[str, list[str]] = {}
    name = _text(cmd.name, "name", "the screen a name (e.g. where it stands)", NAME_MAX, errors)
    if errors:
        raise Invalid("the screen's code cannot be issued as asked", code="invalid_screen", errors=errors)
    if uow.tables.get(cmd.table_id) is None:
        raise NotFound(f"no table {cmd.table_id!r}", code="table_not_found")
    if uow.screens.live_named(cmd.table_id, name):
        raise Conflict(f"a screen named {name!r} is enrolled at table {cmd.table_id} already", code="screen_name_taken",
                       errors={"name": ["a live screen at this table has this name: choose another, or revoke it"]})
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    expires_at = policy.clock() + CODE_LIFETIME
    uow.screens.add_code(code_hash=policy.keys.session_hash(code), table_id=cmd.table_id, name=name,
                         created_by=cmd.actor, expires_at=expires_at)
    uow.audit.append(chain_for(cmd.table_id), [AuditRecord("screen_code_issued", {
        "name": name, "expires_at": expires_at.isoformat(timespec="seconds")}, actor=cmd.actor,
        table_id=cmd.table_id)])
    return IssuedCode(cmd.table_id, name, shown_code(code), expires_at)


def enrol_screen(cmd: EnrolScreen, uow: UnitOfWork, policy: StaffPolicy) -> EnrolledScreen:
    """Redeem a code: a new screen for its table, under its name, and the device token that names
    it from now on. A code works once, within its ten minutes. A browser enrolled before (its old
    token given) is that screen no longer: the old one is revoked."""
    code = normal_code(cmd.code)
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        raise Invalid("not a screen's code", code="invalid_code",
                      errors={"code": [f"{CODE_LENGTH} letters and digits, as the console showed them"]})
    found = uow.screens.lock_code(policy.keys.session_hash(code))
    now = policy.clock()
    if found is None:
        raise Invalid("no such code", code="unknown_code",
                      errors={"code": ["not a code the console issued: check it, or ask for a new one"]},
                      audit=AuditRecord("screen_enrolment_refused", {"reason": "unknown_code", "address": cmd.address}))
    if found.used_at is not None or found.expires_at <= now:
        used = found.used_at is not None
        raise Conflict("this code was used already: ask for a new one" if used
                       else "this code has expired (a code is good for ten minutes): ask for a new one",
                       code="code_used" if used else "code_expired",
                       errors={"code": ["used already: ask for a new one" if used else "expired: ask for a new one"]},
                       audit=_refused(found, "code_used" if used else "code_expired", cmd.address))
    token = secrets.token_urlsafe(32)
    screen = uow.screens.add_screen(name=found.name, table_id=found.table_id,
                                    token_hash=policy.keys.session_hash(token), enrolled_by=found.created_by)
    if screen is None:
        raise Conflict(f"a screen named {found.name!r} was enrolled at table {found.table_id} meanwhile: ask for a "
                       "code under another name", code="screen_name_taken",
                       errors={"code": ["its screen's name is taken now: ask for a new code"]},
                       audit=_refused(found, "name_taken", cmd.address))
    uow.screens.use_code(found.code_hash, screen.screen_id, now)
    records: dict[str, list[AuditRecord]] = {}
    if cmd.previous_token:
        replaced = uow.screens.live_of_token(policy.keys.session_hash(cmd.previous_token[:128]))
        if replaced is not None:
            _revoke(uow, replaced, found.created_by, f"enrolled again as {screen.name!r} at table {screen.table_id}",
                    records)
    records.setdefault(chain_for(screen.table_id), []).append(AuditRecord("screen_enrolled", {
        "screen_id": str(screen.screen_id), "name": screen.name, "address": cmd.address,
        "code_issued_at": found.created_at.isoformat(timespec="seconds")},
        actor=found.created_by, table_id=screen.table_id))
    uow.audit.append_by_chain(records)
    return EnrolledScreen(screen_view(screen), token)


def _refused(code: CodeRow, reason: str, address: str | None) -> AuditRecord:
    return AuditRecord("screen_enrolment_refused", {"reason": reason, "name": code.name, "address": address,
                                                    "code_issued_by": code.created_by},
                       table_id=code.table_id)


def revoke_screen(cmd: RevokeScreen, uow: UnitOfWork) -> dict[str, Any]:
    """The screen is enrolled no more: its next request is sent to enrolment, and the dealer
    signed in on it is signed out."""
    errors: dict[str, list[str]] = {}
    reason = _text(cmd.reason, "reason", "a reason (it is kept in the audit log)", REASON_MAX, errors)
    if errors:
        raise Invalid("the screen cannot be revoked as asked", code="invalid_revocation", errors=errors)
    screen = uow.screens.lock(cmd.screen_id)
    if screen is None or screen.table_id != cmd.table_id:
        raise NotFound(f"no screen {cmd.screen_id} at table {cmd.table_id!r}")
    if screen.revoked_at is not None:
        raise Conflict(f"the screen {screen.name!r} was revoked already", code="screen_revoked_already")
    records: dict[str, list[AuditRecord]] = {}
    revoked = _revoke(uow, screen, cmd.actor, reason, records)
    uow.audit.append_by_chain(records)
    return screen_view(revoked)


def _revoke(uow: UnitOfWork, screen: ScreenRow, actor: str, reason: str,
            records: dict[str, list[AuditRecord]]) -> ScreenRow:
    revoked = uow.screens.revoke(screen.screen_id, by=actor, reason=reason)
    ended = uow.screens.end_sessions_on_screen(screen.screen_id, "screen_revoked")
    records.setdefault(chain_for(screen.table_id), []).extend([
        *(dealer_left(session, "screen_revoked", actor) for session in ended),
        AuditRecord("screen_revoked", {"screen_id": str(screen.screen_id), "name": screen.name, "reason": reason,
                                       "sessions_ended": len(ended)}, actor=actor, table_id=screen.table_id)])
    return revoked


def screens_of(uow: UnitOfWork, table_id: str, policy: StaffPolicy) -> list[dict[str, Any]]:
    """The table's screens (live first), each with who deals at it now."""
    return [_listing_view(listing) for listing in uow.screens.on_table(table_id, idle=policy.idle,
                                                                       absolute=policy.absolute)]


def waiting_codes(uow: UnitOfWork, table_id: str, policy: StaffPolicy) -> list[dict[str, Any]]:
    """The table's codes issued and not used, still good (never the code itself)."""
    return [{"name": code.name, "created_by": code.created_by, "created_at": code.created_at,
             "expires_at": code.expires_at} for code in uow.screens.waiting_codes(table_id, policy.clock())]


def screen_id_of(text: str) -> uuid.UUID:
    try:
        return uuid.UUID(text)
    except ValueError:
        raise NotFound(f"no screen {text!r}") from None
