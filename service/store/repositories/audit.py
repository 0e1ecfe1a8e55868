"""The audit log's writer: records chained and appended inside the caller's transaction, each
chain's head row locked while it moves."""
from __future__ import annotations

import functools
import json
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime, timedelta
from typing import Any

import orjson
from psycopg import sql
from psycopg.rows import class_row, dict_row

from ..audit_hash import GENESIS, record_hash
from ..transaction import Statements, returned


@dataclass(frozen=True, slots=True)
class AuditRecord:
    kind: str                       # e.g. shoe_started, card_dealt, decision, wager, payout, key_created
    payload: dict[str, Any] = field(default_factory=dict)
    actor: str | None = None        # who: an API key id, "worker", "system"
    table_id: str | None = None
    round_id: str | None = None


@dataclass(frozen=True, slots=True)
class LockedHead:
    """A chain's head as a statement of the caller's locked it, before the change it will record."""
    position: tuple[int, str]          # (seq, hash)
    now: datetime                      # the transaction's time, as that statement read it


@dataclass(frozen=True, slots=True)
class AuditLogRow:
    """An audit_log row as exported and verified."""
    id: int
    chain: str
    seq: int
    at: datetime
    kind: str
    actor: str | None
    table_id: str | None
    round_id: uuid.UUID | None
    payload: Any                    # JSON as stored: an object for every record the service writes
    prev_hash: str
    hash: str


@dataclass(frozen=True, slots=True)
class RoundFacts:
    """A round with what the verifier compares: its row, its round_events ({seq, kind, payload},
    in seq order), its chained records ({id, chain, seq, kind, payload}, in chain order), its
    ledger rows ({seat, hand, kind, stake, returned, outcome}), its kitty and its table's limits."""
    round_id: str
    table_id: str
    status: str
    shoe_id: str | None
    rules_ref: str
    paytable_ref: str | None
    wagers: list[dict[str, Any]]
    result: dict[str, Any] | None
    events: list[dict[str, Any]]
    records: list[dict[str, Any]]
    ledger: list[dict[str, Any]]
    kitty: int | None
    limits: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class UnboundMoneyRecord:
    """A money record naming a round the database does not hold."""
    id: int
    chain: str
    seq: int
    kind: str
    round_id: str


@dataclass(frozen=True, slots=True)
class RefusalMinute:
    """One source's requests refused before a valid key was known, in one minute, by reason."""
    source: str
    minute: datetime
    refused: int
    reasons: dict[str, int]


def chain_for(table_id: str | None) -> str:
    return f"table:{table_id}" if table_id else "system"


# Creates the chain's head if need be and locks it: DO UPDATE takes the row lock and returns the
# committed head, as SELECT ... FOR UPDATE would (writing a row version of its own).
HEAD_LOCK = ("INSERT INTO audit_chain_heads (chain, seq, hash) VALUES (%(chain)s, 0, %(genesis)s) "
             "ON CONFLICT (chain) DO UPDATE SET chain = EXCLUDED.chain RETURNING seq, hash")
# Locks a chain's head that exists already (no row: none yet), writing no row version: the move
# that follows writes the one a change of the chain needs.
HEAD_LOCK_EXISTING = "SELECT seq, hash FROM audit_chain_heads WHERE chain = %(chain)s FOR UPDATE"
# A table's chain head, locked with the transaction's time, for a table playing one of %(games)s
# (chain_for() written in SQL).
_HEAD_OF_TABLE = ("SELECT seq, hash, now() AS now FROM audit_chain_heads WHERE chain = ("
                  "SELECT 'table:' || table_id FROM tables WHERE table_id = %(table_id)s "
                  "AND game = ANY(%(games)s)) FOR UPDATE")

