"""Dealer screens, their one-time enrolment codes, dealers' sessions on them, and the dealers' calls
for a supervisor. A screen's token, a code and a session's token are kept only as keyed hashes,
made by the caller with a key the database never holds."""
from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass, fields
from datetime import datetime, timedelta
from typing import Any

from psycopg import sql
from psycopg.rows import class_row, dict_row

from ..transaction import Statements, returned


@dataclass(frozen=True, slots=True)
class ScreenRow:
    screen_id: uuid.UUID
    name: str
    table_id: str
    enrolled_by: str
    enrolled_at: datetime
    last_seen_at: datetime | None
    revoked_at: datetime | None
    revoked_by: str | None
    revoke_reason: str | None


@dataclass(frozen=True, slots=True)
class CodeRow:
    code_hash: str
    table_id: str
    name: str
    created_by: str
    created_at: datetime
    expires_at: datetime
    used_at: datetime | None
    screen_id: uuid.UUID | None


@dataclass(frozen=True, slots=True)
class DealerHolder:
    """Who holds a live dealer session on a screen, as a request finds it."""
    session_id: uuid.UUID
    user_id: uuid.UUID
    username: str
    display_name: str
    role: str


@dataclass(frozen=True, slots=True)
class ScreenVisit:
    """A live screen as one request finds it, and the dealer signed in on it (None: nobody)."""
    screen: ScreenRow
    dealer: DealerHolder | None


@dataclass(frozen=True, slots=True)
class ScreenListing:
    """A screen as the console lists it: the row, and who deals at it now (if anyone)."""
    screen: ScreenRow
    dealer_username: str | None
    dealer_display_name: str | None
    dealer_since: datetime | None


@dataclass(frozen=True, slots=True)
class EndedSession:
    """A dealer's session just ended: whose, and at which screen of which table."""
    session_id: uuid.UUID
    user_id: uuid.UUID
    username: str
    screen_id: uuid.UUID
    screen_name: str
    table_id: str


@dataclass(frozen=True, slots=True)
class DealtBy:
    """Who dealt some of a round (an opening, cards, decisions): the records' actor, and the
    screen they dealt at (None: not at a screen)."""
    actor: str | None
    screen: str | None


@dataclass(frozen=True, slots=True)
class CallRow:
    call_id: uuid.UUID
    table_id: str
    screen_id: uuid.UUID
    screen_name: str
    round_id: uuid.UUID | None
    called_by: str
    reason: str | None
    called_at: datetime
    closed_at: datetime | None
    closed_by: str | None
    outcome: str | None
    closing_reason: str | None


_SCREEN_COLUMNS = sql.SQL("screen_id, name, table_id, enrolled_by, enrolled_at, last_seen_at, revoked_at, "
                          "revoked_by, revoke_reason")
_SCREEN_COLUMNS_OF_S = sql.SQL("s.screen_id, s.name, s.table_id, s.enrolled_by, s.enrolled_at, s.last_seen_at, "
                               "s.revoked_at, s.revoked_by, s.revoke_reason")
_CODE_COLUMNS = sql.SQL("code_hash, table_id, name, created_by, created_at, expires_at, used_at, screen_id")
# A call with its screen's name (`c`: supervisor_calls' rows, `s`: dealer_screens).
_CALL_COLUMNS = sql.SQL("c.call_id, c.table_id, c.screen_id, s.name AS screen_name, c.round_id, c.called_by, "
                        "c.reason, c.called_at, c.closed_at, c.closed_by, c.outcome, c.closing_reason")

# The screen holding the token marked seen (a revoked one is not found), and the dealer's live
# session on it holding the other token, marked seen unless not %(seen)s: in one statement, so a
# revocation, a sign-out or a deactivation committed before it always bites.
_VISIT = sql.SQL("""
WITH screen AS (
    UPDATE dealer_screens SET last_seen_at = now()
    WHERE token_hash = %(screen_hash)s AND revoked_at IS NULL
    RETURNING {columns}
), session AS (
    UPDATE dealer_sessions SET last_seen_at = CASE WHEN %(seen)s THEN now() ELSE last_seen_at END
    WHERE token_hash = %(session_hash)s AND screen_id = (SELECT screen_id FROM screen) AND ended_at IS NULL
      AND last_seen_at > now() - %(idle)s AND created_at > now() - %(absolute)s
      AND user_id IN (SELECT user_id FROM staff_users WHERE active AND role = 'dealer')
    RETURNING session_id, user_id
)
SELECT screen.*, session.session_id, u.username, u.display_name, u.role, u.user_id
FROM screen LEFT JOIN session ON true LEFT JOIN staff_users u ON u.user_id = session.user_id
""")

