"""Appends audit records to a chain inside the caller's transaction (the chain head row is locked)."""
from __future__ import annotations

import functools
import json
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable, Mapping

import psycopg

from .chain import GENESIS, record_hash


@dataclass(frozen=True)
class AuditRecord:
    kind: str                       # e.g. shoe_started, card_dealt, decision, wager, payout, key_created
    payload: dict[str, Any] = field(default_factory=dict)
    actor: str | None = None        # who: an API key id, "worker", "system"
    table_id: str | None = None
    round_id: str | None = None


# Creates the chain's head if need be and locks it: DO UPDATE takes the row lock and returns the
# committed head, as SELECT ... FOR UPDATE would (writing a row version of its own).
HEAD_LOCK = ("INSERT INTO audit_chain_heads (chain, seq, hash) VALUES (%(chain)s, 0, %(genesis)s) "
             "ON CONFLICT (chain) DO UPDATE SET chain = EXCLUDED.chain RETURNING seq, hash")
# Locks a chain's head that exists already (no row: none yet), writing no row version: the move
# that follows writes the one a change of the chain needs.
HEAD_LOCK_EXISTING = "SELECT seq, hash FROM audit_chain_heads WHERE chain = %(chain)s FOR UPDATE"


def lock_table_head(conn: psycopg.Connection, table_id: str, games: tuple[str, ...]
                    ) -> Callable[[], LockedHead | None]:
    """Lock the table's chain head, with the transaction's time, if the table plays one of `games`:
    sent now, read when the function returned is called (in pipeline mode, what is sent in between
    shares the round trip). None: another game, or a chain with no head yet."""
    cursor = conn.execute(_HEAD_OF_TABLE, {"table_id": table_id, "games": list(games)})
    return lambda: LockedHead.of(cursor.fetchone())


# json.dumps(payload, default=str) would build this same encoder anew for every record.
_ENCODE_PAYLOAD = json.JSONEncoder(default=str).encode


def chain_for(table_id: str | None) -> str:
    return f"table:{table_id}" if table_id else "system"


@dataclass(frozen=True, slots=True)
class LockedHead:
    """A chain's head as a statement of the caller's locked it, before the change it will record."""
    position: tuple[int, str]          # (seq, hash)
    now: datetime                      # the transaction's time, as that statement read it

    @staticmethod
    def of(row: tuple | None) -> "LockedHead | None":
        """The head a head_lock_with_time() statement gave (None: it gave no row)."""
        return None if row is None else LockedHead((row[0], row[1]), row[2])


def head_lock_with_time(table_id_query: str) -> str:
    """The statement that locks the chain head of the table `table_id_query` gives (its column
    table_id), with the transaction's time (what now() gives every statement of it): no row when
    the query gives none, or when the chain has no head yet. chain_for() is written in SQL here."""
    return ("SELECT seq, hash, now() FROM audit_chain_heads WHERE chain = ("
            f"SELECT 'table:' || found.table_id FROM ({table_id_query}) AS found) FOR UPDATE")


# A table's chain head, for a table playing one of %(games)s.
_HEAD_OF_TABLE = head_lock_with_time(
    "SELECT table_id FROM tables WHERE table_id = %(table_id)s AND game = ANY(%(games)s)")


@functools.lru_cache(maxsize=1024)   # a round's change writes several records, a round several changes
def _round_id_text(round_id: Any) -> str | None:
    # Hash the form the uuid column gives back, whatever the caller passed (UUID, upper case).
    return None if round_id is None else str(uuid.UUID(str(round_id)))


def append(conn: psycopg.Connection, chain: str, records: list[AuditRecord],
           head: Callable[[], tuple[int, str] | None] | None = None) -> None:
    """Chain and insert `records` in order. Call inside the request's transaction: they commit
    or roll back with the round state they describe. `head` gives the chain's (seq, hash) when the
    caller's own statement locked it already (with HEAD_LOCK_EXISTING), saving a statement; None
    from it means the chain has no head yet, which HEAD_LOCK then creates."""
    if not records:
        return
    locked = head() if head is not None else None
    if locked is None:
        locked = conn.execute(HEAD_LOCK, {"chain": chain, "genesis": GENESIS}).fetchone()
    seq, prev = locked
    # Taken after the head lock, so times never run backwards along one chain (on one host).
    at = datetime.now(timezone.utc).isoformat(timespec="microseconds")
    rows = []   # (seq, kind, actor, table_id, round_id, payload, prev_hash, hash), as _APPEND reads them
    for record in records:
        seq += 1
        payload = json.loads(_ENCODE_PAYLOAD(record.payload))  # what JSONB will hold
        round_id = _round_id_text(record.round_id)
        digest = record_hash(chain, seq, at, record.kind, record.actor, record.table_id,
                             round_id, payload, prev)
        rows.append((seq, record.kind, record.actor, record.table_id, round_id, payload, prev, digest))
        prev = digest
    # The records, as one JSON array, and the head's move go in one statement. It is sent whole,
    # so the server never holds the head's lock waiting for a writer to stream rows (as with
    # COPY); in pipeline mode (a request's command) nobody reads its result and it travels with
    # the commit.
    conn.execute(_APPEND, {"chain": chain, "at": at, "head_seq": seq, "head_hash": prev, "rows": json.dumps(rows)})


_APPEND = (
    "WITH added AS (INSERT INTO audit_log (chain, seq, at, kind, actor, table_id, round_id, payload, prev_hash, hash) "
    "SELECT %(chain)s, (r->>0)::bigint, %(at)s::timestamptz, r->>1, r->>2, r->>3, (r->>4)::uuid, r->5, r->>6, r->>7 "
    "FROM jsonb_array_elements(%(rows)s::jsonb) AS r) "
    "UPDATE audit_chain_heads SET seq = %(head_seq)s, hash = %(head_hash)s WHERE chain = %(chain)s")


def append_by_chain(conn: psycopg.Connection, records_by_chain: Mapping[str, list[AuditRecord]]) -> None:
    """Append to several chains in one transaction, locking their heads in name order so two
    writers that touch the same chains can never wait on each other in a cycle."""
    for chain in sorted(records_by_chain):
        append(conn, chain, records_by_chain[chain])
