"""The audit export's query: a time range (instants or gaming days), a table, a format."""
from __future__ import annotations

import re
from datetime import UTC
from typing import Any

import marshmallow as ma

from ...web.schemas.base import RequestSchema, table_id_text
from ...web.schemas.gaming_days import check_days, gaming_day_field

# An instant whose offset's "+" reached the query string unescaped, and so arrived as a space:
# "2026-11-26T06:00:00 11:00". A time then a space then HH:MM can only have been that "+".
_PLUS_AS_SPACE = re.compile(r"^(\S*\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?) (\d{2}:?\d{2})$")


class ExportQuerySchema(RequestSchema):
    since = ma.fields.AwareDateTime(data_key="from", default_timezone=UTC,
                                    metadata={"description": "records at or after this time (ISO 8601; UTC "
                                                             "when no offset is given; an offset's + is best "
                                                             "sent as %2B, e.g. 2026-11-26T06:00:00%2B11:00)"})
    until = ma.fields.AwareDateTime(data_key="to", default_timezone=UTC,
                                    metadata={"description": "records before this time"})
    gaming_day = gaming_day_field("records of this gaming day: from its start to the next day's (instead of from/to)")
    gaming_day_from = gaming_day_field("records from the start of this gaming day (with gaming_day_to)")
    gaming_day_to = gaming_day_field("records up to the end of this gaming day, included (with gaming_day_from)")
    table = ma.fields.String(validate=table_id_text(),
                             metadata={"description": "only this table's chain"})
    format = ma.fields.String(load_default="jsonl", validate=ma.validate.OneOf(["jsonl", "csv"]),
                              metadata={"description": "jsonl (what `pontoon audit verify FILE` checks) or csv"})

    @ma.pre_load
    def _offsets_sent_unescaped(self, data: Any, **_) -> Any:
        """Read a "+" that the query string turned into a space back as the offset's sign."""
        restored = {key: _PLUS_AS_SPACE.sub(r"\1+\2", data[key]) for key in ("from", "to")
                    if isinstance(data.get(key), str) and _PLUS_AS_SPACE.match(data[key])}
        return {**{key: data[key] for key in data}, **restored} if restored else data

    @ma.validates_schema
    def _ordered(self, data: dict, **_) -> None:
        check_days(data, {"since": "from", "until": "to"})
        if data.get("since") and data.get("until") and data["since"] >= data["until"]:
            raise ma.ValidationError("must be later than from", field_name="to")