# Sessions ended by {which}, with whose and where they were.
_END_SESSIONS = sql.SQL("""
WITH ended AS (
    UPDATE dealer_sessions SET ended_at = now(), ended_reason = %(reason)s
    WHERE ended_at IS NULL AND {which}
    RETURNING session_id, user_id, screen_id
)
SELECT e.session_id, e.user_id, u.username, e.screen_id, s.name AS screen_name, s.table_id
FROM ended e JOIN staff_users u USING (user_id) JOIN dealer_screens s USING (screen_id)
ORDER BY s.table_id, e.session_id
""")

# The records of a round that deal it (its opening, its cards, its decisions): who wrote them and
# at which screen, in the order each first appears.
_DEALT_BY = """
SELECT round_id, actor, payload->>'screen' AS screen, min(id) AS first
FROM audit_log
WHERE round_id = ANY(%s) AND kind IN ('round_opened', 'card_dealt', 'decision')
GROUP BY round_id, actor, payload->>'screen'
ORDER BY round_id, first
"""


def _screen(row: dict[str, Any]) -> ScreenRow:
    """The screen's columns of a row that holds others beside them."""
    return ScreenRow(**{column.name: row[column.name] for column in fields(ScreenRow)})


class ScreensRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    # Enrolment codes

    def add_code(self, *, code_hash: str, table_id: str, name: str, created_by: str,
                 expires_at: datetime) -> CodeRow:
        with self.db.cursor(row_factory=class_row(CodeRow)) as cur:
            return returned(cur.execute(sql.SQL(
                "INSERT INTO screen_enrolment_codes (code_hash, table_id, name, created_by, expires_at) "
                "VALUES (%s, %s, %s, %s, %s) RETURNING {columns}").format(columns=_CODE_COLUMNS),
                (code_hash, table_id, name, created_by, expires_at)).fetchone())

    def lock_code(self, code_hash: str) -> CodeRow | None:
        """The code, its row locked to the end of the transaction (two screens typing it together
        cannot both use it)."""
        with self.db.cursor(row_factory=class_row(CodeRow)) as cur:
            return cur.execute(sql.SQL("SELECT {columns} FROM screen_enrolment_codes WHERE code_hash = %s "
                                       "FOR UPDATE").format(columns=_CODE_COLUMNS), (code_hash,)).fetchone()

    def use_code(self, code_hash: str, screen_id: uuid.UUID, at: datetime) -> None:
        self.db.execute("UPDATE screen_enrolment_codes SET used_at = %s, screen_id = %s WHERE code_hash = %s",
                        (at, screen_id, code_hash))

    def waiting_codes(self, table_id: str, now: datetime) -> list[CodeRow]:
        """The table's codes neither used nor expired at `now`, soonest to expire first."""
        with self.db.cursor(row_factory=class_row(CodeRow)) as cur:
            return cur.execute(sql.SQL("SELECT {columns} FROM screen_enrolment_codes WHERE table_id = %s "
                                       "AND used_at IS NULL AND expires_at > %s ORDER BY expires_at").format(
                                       columns=_CODE_COLUMNS), (table_id, now)).fetchall()

    # Screens

    def add_screen(self, *, name: str, table_id: str, token_hash: str, enrolled_by: str) -> ScreenRow | None:
        """The new live screen, or None when a live screen of the table has that name already."""
        with self.db.cursor(row_factory=class_row(ScreenRow)) as cur:
            return cur.execute(sql.SQL(
                "INSERT INTO dealer_screens (screen_id, name, table_id, token_hash, enrolled_by, last_seen_at) "
                "VALUES (%s, %s, %s, %s, %s, now()) ON CONFLICT DO NOTHING RETURNING {columns}").format(
                columns=_SCREEN_COLUMNS),
                (uuid.uuid4(), name, table_id, token_hash, enrolled_by)).fetchone()

    def live_named(self, table_id: str, name: str) -> bool:
        found = self.db.execute("SELECT 1 FROM dealer_screens WHERE table_id = %s AND name = %s "
                                "AND revoked_at IS NULL", (table_id, name)).fetchone()
        return found is not None

    def live_of_token(self, token_hash: str) -> ScreenRow | None:
        """The live screen holding the token, its row locked (an enrolment over it, a sign-in on it)."""
        with self.db.cursor(row_factory=class_row(ScreenRow)) as cur:
            return cur.execute(sql.SQL("SELECT {columns} FROM dealer_screens WHERE token_hash = %s "
                                       "AND revoked_at IS NULL FOR UPDATE").format(columns=_SCREEN_COLUMNS),
                               (token_hash,)).fetchone()

    def lock(self, screen_id: uuid.UUID) -> ScreenRow | None:
        with self.db.cursor(row_factory=class_row(ScreenRow)) as cur:
            return cur.execute(sql.SQL("SELECT {columns} FROM dealer_screens WHERE screen_id = %s FOR UPDATE").format(
                columns=_SCREEN_COLUMNS), (screen_id,)).fetchone()

    def revoke(self, screen_id: uuid.UUID, *, by: str, reason: str) -> ScreenRow:
        with self.db.cursor(row_factory=class_row(ScreenRow)) as cur:
            return returned(cur.execute(sql.SQL(
                "UPDATE dealer_screens SET revoked_at = now(), revoked_by = %s, revoke_reason = %s "
                "WHERE screen_id = %s RETURNING {columns}").format(columns=_SCREEN_COLUMNS),
                (by, reason, screen_id)).fetchone())

    def visit(self, screen_hash: str, session_hash: str | None, *, idle: timedelta, absolute: timedelta,
              seen: bool = True) -> ScreenVisit | None:
        """The live screen holding the token whose keyed hash is `screen_hash`, marked seen now, and
        the dealer whose live session on it holds the other (None: nobody signed in there); None
        when the screen is unknown or revoked. A session is live when open, used within `idle`,
        younger than `absolute`, and its account an active dealer's; it is marked seen unless not
        `seen` (a page refreshing itself)."""
        with self.db.cursor(row_factory=dict_row) as cur:
            row = cur.execute(_VISIT.format(columns=_SCREEN_COLUMNS),
                              {"screen_hash": screen_hash, "session_hash": session_hash, "seen": seen, "idle": idle,
                               "absolute": absolute}).fetchone()
        if row is None:
            return None
        screen = _screen(row)
        dealer = None if row["session_id"] is None else DealerHolder(
            row["session_id"], row["user_id"], row["username"], row["display_name"], row["role"])
        return ScreenVisit(screen, dealer)

    def on_table(self, table_id: str, *, idle: timedelta, absolute: timedelta) -> list[ScreenListing]:
        """The table's screens, live ones first (each with the dealer whose session on it is live),
        then the revoked, each group newest first."""
        with self.db.cursor(row_factory=dict_row) as cur:
            rows = cur.execute(sql.SQL(
                "SELECT {columns}, d.username, d.display_name, d.created_at AS since "
                "FROM dealer_screens s LEFT JOIN LATERAL ("
                "  SELECT u.username, u.display_name, ds.created_at FROM dealer_sessions ds "
                "  JOIN staff_users u USING (user_id) WHERE ds.screen_id = s.screen_id AND ds.ended_at IS NULL "
                "  AND ds.last_seen_at > now() - %s AND ds.created_at > now() - %s AND u.active "
                "  ORDER BY ds.created_at DESC LIMIT 1) d ON true "
                "WHERE s.table_id = %s ORDER BY s.revoked_at IS NOT NULL, s.enrolled_at DESC").format(
                columns=_SCREEN_COLUMNS_OF_S), (idle, absolute, table_id)).fetchall()
        return [ScreenListing(_screen(row), row["username"], row["display_name"], row["since"]) for row in rows]

    # Dealers' sessions

    def open_session(self, *, user_id: uuid.UUID, screen_id: uuid.UUID, token_hash: str,
                     address: str | None) -> uuid.UUID:
        session_id = uuid.uuid4()
        self.db.execute("INSERT INTO dealer_sessions (session_id, token_hash, user_id, screen_id, address) "
                        "VALUES (%s, %s, %s, %s, %s)", (session_id, token_hash, user_id, screen_id, address))
        return session_id

    def end_session_holding(self, token_hash: str, reason: str) -> EndedSession | None:
        """End the open session holding the token; None when there is none open."""
        ended = self._end(sql.SQL("token_hash = %(token_hash)s"), reason, token_hash=token_hash)
        return ended[0] if ended else None

    def end_sessions_on_screen(self, screen_id: uuid.UUID, reason: str) -> list[EndedSession]:
        return self._end(sql.SQL("screen_id = %(screen_id)s"), reason, screen_id=screen_id)

    def end_sessions_of(self, user_id: uuid.UUID, reason: str) -> list[EndedSession]:
        return self._end(sql.SQL("user_id = %(user_id)s"), reason, user_id=user_id)

    def _end(self, which: sql.SQL, reason: str, **params: object) -> list[EndedSession]:
        with self.db.cursor(row_factory=class_row(EndedSession)) as cur:
            return cur.execute(_END_SESSIONS.format(which=which), {"reason": reason, **params}).fetchall()

    # Calls for a supervisor

    def add_call(self, *, table_id: str, screen_id: uuid.UUID, round_id: uuid.UUID | None, called_by: str,
                 reason: str | None) -> CallRow | None:
        """The new open call, or None when the table has one open already."""
        with self.db.cursor(row_factory=class_row(CallRow)) as cur:
            return cur.execute(sql.SQL(
                "WITH c AS (INSERT INTO supervisor_calls (call_id, table_id, screen_id, round_id, called_by, reason) "
                "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING RETURNING *) "
                "SELECT {columns} FROM c JOIN dealer_screens s USING (screen_id)").format(columns=_CALL_COLUMNS),
                (uuid.uuid4(), table_id, screen_id, round_id, called_by, reason)).fetchone()

    def open_calls(self, table_id: str | None = None) -> list[CallRow]:
        """Every open call (or the table's), oldest first."""
        with self.db.cursor(row_factory=class_row(CallRow)) as cur:
            return cur.execute(sql.SQL(
                "SELECT {columns} FROM supervisor_calls c JOIN dealer_screens s USING (screen_id) "
                "WHERE c.closed_at IS NULL AND (%(table_id)s::text IS NULL OR c.table_id = %(table_id)s) "
                "ORDER BY c.called_at").format(columns=_CALL_COLUMNS), {"table_id": table_id}).fetchall()

    def lock_call(self, call_id: uuid.UUID) -> CallRow | None:
        with self.db.cursor(row_factory=class_row(CallRow)) as cur:
            return cur.execute(sql.SQL(
                "SELECT {columns} FROM supervisor_calls c JOIN dealer_screens s USING (screen_id) "
                "WHERE c.call_id = %s FOR UPDATE OF c").format(columns=_CALL_COLUMNS), (call_id,)).fetchone()

    def close_call(self, call_id: uuid.UUID, *, by: str, outcome: str, reason: str | None) -> CallRow:
        with self.db.cursor(row_factory=class_row(CallRow)) as cur:
            return returned(cur.execute(sql.SQL(
                "WITH c AS (UPDATE supervisor_calls SET closed_at = now(), closed_by = %s, outcome = %s, "
                "closing_reason = %s WHERE call_id = %s RETURNING *) "
                "SELECT {columns} FROM c JOIN dealer_screens s USING (screen_id)").format(columns=_CALL_COLUMNS),
                (by, outcome, reason, call_id)).fetchone())

    def answer_calls(self, table_id: str, round_id: uuid.UUID, *, by: str, reason: str) -> list[CallRow]:
        """Close, as answered by the round's void, the table's open calls about that round or about
        no round in particular."""
        with self.db.cursor(row_factory=class_row(CallRow)) as cur:
            return cur.execute(sql.SQL(
                "WITH c AS (UPDATE supervisor_calls SET closed_at = now(), closed_by = %s, outcome = 'voided', "
                "closing_reason = %s WHERE table_id = %s AND closed_at IS NULL "
                "AND (round_id = %s OR round_id IS NULL) RETURNING *) "
                "SELECT {columns} FROM c JOIN dealer_screens s USING (screen_id) ORDER BY c.called_at").format(
                columns=_CALL_COLUMNS),
                (by, reason, table_id, round_id)).fetchall()

    # Who dealt

    def dealt_by(self, round_ids: list[uuid.UUID]) -> dict[uuid.UUID, list[DealtBy]]:
        """Each round's dealers: who wrote the records that opened it and dealt its cards and
        decisions, and at which screen, in the order each first appears."""
        found: dict[uuid.UUID, list[DealtBy]] = defaultdict(list)
        if not round_ids:
            return found
        with self.db.cursor(row_factory=dict_row) as cur:
            for row in cur.execute(_DEALT_BY, (round_ids,)):
                found[row["round_id"]].append(DealtBy(row["actor"], row["screen"]))
        return found
