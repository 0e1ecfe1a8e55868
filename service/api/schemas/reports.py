"""The table report: its query and its rows (JSON; CSV has the same columns)."""
from __future__ import annotations

from datetime import date

import marshmallow as ma

from ...reports.gaming_day import PERIODS, RANGE
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


class ReportFiguresSchema(ma.Schema):
    activity = ma.fields.String(required=True, validate=ma.validate.OneOf(["active", "no activity"]))
    rounds = ma.fields.Integer(required=True, metadata={"description": "settled rounds"})
    voided_rounds = ma.fields.Integer(required=True)
    unsettled_rounds = ma.fields.Integer(required=True, metadata={"description": "open or awaiting settlement: "
                                                                  "no money counted yet"})
    drop = ma.fields.Integer(required=True, metadata={"description": "cents staked"})
    paid_out = ma.fields.Integer(required=True, metadata={"description": "cents returned, prizes included"})
    win = ma.fields.Integer(required=True, metadata={"description": "drop less paid out"})
    hold_percent = ma.fields.Float(allow_none=True, required=True)
    bonuses = ma.fields.Integer(required=True, metadata={"description": "hands paid a bonus line"})
    super_bonuses = ma.fields.Integer(required=True)
    void_refunds = ma.fields.Integer(required=True, metadata={"description": "cents handed back by voids "
                                                              "(not in drop or paid out)"})


class ReportRowSchema(ReportFiguresSchema):
    gaming_day = ma.fields.Date(allow_none=True, required=True, metadata={"description": "null when by=table"})
    table_id = ma.fields.String(required=True)


class TableReportSchema(ma.Schema):
    period = ma.fields.String(required=True, validate=ma.validate.OneOf((*PERIODS, RANGE)))
    gaming_day = ma.fields.Date(required=True)
    first_gaming_day = ma.fields.Date(required=True)
    starts_at = ma.fields.DateTime(required=True)
    ends_at = ma.fields.DateTime(required=True)
    timezone = ma.fields.String(required=True)
    gaming_day_starts = ma.fields.String(required=True)
    by = ma.fields.String(required=True)
    table_id = ma.fields.String(allow_none=True, required=True)
    money_unit = ma.fields.String(required=True)
    rows = ma.fields.List(ma.fields.Nested(ReportRowSchema), required=True)
    totals = ma.fields.Nested(ReportFiguresSchema, required=True)