# The records, as one JSON array, and the head's move, in one statement. It is sent whole, so the
# server never holds the head's lock waiting for a writer to stream rows (as with COPY).
APPEND = (
    "WITH added AS (INSERT INTO audit_log (chain, seq, at, kind, actor, table_id, round_id, payload, prev_hash, hash) "
    "SELECT %(chain)s, (r->>0)::bigint, %(at)s::timestamptz, r->>1, r->>2, r->>3, (r->>4)::uuid, r->5, r->>6, r->>7 "
    "FROM jsonb_array_elements(%(rows)s::jsonb) AS r) "
    "UPDATE audit_chain_heads SET seq = %(head_seq)s, hash = %(head_hash)s WHERE chain = %(chain)s")

# An audit_log row's columns as exported and verified, in this order.
EXPORT_COLUMNS = tuple(column.name for column in fields(AuditLogRow))

# Each round with what the verifier compares: its row, its round_events, its chained records (in chain
# order) and its ledger rows, one round a row ({rounds}: all of them, or the one named).
_ROUND_FACTS = sql.SQL("""
SELECT r.round_id::text AS round_id, r.table_id, r.status, r.shoe_id::text AS shoe_id, r.rules_ref, r.paytable_ref,
       r.wagers, r.result,
       COALESCE((SELECT json_agg(json_build_object('seq', e.seq, 'kind', e.kind, 'payload', e.payload)
                                 ORDER BY e.seq)
                 FROM round_events e WHERE e.round_id = r.round_id), '[]'::json) AS events,
       COALESCE((SELECT json_agg(json_build_object('id', a.id, 'chain', a.chain, 'seq', a.seq, 'kind', a.kind,
                                                   'payload', a.payload) ORDER BY a.chain, a.seq)
                 FROM audit_log a WHERE a.round_id = r.round_id), '[]'::json) AS records,
       COALESCE((SELECT json_agg(json_build_object('seat', l.seat, 'hand', l.hand, 'kind', l.kind, 'stake', l.stake,
                                                   'returned', l.returned, 'outcome', l.outcome)
                                 ORDER BY l.seat, l.hand, l.kind)
                 FROM ledger_entries l WHERE l.round_id = r.round_id), '[]'::json) AS ledger,
       (SELECT t.kitty_before FROM traditional_rounds t WHERE t.round_id = r.round_id) AS kitty,
       (SELECT t.limits FROM tables t WHERE t.table_id = r.table_id) AS limits
FROM rounds r {rounds} ORDER BY r.round_id
""")
_ALL_ROUNDS = sql.SQL("")
# The same facts of one round (a recalled round re-verified by itself).
_ONE_ROUND = sql.SQL("WHERE r.round_id = %s")
# Money records that name no round at all: nothing in the ledger can stand behind them.
_MONEY_RECORDS_WITHOUT_ROUND = (
    "SELECT a.id, a.chain, a.seq, a.kind, a.round_id::text AS round_id FROM audit_log a WHERE a.kind = ANY(%s) "
    "AND NOT EXISTS (SELECT 1 FROM rounds r WHERE r.round_id = a.round_id) ORDER BY a.chain, a.seq")

# A request refused before a valid key was known, counted in its source's row for this minute.
_COUNT_REFUSAL = (
    "INSERT INTO access_refusals (source, minute, refused, reasons) "
    "VALUES (%(source)s, date_trunc('minute', now()), 1, jsonb_build_object(%(reason)s::text, 1)) "
    "ON CONFLICT (source, minute) DO UPDATE SET refused = access_refusals.refused + 1, "
    "reasons = access_refusals.reasons || jsonb_build_object(%(reason)s::text, "
    "COALESCE((access_refusals.reasons->>%(reason)s::text)::bigint, 0) + 1)")
# Minutes over (by a few seconds, for transactions stamped just before the minute turned) and not
# chained yet, claimed by one process: rows another is claiming are skipped, never waited for.
_CLAIM_REFUSAL_MINUTES = (
    "UPDATE access_refusals SET chained = true WHERE (source, minute) IN ("
    "SELECT source, minute FROM access_refusals WHERE NOT chained "
    "AND minute < date_trunc('minute', now() - interval '5 seconds') FOR UPDATE SKIP LOCKED) "
    "RETURNING source, minute, refused, reasons")
