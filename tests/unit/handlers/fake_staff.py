"""Staff accounts and sessions held in memory, a repository of the handlers' fake unit of work (a
person behind a key or a console name is looked up there too)."""
from __future__ import annotations

import dataclasses
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from service.store.repositories.staff import SessionHolder, SessionOwner, SignInFailures, StaffRow


@dataclass
class FakeSession:
    session_id: uuid.UUID
    token_hash: str
    user_id: uuid.UUID
    created_at: datetime
    last_seen_at: datetime
    ended_at: datetime | None = None
    ended_reason: str | None = None


class FakeStaff:
    def __init__(self) -> None:
        self.rows: dict[str, StaffRow] = {}
        self.sessions: dict[uuid.UUID, FakeSession] = {}
        self.failures: dict[tuple[uuid.UUID, str], SignInFailures] = {}

    def _by_id(self, user_id: uuid.UUID) -> StaffRow | None:
        return next((row for row in self.rows.values() if row.user_id == user_id), None)

    def _change(self, user_id: uuid.UUID, **changes: object) -> None:
        row = self._by_id(user_id)
        assert row is not None
        self.rows[row.username] = dataclasses.replace(row, updated_at=datetime.now(UTC), **changes)

    def add(self, *, username: str, display_name: str, role: str, password_hash: str,
            created_by: str | None, password_set_by: str | None = None) -> StaffRow | None:
        if username in self.rows:
            return None
        now = datetime.now(UTC)
        self.rows[username] = StaffRow(uuid.uuid4(), username, display_name, role, True, password_hash, 0, None,
                                       None, None, created_by, now, now, None, None, password_set_by)
        return self.rows[username]

    def get(self, username: str) -> StaffRow | None:
        return self.rows.get(username)

    lock = get

    def get_by_id(self, user_id: uuid.UUID) -> StaffRow | None:
        return self._by_id(user_id)

    lock_by_id = get_by_id

    def all(self) -> list[StaffRow]:
        return sorted(self.rows.values(), key=lambda row: row.username)

    def any_active(self, role: str) -> bool:
        return self.count_active(role) > 0

    def count_active(self, role: str) -> int:
        return sum(row.role == role and row.active for row in self.rows.values())

    def failures_from(self, user_id: uuid.UUID, address: str) -> SignInFailures:
        return self.failures.get((user_id, address), SignInFailures())

    def record_failure(self, user_id: uuid.UUID, address: str, *, failures: int,
                       locked_until: datetime | None) -> None:
        self.failures[(user_id, address)] = SignInFailures(failures, locked_until)

    def clear_failures(self, user_id: uuid.UUID, address: str | None = None) -> None:
        for key in [key for key in self.failures if key[0] == user_id and address in (None, key[1])]:
            del self.failures[key]

    def record_sign_in(self, user_id: uuid.UUID, *, password_hash: str | None = None,
                       totp_step: int | None = None) -> None:
        row = self._by_id(user_id)
        assert row is not None
        self._change(user_id, failed_attempts=0, locked_until=None, last_sign_in_at=datetime.now(UTC),
                     password_hash=password_hash or row.password_hash,
                     totp_last_step=row.totp_last_step if totp_step is None else totp_step)

    def set_password(self, user_id: uuid.UUID, password_hash: str, *, set_by: str | None) -> None:
        self._change(user_id, password_hash=password_hash, password_set_by=set_by, failed_attempts=0,
                     locked_until=None)
        self.clear_failures(user_id)

    def set_role(self, user_id: uuid.UUID, role: str) -> None:
        self._change(user_id, role=role)

    def deactivate(self, user_id: uuid.UUID) -> None:
        self._change(user_id, active=False, deactivated_at=datetime.now(UTC))

    def set_totp_secret(self, user_id: uuid.UUID, secret: str | None, step: int | None = None) -> None:
        self._change(user_id, totp_secret=secret, totp_last_step=step)

    def open_session(self, user_id: uuid.UUID, token_hash: str) -> uuid.UUID:
        now = datetime.now(UTC)
        session = FakeSession(uuid.uuid4(), token_hash, user_id, now, now)
        self.sessions[session.session_id] = session
        return session.session_id

    def _session(self, token_hash: str) -> FakeSession | None:
        return next((s for s in self.sessions.values() if s.token_hash == token_hash), None)

    def touch_session(self, token_hash: str, *, idle: timedelta, absolute: timedelta,
                      seen: bool = True) -> SessionHolder | None:
        session, now = self._session(token_hash), datetime.now(UTC)
        if session is None or session.ended_at is not None or session.last_seen_at <= now - idle \
                or session.created_at <= now - absolute:
            return None
        row = self._by_id(session.user_id)
        if row is None or not row.active:
            return None
        if seen:
            session.last_seen_at = now
        return SessionHolder(session.session_id, row.user_id, row.username, row.display_name, row.role,
                             row.totp_secret is not None, row.password_set_by is not None)

    def session_of(self, token_hash: str) -> SessionOwner | None:
        session = self._session(token_hash)
        return SessionOwner(session.session_id, session.user_id) if session else None

    def end_session(self, session_id: uuid.UUID, reason: str) -> bool:
        session = self.sessions[session_id]
        if session.ended_at is not None:
            return False
        session.ended_at, session.ended_reason = datetime.now(UTC), reason
        return True

    def end_sessions(self, user_id: uuid.UUID, reason: str, *, keep: uuid.UUID | None = None) -> int:
        open_ones = [s for s in self.sessions.values()
                     if s.user_id == user_id and s.ended_at is None and s.session_id != keep]
        for session in open_ones:
            session.ended_at, session.ended_reason = datetime.now(UTC), reason
        return len(open_ones)
