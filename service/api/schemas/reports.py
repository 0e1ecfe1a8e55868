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
    handle = ma.fields.Integer(required=True, allow_none=True, metadata={
        "description": "cents staked in the settled rounds (null at a player-banked table); until version 4 "
                       "`drop`, a word kept for the drop box's count"})
    paid_out = ma.fields.Integer(required=True, allow_none=True,
                                 metadata={"description": "cents returned, prizes included"})
    game_win = ma.fields.Integer(required=True, allow_none=True, metadata={
        "description": "handle less paid out; until version 4 `win`, a word kept for the table's win from its "
                       "chips and drop box (the table games statement)"})
    game_win_percent = ma.fields.Float(allow_none=True, required=True, metadata={
        "description": "game win % of handle, to two places (null without a handle); until version 4 "
                       "`hold_percent`, a word kept for win over drop"})
    bonuses = ma.fields.Integer(required=True, allow_none=True, metadata={"description": "hands paid a bonus line"})
    super_bonuses = ma.fields.Integer(required=True, allow_none=True)
    void_refunds = ma.fields.Integer(required=True, metadata={"description": "cents handed back by voids "
                                                              "(not in handle or paid out)"})


class PlayerBankedFiguresSchema(ma.Schema):
    activity = ma.fields.String(required=True, validate=ma.validate.OneOf(["active", "no activity"]))
    rounds = ma.fields.Integer(required=True, metadata={"description": "settled rounds"})
    voided_rounds = ma.fields.Integer(required=True)
    unsettled_rounds = ma.fields.Integer(required=True)
    stakes = ma.fields.Integer(required=True, metadata={"description": "cents the players staked, buys included"})
    buys = ma.fields.Integer(required=True, metadata={"description": "cents of those stakes that were buys"})
    shoot_bets = ma.fields.Integer(required=True)
    banker_net = ma.fields.Integer(required=True, metadata={"description": "the bankers' net, in cents"})
    bank_passes = ma.fields.Integer(required=True, metadata={"description": "times a Pontoon passed the bank"})


class ReportRowSchema(ReportFiguresSchema):
    gaming_day = ma.fields.Date(allow_none=True, required=True, metadata={"description": "null when by=table"})
    table_id = ma.fields.String(required=True)
    game = ma.fields.String(metadata={"description": "the table's game; a player-banked one has no handle, paid "
                                                     "out, game win or bonuses (null) and its own figures below"})
    stakes = ma.fields.Integer(allow_none=True, metadata={"description": "player-banked only, as are the fields "
                                                                         "below: the players' stakes, buys included"})
    buys = ma.fields.Integer(allow_none=True)
    shoot_bets = ma.fields.Integer(allow_none=True)
    banker_net = ma.fields.Integer(allow_none=True, metadata={"description": "the bankers' net"})
    kitty_before = ma.fields.Integer(allow_none=True, metadata={"description": "Shoot Pontoon: before the first "
                                                                               "round"})
    kitty_after = ma.fields.Integer(allow_none=True, metadata={"description": "Shoot Pontoon: after the last round"})
    bank_passes = ma.fields.Integer(allow_none=True)


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
    totals = ma.fields.Nested(ReportFiguresSchema, required=True, metadata={
        "description": "the house-banked tables' (a player-banked table's figures are never in them)"})
    player_banked_totals = ma.fields.Nested(PlayerBankedFiguresSchema, allow_none=True, metadata={
        "description": "the player-banked tables' own figures added up (null: none in the report)"})
