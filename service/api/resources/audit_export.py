"""/v1/audit/export: the audit log streamed as JSON lines or CSV, with every record's hashes, so
`pontoon audit verify FILE` checks a JSON-lines export offline."""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from zoneinfo import ZoneInfo

import marshmallow as ma
from flask import Response, current_app, stream_with_context
from flask.views import MethodView
from werkzeug.datastructures import Headers

from ...audit.export import export_end, export_lines
from ...reports.gaming_day import day_range, parse_day_start
from ...store.repositories.audit import AuditRecord, chain_for
from ..auth import principal, require
from ..blueprint import Blueprint
from ..docs import documented
from ..errors import fail
from ..schemas.audit_export import ExportQuerySchema
from ..transactions import request_uow

blp = Blueprint("audit", __name__, url_prefix="/v1/audit", description="The audit log, exported")

MEDIA_TYPES = {"jsonl": "application/x-ndjson", "csv": "text/csv"}
EXPORT_FORMATS = ("jsonl: one record a line (id, chain, seq, at, kind, actor, table_id, round_id, payload, "
                  "prev_hash, hash); csv: a header line, then the same columns (payload as JSON)")
# Where the export ends: the `to` asked for, or, when later records may still be committing, the
# instant before which every record is committed (a follow-on export starts there).
EXPORT_ENDS = "Pontoon-Export-Ends"
CHUNK_CHARS = 64 * 1024     # lines are sent in chunks of about this size: few writes, flat memory


def gaming_day_span(query: dict, settings) -> dict:
    """`since` and `until` for the gaming days the query names (none: nothing to add): from the
    first day's start to the start of the day after the last, in the casino's zone."""
    first = query.get("gaming_day") or query.get("gaming_day_from")
    if first is None:
        return {}
    last = query.get("gaming_day") or query["gaming_day_to"]
    window = day_range(first, last, parse_day_start(settings.gaming_day_starts), ZoneInfo(settings.timezone))
    return {"since": window.starts_at, "until": window.ends_at}


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


@blp.route("/export")
class Export(MethodView):
    @require("compliance")
    @blp.arguments(ExportQuerySchema(), location="query", unknown=ma.RAISE)
    @blp.response(200, {"type": "string"}, content_type=MEDIA_TYPES["jsonl"], description=EXPORT_FORMATS,
                  headers={EXPORT_ENDS: {"description": "where the export ends (exclusive): `to`, or the instant "
                                                        "before which every record has committed, if earlier",
                                         "schema": {"type": "string", "format": "date-time"}}})
    @blp.alt_response(200, schema={"type": "string"}, content_type=MEDIA_TYPES["csv"], success=True,
                      description=EXPORT_FORMATS)
    @documented(blp, 404)
    def get(self, query):
        """Stream the audit records from `from` (inclusive) to `to` (exclusive), or of the gaming
        days asked for (`gaming_day`, or `gaming_day_from` to `gaming_day_to`, in the casino's
        zone from its day start), of one table's chain or all, in id order. Memory stays flat
        for any range: a server-side cursor feeds the response as it is sent. The export itself
        is recorded (audit_exported). A range that reaches where records may still be committing
        ends before it, as the Pontoon-Export-Ends header says: records are never missed by an
        export that starts where the last ended."""
        uow = request_uow()
        table_id = query.get("table")
        if table_id is not None and uow.tables.get(table_id) is None:
            fail(404, "not_found", f"no table {table_id!r}")
        fmt = query["format"]
        settings = current_app.extensions["pontoon.settings"]
        query = {**query, **gaming_day_span(query, settings)}
        until = export_end(uow.audit, query.get("until"), settings.audit_clock_margin)
        # Built before the export is recorded: a response that cannot be sent records nothing.
        headers = Headers({"Content-Disposition": f'attachment; filename="audit-{table_id or "all"}.{fmt}"',
                           EXPORT_ENDS: until.isoformat()})
        with uow.transaction():
            uow.audit.append(chain_for(None), [AuditRecord("audit_exported", {
                "from": query.get("since"), "to": query.get("until"), "ends": until, "table_id": table_id,
                "format": fmt}, actor=principal().actor)])
        lines = export_lines(uow.audit, fmt=fmt, since=query.get("since"), until=until, table_id=table_id)
        # stream_with_context keeps the request (and its connection) alive until the last chunk.
        return Response(stream_with_context(chunks(lines)), mimetype=MEDIA_TYPES[fmt], headers=headers)
