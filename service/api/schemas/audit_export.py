"""The audit export's query: a time range, a table, a format."""
from __future__ import annotations

from datetime import UTC

import marshmallow as ma

from .base import TABLE_ID_PATTERN, Pattern, RequestSchema


class ExportQuerySchema(RequestSchema):
    since = ma.fields.AwareDateTime(data_key="from", default_timezone=UTC,
                                    metadata={"description": "records at or after this time (ISO 8601; UTC "
                                                             "when no offset is given)"})
    until = ma.fields.AwareDateTime(data_key="to", default_timezone=UTC,
                                    metadata={"description": "records before this time"})
    table = ma.fields.String(validate=Pattern(f"^{TABLE_ID_PATTERN}$"),
                             metadata={"description": "only this table's chain"})
    format = ma.fields.String(load_default="jsonl", validate=ma.validate.OneOf(["jsonl", "csv"]),
                              metadata={"description": "jsonl (what `pontoon audit verify FILE` checks) or csv"})

    @ma.validates_schema
    def _ordered(self, data: dict, **_) -> None:
        if data.get("since") and data.get("until") and data["since"] >= data["until"]:
            raise ma.ValidationError("must be later than from", field_name="to")
