"""/v1/audit/export: the audit log streamed as JSON lines or CSV, with every record's hashes, so
`pontoon audit verify FILE` checks a JSON-lines export offline."""
from __future__ import annotations

import json
from zoneinfo import ZoneInfo

import marshmallow as ma
from flask import Response, current_app, request
from flask.views import MethodView

from ...audit.checkpoints import read_checkpoints
from ...reports.gaming_day import day_range, parse_day_start
from ...web.access import Task, roles_for
from ...web.audit_export import EXPORT_ENDS, MEDIA_TYPES, export_response
from ..auth import principal, require
from ..blueprint import Blueprint
from ..docs import CONTENT_DISPOSITION, documented
from ..errors import fail
from ..schemas.audit_export import ExportQuerySchema
from ..transactions import request_uow

blp = Blueprint("audit", __name__, url_prefix="/v1/audit", description="The audit log, exported")

PLAIN_TEXT = "text/plain"
CHECKPOINT_LINES = "one signed checkpoint a line (chain, seq, hash, at, key, signature)"
EXPORT_FORMATS = ("jsonl: one record a line (id, chain, seq, at, kind, actor, table_id, round_id, payload, "
                  "prev_hash, hash); csv: a header line, then the same columns (payload as JSON)")


def gaming_day_span(query: dict, settings) -> dict:
    """`since` and `until` for the gaming days the query names (none: nothing to add): from the
    first day's start to the start of the day after the last, in the casino's zone."""
    first = query.get("gaming_day") or query.get("gaming_day_from")
    if first is None:
        return {}
    last = query.get("gaming_day") or query["gaming_day_to"]
    window = day_range(first, last, parse_day_start(settings.gaming_day_starts), ZoneInfo(settings.timezone))
    return {"since": window.starts_at, "until": window.ends_at}


@blp.route("/export")
class Export(MethodView):
    @require(*roles_for(Task.AUDIT))
    @blp.arguments(ExportQuerySchema(), location="query", unknown=ma.RAISE)
    @blp.response(200, {"type": "string"}, content_type=MEDIA_TYPES["jsonl"], description=EXPORT_FORMATS,
                  headers={EXPORT_ENDS: {"description": "where the export ends (exclusive): `to`, or the instant "
                                                        "before which every record has committed, if earlier",
                                         "schema": {"type": "string", "format": "date-time"}},
                           CONTENT_DISPOSITION: CONTENT_DISPOSITION})
    @blp.alt_response(200, schema={"type": "string"}, content_type=MEDIA_TYPES["csv"], success=True,
                      description=EXPORT_FORMATS)
    @documented(blp, "exportAudit", 404)
    def get(self, query):
        """Export the audit log.

        Streams the audit records from `from` (inclusive) to `to` (exclusive), or of the gaming
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
        settings = current_app.extensions["pontoon.settings"]
        query = {**query, **gaming_day_span(query, settings)}
        return export_response(uow, since=query.get("since"), until=query.get("until"), table_id=table_id,
                               fmt=query["format"], actor=principal().actor, clock_margin=settings.audit_clock_margin)


@blp.route("/checkpoints")
class Checkpoints(MethodView):
    @require(*roles_for(Task.AUDIT))
    @blp.response(200, {"type": "string"}, content_type=MEDIA_TYPES["jsonl"], description=CHECKPOINT_LINES,
                  headers={CONTENT_DISPOSITION: CONTENT_DISPOSITION})
    @blp.alt_response(200, schema={"type": "string"}, content_type=PLAIN_TEXT, success=True,
                      description=f"{CHECKPOINT_LINES}, as plain text: what a request that prefers {PLAIN_TEXT} "
                                  f"(by its Accept) is sent")
    @documented(blp, "getAuditCheckpoints")
    def get(self):
        """Read the signed checkpoints of the audit chains.

        The signed checkpoints of the chains' heads (PONTOON_CHECKPOINT_DIR), as JSON lines: with
        an export, `pontoon audit verify FILE --checkpoints DIR` shows the chains extend every one
        of them. Empty when the service keeps no checkpoints."""
        directory = current_app.extensions["pontoon.settings"].checkpoint_dir
        lines = [json.dumps(checkpoint, sort_keys=True) + "\n"
                 for checkpoint in (read_checkpoints(directory) if directory else [])]
        # JSON lines have no media type every client knows: one that asks for text gets them as text.
        mimetype = request.accept_mimetypes.best_match([MEDIA_TYPES["jsonl"], PLAIN_TEXT], MEDIA_TYPES["jsonl"])
        return Response("".join(lines), mimetype=mimetype,
                        headers={"Content-Disposition": 'attachment; filename="checkpoints.jsonl"'})
