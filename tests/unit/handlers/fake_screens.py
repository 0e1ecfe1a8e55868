"""Dealers' screens, their codes, dealers' sessions and calls for a supervisor held in memory, as
ScreensRepository keeps them, for the handlers' fake unit of work (the SQL itself is tested against
PostgreSQL in tests/integration/screens)."""
from __future__ import annotations

import dataclasses
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from service.store.repositories.screens import (
    CallRow,
    CodeRow,
    DealerHolder,
    DealtBy,
    EndedSession,
    ScreenListing,
    ScreenRow,
    ScreenVisit,
)


@dataclass
class FakeDealerSession:
    session_id: uuid.UUID
    token_hash: str
    user_id: uuid.UUID
    screen_id: uuid.UUID
    created_at: datetime
    last_seen_at: datetime
    ended_at: datetime | None = None
    ended_reason: str | None = None


class FakeScreens:
    def __init__(self, uow: Any) -> None:
        self._uow = uow             # its staff (when it has any), for whose sessions these are
        self.codes: dict[str, CodeRow] = {}
        self.screens: dict[uuid.UUID, ScreenRow] = {}
        self.tokens: dict[uuid.UUID, str] = {}          # screen_id -> its token's hash
        self.sessions: dict[uuid.UUID, FakeDealerSession] = {}
        self.calls: dict[uuid.UUID, CallRow] = {}

    # Codes

    def add_code(self, *, code_hash: str, table_id: str, name: str, created_by: str, expires_at: datetime) -> CodeRow:
        now = datetime.now(UTC)
        self.codes[code_hash] = CodeRow(code_hash, table_id, name, created_by, now, expires_at, None, None)
        return self.codes[code_hash]

    def lock_code(self, code_hash: str) -> CodeRow | None:
        return self.codes.get(code_hash)

    def use_code(self, code_hash: str, screen_id: uuid.UUID, at: datetime) -> None:
        self.codes[code_hash] = dataclasses.replace(self.codes[code_hash], used_at=at, screen_id=screen_id)

    def waiting_codes(self, table_id: str, now: datetime) -> list[CodeRow]:
        return sorted((c for c in self.codes.values() if c.table_id == table_id and c.used_at is None
                       and c.expires_at > now), key=lambda c: c.expires_at)

    # Screens

    def add_screen(self, *, name: str, table_id: str, token_hash: str, enrolled_by: str) -> ScreenRow | None:
        if self.live_named(table_id, name):
            return None
        now = datetime.now(UTC)
        row = ScreenRow(uuid.uuid4(), name, table_id, enrolled_by, now, now, None, None, None)
        self.screens[row.screen_id], self.tokens[row.screen_id] = row, token_hash
        return row

    def live_named(self, table_id: str, name: str) -> bool:
        return any(s.table_id == table_id and s.name == name and s.revoked_at is None for s in self.screens.values())

    def live_of_token(self, token_hash: str) -> ScreenRow | None:
        return next((s for s in self.screens.values() if self.tokens[s.screen_id] == token_hash
                     and s.revoked_at is None), None)

    def lock(self, screen_id: uuid.UUID) -> ScreenRow | None:
        return self.screens.get(screen_id)

    def revoke(self, screen_id: uuid.UUID, *, by: str, reason: str) -> ScreenRow:
        self.screens[screen_id] = dataclasses.replace(self.screens[screen_id], revoked_at=datetime.now(UTC),
                                                      revoked_by=by, revoke_reason=reason)
        return self.screens[screen_id]

    def _live(self, session: FakeDealerSession, idle: timedelta, absolute: timedelta, now: datetime) -> Any:
        account = self._uow.staff.get_by_id(session.user_id)
        if session.ended_at is not None or session.last_seen_at <= now - idle or session.created_at <= now - absolute:
            return None
        return account if account is not None and account.active else None

    def visit(self, screen_hash: str, session_hash: str | None, *, idle: timedelta, absolute: timedelta,
              seen: bool = True) -> ScreenVisit | None:
        screen = self.live_of_token(screen_hash)
        if screen is None:
            return None
        now = datetime.now(UTC)
        screen = self.screens[screen.screen_id] = dataclasses.replace(screen, last_seen_at=now)
        session = next((s for s in self.sessions.values() if s.token_hash == session_hash
                        and s.screen_id == screen.screen_id), None)
        account = self._live(session, idle, absolute, now) if session is not None else None
        if session is None or account is None or account.role != "dealer":
            return ScreenVisit(screen, None)
        if seen:
            session.last_seen_at = now
        return ScreenVisit(screen, DealerHolder(session.session_id, account.user_id, account.username,
                                                account.display_name, account.role))

    def on_table(self, table_id: str, *, idle: timedelta, absolute: timedelta) -> list[ScreenListing]:
        now, listed = datetime.now(UTC), []
        newest_live_first = sorted(self.screens.values(),
                                   key=lambda s: (s.revoked_at is not None, -s.enrolled_at.timestamp()))
        for screen in newest_live_first:
            if screen.table_id != table_id:
                continue
            live = [(s, a) for s in self.sessions.values() if s.screen_id == screen.screen_id
                    and (a := self._live(s, idle, absolute, now)) is not None]
            session, account = max(live, key=lambda pair: pair[0].created_at) if live else (None, None)
            listed.append(ScreenListing(screen, account.username if account else None,
                                        account.display_name if account else None,
                                        session.created_at if session else None))
        return listed

    # Dealers' sessions

    def open_session(self, *, user_id: uuid.UUID, screen_id: uuid.UUID, token_hash: str,
                     address: str | None) -> uuid.UUID:
        now = datetime.now(UTC)
        session = FakeDealerSession(uuid.uuid4(), token_hash, user_id, screen_id, now, now)
        self.sessions[session.session_id] = session
        return session.session_id

    def _end(self, reason: str, which: Any) -> list[EndedSession]:
        ended = []
        for session in self.sessions.values():
            if session.ended_at is None and which(session):
                session.ended_at, session.ended_reason = datetime.now(UTC), reason
                screen = self.screens[session.screen_id]
                ended.append(EndedSession(session.session_id, session.user_id,
                                          self._uow.staff.get_by_id(session.user_id).username, screen.screen_id,
                                          screen.name, screen.table_id))
        return sorted(ended, key=lambda e: (e.table_id, e.session_id))

    def end_session_holding(self, token_hash: str, reason: str) -> EndedSession | None:
        ended = self._end(reason, lambda s: s.token_hash == token_hash)
        return ended[0] if ended else None

    def end_sessions_on_screen(self, screen_id: uuid.UUID, reason: str) -> list[EndedSession]:
        return self._end(reason, lambda s: s.screen_id == screen_id)

    def end_sessions_of(self, user_id: uuid.UUID, reason: str) -> list[EndedSession]:
        return self._end(reason, lambda s: s.user_id == user_id)

    # Calls

    def add_call(self, *, table_id: str, screen_id: uuid.UUID, round_id: uuid.UUID | None, called_by: str,
                 reason: str | None) -> CallRow | None:
        if self.open_calls(table_id):
            return None
        row = CallRow(uuid.uuid4(), table_id, screen_id, self.screens[screen_id].name, round_id, called_by, reason,
                      datetime.now(UTC), None, None, None, None)
        self.calls[row.call_id] = row
        return row

    def open_calls(self, table_id: str | None = None) -> list[CallRow]:
        return sorted((c for c in self.calls.values() if c.closed_at is None and table_id in (None, c.table_id)),
                      key=lambda c: c.called_at)

    def lock_call(self, call_id: uuid.UUID) -> CallRow | None:
        return self.calls.get(call_id)

    def close_call(self, call_id: uuid.UUID, *, by: str, outcome: str, reason: str | None) -> CallRow:
        self.calls[call_id] = dataclasses.replace(self.calls[call_id], closed_at=datetime.now(UTC), closed_by=by,
                                                  outcome=outcome, closing_reason=reason)
        return self.calls[call_id]

    def answer_calls(self, table_id: str, round_id: uuid.UUID, *, by: str, reason: str) -> list[CallRow]:
        return [self.close_call(c.call_id, by=by, outcome="voided", reason=reason) for c in self.open_calls(table_id)
                if c.round_id in (None, round_id)]

    # Who dealt

    def dealt_by(self, round_ids: list[uuid.UUID]) -> dict[uuid.UUID, list[DealtBy]]:
        found: dict[uuid.UUID, list[DealtBy]] = {}
        wanted = {str(round_id): round_id for round_id in round_ids}
        for records in self._uow.audit.records.values():
            for record in records:
                if record.round_id in wanted and record.kind in ("round_opened", "card_dealt", "decision"):
                    dealers = found.setdefault(wanted[record.round_id], [])
                    if (dealer := DealtBy(record.actor, record.payload.get("screen"))) not in dealers:
                        dealers.append(dealer)
        return found
