"""Streams audit records out of the database through a server-side cursor, as JSON lines or CSV."""
from __future__ import annotations

import csv
import io
import json
from datetime import datetime, timedelta, timezone
from typing import Any, Iterator

import psycopg

from .log import chain_for

COLUMNS = ("id", "chain", "seq", "at", "kind", "actor", "table_id", "round_id", "payload", "prev_hash", "hash")
FORMATS = ("jsonl", "csv")
FETCH_ROWS = 2000  # rows per round trip from the server-side cursor: memory stays this size


def export_end(conn: psycopg.Connection, until: datetime | None, clock_margin: float) -> datetime:
    """Where an export asked to end at `until` (None: now) can end complete: there, or earlier,
    at the instant before which every audit record there will ever be has committed (or rolled
    back), so that a record committing late is in the export that starts where this one ended.
    The database says when its oldest open writing transaction started (pontoon_audit_horizon,
    migration 0009); less `clock_margin` seconds, for the clocks of the hosts that stamp records."""
    settled = conn.execute("SELECT pontoon_audit_horizon() - %s",
                           (timedelta(seconds=clock_margin),)).fetchone()[0]
    return settled if until is None or until > settled else until


def canonical_at(value: datetime) -> str:
    """The timestamp as the writer hashed it: UTC, ISO 8601, microseconds."""
    return value.astimezone(timezone.utc).isoformat(timespec="microseconds")


def record_from_row(row: tuple) -> dict[str, Any]:
    """An audit_log row (COLUMNS order) as the dict the hash is computed over, plus its id."""
    record = dict(zip(COLUMNS, row))
    record["at"] = canonical_at(record["at"])
    record["round_id"] = None if record["round_id"] is None else str(record["round_id"])
    return record


def iter_records(conn: psycopg.Connection, *, since: datetime | None = None, until: datetime | None = None,
                 table_id: str | None = None, order_by: str = "id") -> Iterator[dict[str, Any]]:
    """Audit records in `order_by` order ("id", or "chain" for chain then seq), filtered by time
    (`since` inclusive, `until` exclusive) and by table (that table's chain). A server-side
    cursor inside its own transaction keeps memory constant however long the log is."""
    conditions, params = [], []
    if since is not None:
        conditions.append("at >= %s")
        params.append(since)
    if until is not None:
        conditions.append("at < %s")
        params.append(until)
    if table_id is not None:
        conditions.append("chain = %s")
        params.append(chain_for(table_id))
    where = f"WHERE {' AND '.join(conditions)}" if conditions else ""
    order = {"id": "id", "chain": "chain, seq"}[order_by]
    query = f"SELECT {', '.join(COLUMNS)} FROM audit_log {where} ORDER BY {order}"
    with conn.transaction():
        with conn.cursor(name="audit_records") as cursor:
            cursor.itersize = FETCH_ROWS
            cursor.execute(query, params)
            for row in cursor:
                yield record_from_row(row)


def to_json_line(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"


def _csv_lines(records: Iterator[dict[str, Any]]) -> Iterator[str]:
    buffer = io.StringIO()
    writer = csv.writer(buffer)

    def line(values) -> str:
        buffer.seek(0)
        buffer.truncate()
        writer.writerow(values)
        return buffer.getvalue()

    yield line(COLUMNS)
    for record in records:
        yield line([json.dumps(record["payload"], ensure_ascii=False, separators=(",", ":"))
                    if column == "payload" else record[column] for column in COLUMNS])


def export_lines(conn: psycopg.Connection, *, fmt: str = "jsonl", since: datetime | None = None,
                 until: datetime | None = None, table_id: str | None = None) -> Iterator[str]:
    """The export as text lines, one record per line (CSV starts with a header): a generator an
    HTTP endpoint can stream as it is."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    records = iter_records(conn, since=since, until=until, table_id=table_id)
    if fmt == "csv":
        return _csv_lines(records)
    return (to_json_line(record) for record in records)
