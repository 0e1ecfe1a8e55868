"""Checks what the money and access depend on (paytable versions, tables' paytables and betting
limits, staff roles, API keys' roles and owners, the paytable each round opened under) against the
last chained record of each: a row written or changed without its record shows as a problem naming
it. Four eyes is checked between people: a person's console name and each key chained as theirs
are one person."""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import psycopg
from psycopg.rows import class_row

from ..rules import Ref, RulesError
from .report import Problem, Report

SYSTEM_AUTHOR = "system"      # the file seeds' author and approver
# The kinds whose payloads say what the rows checked here must hold.
STATE_KINDS = ("paytable_version_seeded", "paytable_version_submitted", "paytable_version_approved",
               "paytable_version_rejected", "paytable_assigned", "staff_created", "staff_role_changed",
               "staff_deactivated", "key_created", "key_revoked", "table_created")
# The records that set a table's own betting limits (only its creation, so far).
LIMITS_KINDS = ("table_created",)

_STATE_RECORDS = ("SELECT kind, actor, table_id, payload, at FROM audit_log WHERE kind = ANY(%s) "
                  "ORDER BY chain, seq")
_VERSIONS = "SELECT name, version, content, status, author, decided_by FROM paytable_versions ORDER BY name, version"
_TABLES = ("SELECT table_id, paytable, coalesce(paytable_version, 1) AS current, pending_paytable_version AS pending "
           "FROM tables WHERE paytable IS NOT NULL ORDER BY table_id")
_LIMITS = "SELECT table_id, limits FROM tables ORDER BY table_id"
_STAFF = "SELECT user_id::text AS user_id, username, role, active FROM staff_users ORDER BY username"
_KEYS = ("SELECT key_id::text AS key_id, role, revoked_at IS NOT NULL AS revoked, owner_id::text AS owner_id "
         "FROM api_keys ORDER BY key_id")
# The roles whose keys belong to a person (service.roles.PERSONAL_KEY_ROLES).
PERSONAL_ROLES = ("admin", "operator", "supervisor")
STAFF_PREFIX = "staff:"
# Each round under a paytable with the time its round_opened record was chained.
_ROUNDS_OPENED = ("SELECT r.round_id::text AS round_id, r.paytable_ref, "
                  "(SELECT min(a.at) FROM audit_log a WHERE a.round_id = r.round_id AND a.kind = 'round_opened') "
                  "AS opened_at FROM rounds r WHERE r.paytable_ref IS NOT NULL ORDER BY r.round_id")


@dataclass(frozen=True, slots=True)
class StateRecord:
    """A chained record of a change to what the money and access depend on."""
    kind: str
    actor: str | None
    table_id: str | None
    payload: Any
    at: datetime


