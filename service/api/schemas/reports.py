"""The table report as the API answers it: its header, rows and totals (JSON; CSV has the same columns)."""
from __future__ import annotations

import marshmallow as ma

from ...reports.gaming_day import PERIODS, RANGE


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
