"""The table report's query, as the API's query string and the console's form both give it."""
from __future__ import annotations

from datetime import date

import marshmallow as ma

from ...reports.gaming_day import PERIODS
from .base import RequestSchema, table_id_text
from .gaming_days import check_days, gaming_day_field


class ReportQuerySchema(RequestSchema):
    # The period's end is the next day's start: the last day a date can hold has none.
    date = ma.fields.Date(validate=ma.validate.Range(min=date(1900, 1, 1), max=date(9999, 12, 30)),
                          metadata={"description": "the gaming day (default: the current one)"})
    gaming_day = gaming_day_field("the gaming day (the same as date)")
    gaming_day_from = gaming_day_field("the first gaming day of a range (with gaming_day_to; the period is "
                                       "then 'range')")
    gaming_day_to = gaming_day_field("the last gaming day of a range, included")
    period = ma.fields.String(validate=ma.validate.OneOf(PERIODS),
                              metadata={"description": "day (default), month_to_date or year_to_date"})
    by = ma.fields.String(load_default="table", validate=ma.validate.OneOf(["table", "day"]),
                          metadata={"description": "table: one row per table for the period; day: one row "
                                                   "per table and gaming day"})
    table = ma.fields.String(validate=table_id_text())
    format = ma.fields.String(load_default="json", validate=ma.validate.OneOf(["json", "csv"]))

    @ma.validates_schema
    def _one_span(self, data: dict, **_) -> None:
        check_days(data, {"date": "date", "period": "period"} if data.get("gaming_day") is None else {"date": "date"})