@dataclass(frozen=True, slots=True)
class StoredVersion:
    name: str
    version: int
    content: Any
    status: str
    author: str
    decided_by: str | None


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A table playing a paytable: the version it runs and the one its next round opens under."""
    table_id: str
    paytable: str
    current: int
    pending: int | None


@dataclass(frozen=True, slots=True)
class StoredLimits:
    """A table's own betting limits: bet -> {"min", "max"} in cents ({}: its game's apply)."""
    table_id: str
    limits: Any


@dataclass(frozen=True, slots=True)
class StoredStaff:
    user_id: str
    username: str
    role: str
    active: bool


@dataclass(frozen=True, slots=True)
class StoredKey:
    key_id: str
    role: str
    revoked: bool
    owner_id: str | None = None


@dataclass(frozen=True, slots=True)
class OpenedRound:
    """A round under a paytable, and when its round_opened record was chained (None: never)."""
    round_id: str
    paytable_ref: str
    opened_at: datetime | None


def document_hash(document: Any) -> str:
    """SHA-256 of a paytable document in canonical JSON (sorted keys): what a version's content
    and its chained submission are compared by."""
    return hashlib.sha256(json.dumps(document, sort_keys=True, separators=(",", ":"),
                                     default=str).encode()).hexdigest()


@dataclass(slots=True)
class ChainedState:
    """What the chained records say each row holds, record by record in chain order."""

    submitted: dict[tuple[str, int], tuple[str, str | None]] = field(default_factory=dict)  # -> (hash, actor)
    decided: dict[tuple[str, int], tuple[str, str | None, datetime]] = field(default_factory=dict)  # -> status, by, at
    assigned: dict[str, list[tuple[Any, Any]]] = field(default_factory=dict)  # table -> (current, pending)
    staff: dict[str, tuple[str, bool]] = field(default_factory=dict)          # user_id -> (role, active)
    keys: dict[str, tuple[str, bool]] = field(default_factory=dict)           # key_id -> (role, revoked)
    limits: dict[str, tuple[str, Any]] = field(default_factory=dict)          # table -> (kind, its limits)
    people: dict[str, str] = field(default_factory=dict)                      # username -> user_id
    key_owners: dict[str, str | None] = field(default_factory=dict)           # key_id -> owner's user_id

    def person(self, actor: str | None) -> str | None:
        """Who an actor is, by the chained records alone: a person (by their account's id) for a
        console name or a key chained as theirs; otherwise the actor itself."""
        if actor is None:
            return None
        if actor.startswith(STAFF_PREFIX) and actor[len(STAFF_PREFIX):] in self.people:
            return "person:" + self.people[actor[len(STAFF_PREFIX):]]
        owner = self.key_owners.get(actor)
        return "person:" + owner if owner else actor

    def person_named(self, actor: str | None) -> str:
        """The person an actor is, as a problem names them."""
        person = self.person(actor)
        if person is None or not person.startswith("person:"):
            return repr(actor)
        user_id = person.removeprefix("person:")
        username = next((name for name, known in self.people.items() if known == user_id), user_id)
        return f"{username} ({actor})" if actor != STAFF_PREFIX + username else username

    def add(self, kind: str, actor: str | None, table_id: str | None, payload: dict[str, Any], at: datetime) -> None:
        if kind in ("paytable_version_seeded", "paytable_version_submitted"):
            key = (str(payload.get("paytable")), int(payload.get("version") or 0))
            self.submitted[key] = (document_hash(payload.get("after")), actor)
            if kind == "paytable_version_seeded":
                self.decided[key] = ("approved", SYSTEM_AUTHOR, at)
        elif kind in ("paytable_version_approved", "paytable_version_rejected"):
            key = (str(payload.get("paytable")), int(payload.get("version") or 0))
            self.decided[key] = (kind.removeprefix("paytable_version_"), actor, at)
        elif kind == "paytable_assigned" and table_id:
            after = payload.get("after") or {}
            self.assigned.setdefault(table_id, []).append((after.get("paytable_version"), after.get("pending_version")))
        elif kind == "staff_created":
            self.staff[str(payload.get("user_id"))] = (str(payload.get("role")), True)
            self.people[str(payload.get("username"))] = str(payload.get("user_id"))
        elif kind == "staff_role_changed":
            _, active = self.staff.get(str(payload.get("user_id")), ("", True))
            self.staff[str(payload.get("user_id"))] = (str(payload.get("to")), active)
        elif kind == "staff_deactivated":
            role, _ = self.staff.get(str(payload.get("user_id")), (str(payload.get("role")), True))
            self.staff[str(payload.get("user_id"))] = (role, False)
        elif kind == "key_created":
            self.keys[str(payload.get("key_id"))] = (str(payload.get("role")), False)
            owner = payload.get("owner_id")
            self.key_owners[str(payload.get("key_id"))] = str(owner) if owner else None
        elif kind == "key_revoked":
            role, _ = self.keys.get(str(payload.get("key_id")), (str(payload.get("role")), False))
            self.keys[str(payload.get("key_id"))] = (role, True)
        elif kind in LIMITS_KINDS and table_id:
            limits = payload.get("limits")
            self.limits[table_id] = (kind, limits if isinstance(limits, dict) else {})


def check_state(conn: psycopg.Connection, report: Report) -> None:
    """Every row the money and access depend on against its last chained record (see the module)."""
    state = ChainedState()
    with conn.cursor(row_factory=class_row(StateRecord)) as records:
        for record in records.execute(_STATE_RECORDS, (list(STATE_KINDS),)):
            state.add(record.kind, record.actor, record.table_id,
                      record.payload if isinstance(record.payload, dict) else {}, record.at)
    with conn.cursor(row_factory=class_row(StoredVersion)) as versions:
        check_versions(versions.execute(_VERSIONS), state, report)
    with conn.cursor(row_factory=class_row(StoredTable)) as tables:
        check_tables(tables.execute(_TABLES), state, report)
    with conn.cursor(row_factory=class_row(StoredLimits)) as limits:
        check_limits(limits.execute(_LIMITS), state, report)
    with conn.cursor(row_factory=class_row(StoredStaff)) as staff:
        check_staff(staff.execute(_STAFF), state, report)
    with conn.cursor(row_factory=class_row(StoredKey)) as keys:
        check_keys(keys.execute(_KEYS), state, report)
    with conn.cursor(row_factory=class_row(OpenedRound)) as rounds:
        check_rounds_opened_approved(rounds.execute(_ROUNDS_OPENED), state, report)


def check_versions(rows: Iterable[StoredVersion], state: ChainedState, report: Report) -> None:
    """A stored version's document is the one chained when it was submitted (or seeded), its
    author the submitter; its decision is the chained one, by the chained approver, not its author."""
    for row in rows:
        name, version, content, status, author, decided_by = (row.name, row.version, row.content, row.status,
                                                              row.author, row.decided_by)
        where = f"paytable version {name}@{version}"
        submitted = state.submitted.get((name, version))
        if submitted is None:
            report.problems.append(Problem(where, "stored, but no chained record submitted or seeded it"))
            continue
        digest, submitter = submitted
        if document_hash(content) != digest:
            report.problems.append(Problem(where, f"its document (sha256 {document_hash(content)[:16]}…) is not "
                                                  f"the one chained at its submission (sha256 {digest[:16]}…)"))
        if author != submitter:
            report.problems.append(Problem(where, f"its author is {author!r} but {submitter!r} submitted it"))
        decided = state.decided.get((name, version))
        if status == "draft":
            if decided is not None:
                report.problems.append(Problem(where, f"a draft, but its chained records say it was {decided[0]}"))
            continue
        if decided is None:
            report.problems.append(Problem(where, f"{status}, but no chained record decided it"))
            continue
        chained_status, approver, _ = decided
        if (status, decided_by) != (chained_status, approver):
            report.problems.append(Problem(where, f"{status} by {decided_by!r}, but the chained decision is "
                                                  f"{chained_status} by {approver!r}"))
        if chained_status == "approved" and submitter != SYSTEM_AUTHOR:
            if approver == submitter:
                report.problems.append(Problem(where, f"approved by its own submitter {approver!r}"))
            elif state.person(approver) == state.person(submitter):
                report.problems.append(Problem(where, f"approved by its own submitter's person: "
                                                      f"{state.person_named(submitter)} submitted it and "
                                                      f"{state.person_named(approver)} approved it"))


def check_tables(rows: Iterable[StoredTable], state: ChainedState, report: Report) -> None:
    """A table's current and pending paytable versions are what its last chained assignment left
    (its pending version becomes current when a round opens), or version 1 if it had none."""
    for row in rows:
        table_id, paytable, current, pending = row.table_id, row.paytable, row.current, row.pending
        where = f"table {table_id}"
        assignments = state.assigned.get(table_id)
        last_current, last_pending = assignments[-1] if assignments else (1, None)
        allowed = {version for version in (last_current, last_pending) if version is not None}
        if current not in allowed:
            report.problems.append(Problem(where, f"runs {paytable}@{current}, but its last chained assignment "
                                                  f"leaves it {paytable}@{last_current}"
                                                  + (f" or pending {last_pending}" if last_pending else "")))
        if pending is not None and pending != last_pending:
            report.problems.append(Problem(where, f"waits for {paytable}@{pending}, which no chained "
                                                  "assignment gave it"))


def check_limits(rows: Iterable[StoredLimits], state: ChainedState, report: Report) -> None:
    """A table's own betting limits, bet by bet and bound by bound, are those its last chained
    record setting them gave (its `table_created`), or none if no record did."""
    for row in rows:
        kind, chained = state.limits.get(row.table_id, (None, {}))
        stored = row.limits if isinstance(row.limits, dict) else {}
        chained = _first_bet_renamed(chained, stored)
        for bet in sorted(set(stored) | set(chained)):
            mine, theirs = stored.get(bet), chained.get(bet)
            if mine == theirs:
                continue
            for bound in _bounds(mine, theirs):
                have = _bound(mine, bound)
                want = _bound(theirs, bound)
                if have != want:
                    field_name = f"limits.{bet}" + (f".{bound}" if bound else "")
                    chained_as = (f"its chained {kind} record sets {_shown(want)}" if kind
                                  else "no chained record set the table's limits")
                    report.problems.append(Problem(f"table {row.table_id}",
                                                   f"{field_name} is {_shown(have)}, but {chained_as}"))


def _first_bet_renamed(chained: dict[str, Any], stored: dict[str, Any]) -> dict[str, Any]:
    """`main` is every game's name for a round's first bet; a table whose game calls it the stake
    has stored it as `stake` since migration 0023 renamed it, while a record chained before then
    still says `main`: read as the same bet."""
    if "main" in chained and "stake" not in chained and "stake" in stored and "main" not in stored:
        return {("stake" if bet == "main" else bet): value for bet, value in chained.items()}
    return chained


def _bounds(mine: Any, theirs: Any) -> tuple[str, ...]:
    """The bounds to compare a bet's limits by: min and max (and any other key either has), or
    the whole entry when it is not a mapping."""
    if isinstance(mine, dict | None) and isinstance(theirs, dict | None):
        extra = sorted((set(mine or {}) | set(theirs or {})) - {"min", "max"})
        return ("min", "max", *extra)
    return ("",)


def _bound(limits: Any, bound: str) -> Any:
    if not bound:
        return limits
    return limits.get(bound) if isinstance(limits, dict) else None


def _shown(value: Any) -> str:
    if value is None:
        return "none"
    return f"{value} cents" if isinstance(value, int) and not isinstance(value, bool) else json.dumps(value)


def check_staff(rows: Iterable[StoredStaff], state: ChainedState, report: Report) -> None:
    """An account's role and whether it is active are what its last chained change made them."""
    for row in rows:
        user_id, username, role, active = row.user_id, row.username, row.role, row.active
        where = f"staff account {username} ({user_id})"
        chained = state.staff.get(user_id)
        if chained is None:
            report.problems.append(Problem(where, "exists, but no chained record created it"))
        elif (role, active) != chained:
            report.problems.append(Problem(where, f"is {role}{'' if active else ' (deactivated)'}, but its last "
                                                  f"chained change made it {chained[0]}"
                                                  f"{'' if chained[1] else ' (deactivated)'}"))


def check_keys(rows: Iterable[StoredKey], state: ChainedState, report: Report) -> None:
    """A key's role and owner are the ones chained when it was created; a key chained as revoked
    stays revoked; a live key of a role that acts for a person belongs to one."""
    for row in rows:
        key_id, role, revoked = row.key_id, row.role, row.revoked
        where = f"API key {key_id}"
        chained = state.keys.get(key_id)
        if chained is None:
            report.problems.append(Problem(where, "exists, but no chained record created it"))
            continue
        if role != chained[0]:
            report.problems.append(Problem(where, f"has role {role}, but was chained as created with role "
                                                  f"{chained[0]}"))
        if chained[1] and not revoked:
            report.problems.append(Problem(where, "was chained as revoked, but is live again"))
        chained_owner = state.key_owners.get(key_id)
        if row.owner_id != chained_owner:
            report.problems.append(Problem(where, f"belongs to {_account(state, row.owner_id)}, but was chained as "
                                                  f"created for {_account(state, chained_owner)}"))
        elif role in PERSONAL_ROLES and chained_owner is None and not revoked:
            report.problems.append(Problem(where, f"is a live {role} key that belongs to no person: its actions "
                                                  "are nobody's"))


def _account(state: ChainedState, user_id: str | None) -> str:
    if user_id is None:
        return "nobody"
    username = next((name for name, known in state.people.items() if known == user_id), None)
    return f"staff account {username} ({user_id})" if username else f"account {user_id}"


def check_rounds_opened_approved(rows: Iterable[OpenedRound], state: ChainedState, report: Report) -> None:
    """Every round opened under a paytable version chained as approved before the round's
    round_opened record (version 1 may still be only its file, never stored)."""
    for row in rows:
        round_id, opened_at = row.round_id, row.opened_at
        try:
            ref = Ref.parse(row.paytable_ref)
        except RulesError:
            report.problems.append(Problem(f"round {round_id}", f"opened under {row.paytable_ref!r}, which names "
                                                                "no paytable version"))
            continue
        name, version = ref.name, ref.version
        decided = state.decided.get((name, version))
        if decided is None:
            if version == 1 and (name, 1) not in state.submitted:
                continue   # played from the file before any version was stored
            report.problems.append(Problem(f"round {round_id}", f"opened under {name}@{version}, which no "
                                                                "chained record approved"))
            continue
        status, approver, decided_at = decided
        if version == 1 and approver == SYSTEM_AUTHOR:
            continue   # the file's version: in force from the start, seeded whenever first needed
        if status != "approved" or (opened_at is not None and decided_at > opened_at):
            report.problems.append(Problem(f"round {round_id}", f"opened under {name}@{version} before it was "
                                                                "approved (or it never was)"))
