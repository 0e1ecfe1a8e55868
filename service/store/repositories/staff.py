"""Staff accounts and their server-side sessions (a session's token is kept only as its keyed hash,
made by the caller with a key the database never holds)."""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from psycopg.rows import class_row, dict_row

from ..transaction import Statements, returned


@dataclass(frozen=True, slots=True)
class StaffRow:
    user_id: uuid.UUID
    username: str
    display_name: str
    role: str
    active: bool
    password_hash: str
    failed_attempts: int
    locked_until: datetime | None
    totp_secret: str | None         # sealed (Fernet) with a key from outside the database
    totp_last_step: int | None
    created_by: str | None
    created_at: datetime
    updated_at: datetime
    last_sign_in_at: datetime | None
    deactivated_at: datetime | None
    password_set_by: str | None     # who set the password when not its person (an admin); None: their own


_COLUMNS = ("user_id, username, display_name, role, active, password_hash, failed_attempts, locked_until, "
            "totp_secret, totp_last_step, created_by, created_at, updated_at, last_sign_in_at, deactivated_at, "
            "password_set_by")


@dataclass(frozen=True, slots=True)
class SignInFailures:
    """Sign-ins to an account from one address that failed in a row, and the lock they earned."""
    failures: int = 0
    locked_until: datetime | None = None


@dataclass(frozen=True, slots=True)
class SessionOwner:
    """A session, live or not, and the account that opened it."""
    session_id: uuid.UUID
    user_id: uuid.UUID


@dataclass(frozen=True, slots=True)
class SessionHolder:
    """Who holds a live session, as a request finds it."""
    session_id: uuid.UUID
    user_id: uuid.UUID
    username: str
    display_name: str
    role: str
    totp_enrolled: bool
    password_not_own: bool = False      # set by an admin: they must set their own before anything else


class StaffRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    # Accounts

    def add(self, *, username: str, display_name: str, role: str, password_hash: str,
            created_by: str | None, password_set_by: str | None = None) -> StaffRow | None:
        """The new account, or None when the username is taken."""
        with self.db.cursor(row_factory=class_row(StaffRow)) as cur:
            return cur.execute(
                "INSERT INTO staff_users (user_id, username, display_name, role, password_hash, created_by, "
                "password_set_by) VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (username) DO NOTHING "
                f"RETURNING {_COLUMNS}",
                (uuid.uuid4(), username, display_name, role, password_hash, created_by, password_set_by)).fetchone()

    def get(self, username: str) -> StaffRow | None:
        with self.db.cursor(row_factory=class_row(StaffRow)) as cur:
            return cur.execute(f"SELECT {_COLUMNS} FROM staff_users WHERE username = %s",
                               (username,)).fetchone()

    def get_by_id(self, user_id: uuid.UUID) -> StaffRow | None:
        with self.db.cursor(row_factory=class_row(StaffRow)) as cur:
            return cur.execute(f"SELECT {_COLUMNS} FROM staff_users WHERE user_id = %s",
                               (user_id,)).fetchone()

    def lock(self, username: str) -> StaffRow | None:
        """The account, its row locked to the end of the transaction (sign-in counts its failures
        under it, so attempts made together are all counted)."""
        with self.db.cursor(row_factory=class_row(StaffRow)) as cur:
            return cur.execute(f"SELECT {_COLUMNS} FROM staff_users WHERE username = %s "
                               "FOR UPDATE",
                               (username,)).fetchone()

    def lock_by_id(self, user_id: uuid.UUID) -> StaffRow | None:
        with self.db.cursor(row_factory=class_row(StaffRow)) as cur:
            return cur.execute(f"SELECT {_COLUMNS} FROM staff_users WHERE user_id = %s "
                               "FOR UPDATE",
                               (user_id,)).fetchone()

    def all(self) -> list[StaffRow]:
        with self.db.cursor(row_factory=class_row(StaffRow)) as cur:
            return cur.execute(f"SELECT {_COLUMNS} FROM staff_users ORDER BY username"
                               ).fetchall()

    def any_active(self, role: str) -> bool:
        with self.db.cursor(row_factory=dict_row) as cur:
            found = cur.execute("SELECT EXISTS (SELECT FROM staff_users WHERE role = %s AND active) AS any",
                                (role,)).fetchone()
        return bool(returned(found)["any"])

    def count_active(self, role: str) -> int:
        with self.db.cursor(row_factory=dict_row) as cur:
            found = cur.execute("SELECT count(*) AS active FROM staff_users WHERE role = %s AND active",
                                (role,)).fetchone()
        return int(returned(found)["active"])

    def failures_from(self, user_id: uuid.UUID, address: str) -> SignInFailures:
        """The failed sign-ins to the account from the address (none: no failures, no lock). The
        caller holds the account's row lock, so attempts made together are all counted."""
        with self.db.cursor(row_factory=class_row(SignInFailures)) as cur:
            row = cur.execute("SELECT failures, locked_until FROM staff_sign_in_failures "
                              "WHERE user_id = %s AND address = %s", (user_id, address)).fetchone()
        return row if row is not None else SignInFailures()

    def record_failure(self, user_id: uuid.UUID, address: str, *, failures: int,
                       locked_until: datetime | None) -> None:
        self.db.execute("INSERT INTO staff_sign_in_failures (user_id, address, failures, locked_until) "
                        "VALUES (%s, %s, %s, %s) ON CONFLICT (user_id, address) DO UPDATE "
                        "SET failures = excluded.failures, locked_until = excluded.locked_until, updated_at = now()",
                        (user_id, address, failures, locked_until))

    def clear_failures(self, user_id: uuid.UUID, address: str | None = None) -> None:
        """Forget the failures from the address (from everywhere when None: a new password)."""
        self.db.execute("DELETE FROM staff_sign_in_failures WHERE user_id = %s AND (%s::text IS NULL OR address = %s)",
                        (user_id, address, address))

    def record_sign_in(self, user_id: uuid.UUID, *, password_hash: str | None = None,
                       totp_step: int | None = None) -> None:
        """A successful sign-in: the failure count and any lock cleared; `password_hash`, when the
        stored one was made with weaker parameters than today's, replaces it; `totp_step`, the
        step of the code it used, which no sign-in may use again."""
        self.db.execute("UPDATE staff_users SET failed_attempts = 0, locked_until = NULL, last_sign_in_at = now(), "
                        "password_hash = coalesce(%s, password_hash), "
                        "totp_last_step = coalesce(%s, totp_last_step), updated_at = now() WHERE user_id = %s",
                        (password_hash, totp_step, user_id))

    def set_password(self, user_id: uuid.UUID, password_hash: str, *, set_by: str | None) -> None:
        """A new password, set by its person (`set_by` None) or by someone else (an admin, who
        is named); the failure counts and any locks go with the old one."""
        self.db.execute("UPDATE staff_users SET password_hash = %s, password_set_by = %s, failed_attempts = 0, "
                        "locked_until = NULL, updated_at = now() WHERE user_id = %s", (password_hash, set_by, user_id))
        self.clear_failures(user_id)

    def set_role(self, user_id: uuid.UUID, role: str) -> None:
        self.db.execute("UPDATE staff_users SET role = %s, updated_at = now() WHERE user_id = %s", (role, user_id))

    def deactivate(self, user_id: uuid.UUID) -> None:
        self.db.execute("UPDATE staff_users SET active = false, deactivated_at = now(), updated_at = now() "
                        "WHERE user_id = %s", (user_id,))

    def set_totp_secret(self, user_id: uuid.UUID, secret: str | None, step: int | None = None) -> None:
        """Enrol `secret` (whose code of `step` proved it; that code is then spent), or remove it."""
        self.db.execute("UPDATE staff_users SET totp_secret = %s, totp_last_step = %s, updated_at = now() "
                        "WHERE user_id = %s", (secret, step, user_id))

    # Sessions

    def open_session(self, user_id: uuid.UUID, token_hash: str) -> uuid.UUID:
        """A new session for the account, holding the token whose keyed hash is `token_hash`."""
        session_id = uuid.uuid4()
        self.db.execute("INSERT INTO staff_sessions (session_id, token_hash, user_id) VALUES (%s, %s, %s)",
                        (session_id, token_hash, user_id))
        return session_id

    def touch_session(self, token_hash: str, *, idle: timedelta, absolute: timedelta,
                      seen: bool = True) -> SessionHolder | None:
        """The live session holding the token whose keyed hash is `token_hash`, marked seen now
        (unless not `seen`), and its account; None when there is none: never opened, ended, idle
        longer than `idle`, older than `absolute`, or its account deactivated. One statement, so
        an end or a deactivation committed before it always bites."""
        with self.db.cursor(row_factory=class_row(SessionHolder)) as cur:
            return cur.execute(
                "WITH s AS (UPDATE staff_sessions SET last_seen_at = CASE WHEN %s THEN now() ELSE last_seen_at END "
                "WHERE token_hash = %s AND ended_at IS NULL AND last_seen_at > now() - %s "
                "AND created_at > now() - %s "
                "AND user_id IN (SELECT user_id FROM staff_users WHERE active) RETURNING session_id, user_id) "
                "SELECT s.session_id, u.user_id, u.username, u.display_name, u.role, "
                "u.totp_secret IS NOT NULL AS totp_enrolled, u.password_set_by IS NOT NULL AS password_not_own "
                "FROM s JOIN staff_users u USING (user_id)",
                (seen, token_hash, idle, absolute)).fetchone()

    def session_of(self, token_hash: str) -> SessionOwner | None:
        """The session holding the token, whether it is live or not, and its account."""
        with self.db.cursor(row_factory=class_row(SessionOwner)) as cur:
            return cur.execute("SELECT session_id, user_id FROM staff_sessions WHERE token_hash = %s",
                               (token_hash,)).fetchone()

    def end_session(self, session_id: uuid.UUID, reason: str) -> bool:
        """End one session; False when it had ended already."""
        return self.db.execute("UPDATE staff_sessions SET ended_at = now(), ended_reason = %s "
                               "WHERE session_id = %s AND ended_at IS NULL RETURNING 1",
                               (reason, session_id)).fetchone() is not None

    def end_sessions(self, user_id: uuid.UUID, reason: str, *, keep: uuid.UUID | None = None) -> int:
        """End every open session of the account (but `keep`); how many were open."""
        rows = self.db.execute("UPDATE staff_sessions SET ended_at = now(), ended_reason = %s "
                               "WHERE user_id = %s AND ended_at IS NULL AND session_id IS DISTINCT FROM %s "
                               "RETURNING 1", (reason, user_id, keep)).fetchall()
        return len(rows)
