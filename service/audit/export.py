"""Streams audit records out of the database through a server-side cursor, as JSON lines or CSV."""
from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from ..store.repositories.audit import EXPORT_COLUMNS, AuditLogRow, AuditRepository, chain_for

COLUMNS = EXPORT_COLUMNS
FORMATS = ("jsonl", "csv")
FETCH_ROWS = 2000  # rows per round trip from the server-side cursor: memory stays this size


def export_end(audit: AuditRepository, until: datetime | None, clock_margin: float) -> datetime:
    """Where an export asked to end at `until` (None: now) can end complete: there, or earlier,
    where every record before has committed (AuditRepository.settled_until), so that a record
    committing late is in the export that starts where this one ended."""
    settled = audit.settled_until(clock_margin)
    return settled if until is None or until > settled else until


def canonical_at(value: datetime) -> str:
    """The timestamp as the writer hashed it: UTC, ISO 8601, microseconds."""
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def record_from_row(row: AuditLogRow) -> dict[str, Any]:
    """An audit_log row as the dict the hash is computed over, plus its id (keys in COLUMNS order)."""
    return {"id": row.id, "chain": row.chain, "seq": row.seq, "at": canonical_at(row.at), "kind": row.kind,
            "actor": row.actor, "table_id": row.table_id,
            "round_id": None if row.round_id is None else str(row.round_id), "payload": row.payload,
            "prev_hash": row.prev_hash, "hash": row.hash}


def iter_records(audit: AuditRepository, *, since: datetime | None = None, until: datetime | None = None,
                 table_id: str | None = None, order_by: str = "id") -> Iterator[dict[str, Any]]:
    """Audit records in `order_by` order ("id", or "chain" for chain then seq), filtered by time
    (`since` inclusive, `until` exclusive) and by table (that table's chain), read in the caller's
    transaction through a server-side cursor: memory stays constant however long the log is."""
    chain = chain_for(table_id) if table_id is not None else None
    for row in audit.rows(since=since, until=until, chain=chain, order_by=order_by, fetch_rows=FETCH_ROWS):
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


def export_lines(audit: AuditRepository, *, fmt: str = "jsonl", since: datetime | None = None,
                 until: datetime | None = None, table_id: str | None = None) -> Iterator[str]:
    """The export as text lines, one record per line (CSV starts with a header): a generator an
    HTTP endpoint can stream as it is (in the caller's transaction)."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    records = iter_records(audit, since=since, until=until, table_id=table_id)
    if fmt == "csv":
        return _csv_lines(records)
    return (to_json_line(record) for record in records)
