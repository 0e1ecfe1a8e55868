"""The audit log exported over HTTP, by the REST API and the console alike: the export recorded in
the log, then its lines streamed in chunks, with the header saying where it ends."""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime

from flask import Response, stream_with_context
from werkzeug.datastructures import Headers

from ..audit.export import export_end, export_lines
from ..store.repositories.audit import AuditRecord, chain_for
from ..store.uow import UnitOfWork

MEDIA_TYPES = {"jsonl": "application/x-ndjson", "csv": "text/csv"}
# Where the export ends: the `until` asked for, or, when later records may still be committing, the
# instant before which every record is committed (a follow-on export starts there).
EXPORT_ENDS = "Pontoon-Export-Ends"
CHUNK_CHARS = 64 * 1024     # lines are sent in chunks of about this size: few writes, flat memory


def chunks(lines: Iterable[str], size: int = CHUNK_CHARS) -> Iterator[str]:
    batch: list[str] = []
    held = 0
    for line in lines:
        batch.append(line)
        held += len(line)
        if held >= size:
            yield "".join(batch)
            batch, held = [], 0
    if batch:
        yield "".join(batch)


def export_response(uow: UnitOfWork, *, since: datetime | None, until: datetime | None, table_id: str | None,
                    fmt: str, actor: str, clock_margin: float, file_name: str | None = None) -> Response:
    """The records from `since` (inclusive) to `until` (exclusive; None: now), of one table's chain
    or all, streamed as they are read: a server-side cursor feeds the response, so a month is never
    held in memory. The export itself is recorded (audit_exported) and committed first: a response
    that cannot be built records nothing, and one that is sent is always on the record. `file_name`:
    the download's name (without its extension), else one naming the table."""
    ends = export_end(uow.audit, until, clock_margin)
    name = file_name or f"audit-{table_id or 'all'}"
    headers = Headers({"Content-Disposition": f'attachment; filename="{name}.{fmt}"',
                       EXPORT_ENDS: ends.isoformat()})
    with uow.transaction():
        uow.audit.append(chain_for(None), [AuditRecord("audit_exported", {
            "from": _text(since), "to": _text(until), "ends": ends.isoformat(), "table_id": table_id,
            "format": fmt}, actor=actor)])
    lines = export_lines(uow.audit, fmt=fmt, since=since, until=ends, table_id=table_id)
    # stream_with_context keeps the request (and its connection) alive until the last chunk.
    return Response(stream_with_context(chunks(lines)), mimetype=MEDIA_TYPES[fmt], headers=headers)


def _text(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()