_PRUNE_REFUSALS = "DELETE FROM access_refusals WHERE chained AND minute < now() - interval '1 day'"

# json.dumps(payload, default=str) would build this same encoder anew for every record.
_ENCODE_PAYLOAD = json.JSONEncoder(default=str).encode


@functools.lru_cache(maxsize=1024)   # a round's change writes several records, a round several changes
def _round_id_text(round_id: Any) -> str | None:
    # Hash the form the uuid column gives back, whatever the caller passed (UUID, upper case).
    return None if round_id is None else str(uuid.UUID(str(round_id)))


class AuditRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    def lock_table_head(self, table_id: str, games: tuple[str, ...]) -> LockedHead | None:
        """Lock the table's chain head, with the transaction's time, if the table plays one of
        `games` (None: another game, or a chain with no head yet)."""
        with self.db.cursor(row_factory=dict_row) as cur:
            head = cur.execute(_HEAD_OF_TABLE, {"table_id": table_id, "games": list(games)}).fetchone()
        return LockedHead((head["seq"], head["hash"]), head["now"]) if head is not None else None

    def append(self, chain: str, records: list[AuditRecord], head: tuple[int, str] | None = None) -> None:
        """Chain and insert `records` in order, in the caller's transaction: they commit or roll
        back with the state they describe. `head`: the chain's (seq, hash) when the caller's own
        statement locked it already (with HEAD_LOCK_EXISTING), saving a statement; without it the
        head is locked here (and created when the chain has none yet)."""
        if not records:
            return
        if head is None:
            with self.db.cursor(row_factory=dict_row) as cur:
                locked = returned(cur.execute(HEAD_LOCK, {"chain": chain, "genesis": GENESIS}).fetchone())
            head = (locked["seq"], locked["hash"])
        seq, prev = head
        # Taken after the head lock, so times never run backwards along one chain (on one host).
        at = datetime.now(UTC).isoformat(timespec="microseconds")
        rows = []   # (seq, kind, actor, table_id, round_id, payload, prev_hash, hash), as APPEND reads them
        for record in records:
            seq += 1
            payload = json.loads(_ENCODE_PAYLOAD(record.payload))  # what JSONB will hold
            round_id = _round_id_text(record.round_id)
            digest = record_hash(chain, seq, at, record.kind, record.actor, record.table_id,
                                 round_id, payload, prev)
            rows.append((seq, record.kind, record.actor, record.table_id, round_id, payload, prev, digest))
            prev = digest
        # The rows hold JSON values only by now (the payloads were read back above), which orjson
        # writes as the standard library would read them.
        self.db.execute(APPEND, {"chain": chain, "at": at, "head_seq": seq, "head_hash": prev,
                                 "rows": orjson.dumps(rows).decode()})

    def settled_until(self, clock_margin: float) -> datetime:
        """The instant before which every audit record there will ever be has committed (or rolled
        back): when the oldest open writing transaction started (pontoon_audit_horizon, migration
        0009), less `clock_margin` seconds for the clocks of the hosts that stamp records."""
        with self.db.cursor(row_factory=dict_row) as cur:
            settled = returned(cur.execute("SELECT pontoon_audit_horizon() - %s AS settled",
                                           (timedelta(seconds=clock_margin),)).fetchone())
        horizon: datetime = settled["settled"]
        return horizon

    def rows(self, *, since: datetime | None = None, until: datetime | None = None, chain: str | None = None,
             order_by: str = "id", fetch_rows: int = 2000) -> Iterator[AuditLogRow]:
        """Audit rows in `order_by` order ("id", or "chain" for chain then seq),
        filtered by time (`since` inclusive, `until` exclusive) and by chain, through a server-side
        cursor in the caller's transaction: memory stays `fetch_rows` rows however long the log."""
        conditions, params = [], []
        for condition, value in (("at >= %s", since), ("at < %s", until), ("chain = %s", chain)):
            if value is not None:
                conditions.append(sql.SQL(condition))
                params.append(value)
        where = sql.SQL("WHERE {}").format(sql.SQL(" AND ").join(conditions)) if conditions else sql.SQL("")
        order = {"id": sql.SQL("id"), "chain": sql.SQL("chain, seq")}[order_by]
        # A server-side cursor lives in a transaction: the caller's, or this block's own.
        with self.db.transaction(), self.db.cursor("audit_records", row_factory=class_row(AuditLogRow)) as cursor:
            cursor.itersize = fetch_rows
            cursor.execute(sql.SQL("SELECT {columns} FROM audit_log {where} ORDER BY {order}").format(
                columns=sql.SQL(", ").join(map(sql.Identifier, EXPORT_COLUMNS)), where=where, order=order), params)
            yield from cursor

    def count_refusal(self, source: str, reason: str) -> None:
        """Count a request from `source` refused before a valid key was known, in this minute's row.
        The count is not money: its transaction does not wait for the disk (a crash may lose the
        last moment's counts, never a record of the chain), so a flood of refusals costs little."""
        self.db.execute("SET LOCAL synchronous_commit = off")
        self.db.execute(_COUNT_REFUSAL, {"source": source, "reason": reason})

    def claim_refusal_minutes(self) -> list[RefusalMinute]:
        """Every minute now over whose refusals are not chained yet, by minute then source, marked
        chained: the caller appends their summary records in this transaction."""
        with self.db.cursor(row_factory=class_row(RefusalMinute)) as cur:
            claimed = cur.execute(_CLAIM_REFUSAL_MINUTES).fetchall()
        if claimed:
            self.db.execute(_PRUNE_REFUSALS)
        return sorted(claimed, key=lambda row: (row.minute, row.source))

    def round_facts(self, fetch_rows: int = 500) -> Iterator[RoundFacts]:
        """Every round as the verifier rebuilds it, through a server-side cursor in the caller's
        transaction."""
        with self.db.transaction(), self.db.cursor("audit_round_facts", row_factory=class_row(RoundFacts)) as cursor:
            cursor.itersize = fetch_rows
            cursor.execute(_ROUND_FACTS.format(rounds=_ALL_ROUNDS))
            yield from cursor

    def round_facts_of(self, round_id: uuid.UUID) -> RoundFacts | None:
        """One round as round_facts gives each (a recalled round re-verified on its own); None if
        there is no such round."""
        with self.db.cursor(row_factory=class_row(RoundFacts)) as cur:
            return cur.execute(_ROUND_FACTS.format(rounds=_ONE_ROUND), (round_id,)).fetchone()

    def money_records_without_round(self, kinds: tuple[str, ...]) -> list[UnboundMoneyRecord]:
        """The records of `kinds` naming no stored round."""
        with self.db.cursor(row_factory=class_row(UnboundMoneyRecord)) as cur:
            return cur.execute(_MONEY_RECORDS_WITHOUT_ROUND, (list(kinds),)).fetchall()

    def chain_heads(self) -> dict[str, tuple[int, str]]:
        """chain -> (seq, hash) of its head row."""
        with self.db.cursor(row_factory=dict_row) as cur:
            return {row["chain"]: (row["seq"], row["hash"])
                    for row in cur.execute("SELECT chain, seq, hash FROM audit_chain_heads")}

    def append_by_chain(self, records_by_chain: Mapping[str, list[AuditRecord]]) -> None:
        """Append to several chains in one transaction, locking their heads in name order so two
        writers that touch the same chains can never wait on each other in a cycle."""
        for chain in sorted(records_by_chain):
            self.append(chain, records_by_chain[chain])
