"""Table games accounting as the API answers it: slips with their signatures, buy-ins, drop counts
and the table games statement. Money is integer cents; hold as a percentage."""
from __future__ import annotations

import marshmallow as ma

from ...web.schemas.accounting import CAPACITIES
from .variants import component

SLIP_KINDS = ("opener", "shift_change", "closer", "fill", "credit")
SLIP_STATUSES = ("awaiting_signature", "signed", "requested", "issued", "received", "voided")


def _cents(description: str, **kwargs) -> ma.fields.Integer:
    return ma.fields.Integer(required=True, metadata={"description": description}, **kwargs)


class SignatureSchema(ma.Schema):
    act = ma.fields.String(required=True, validate=ma.validate.OneOf(
        ["signed", "requested", "issued", "received", "void_asked", "voided"]))
    capacity = ma.fields.String(required=True, validate=ma.validate.OneOf(CAPACITIES))
    actor = ma.fields.String(required=True, metadata={"description": "staff:<username>, or an API key's id"})
    screen = ma.fields.String(allow_none=True, required=True, metadata={"description": "the dealer's screen"})
    reason = ma.fields.String(allow_none=True, required=True, metadata={"description": "a void's"})
    at = ma.fields.DateTime(required=True)


class SlipSchema(ma.Schema):
    serial = ma.fields.String(required=True, metadata={"description": "T- a tray count, F- a fill, C- a credit"})
    kind = ma.fields.String(required=True, validate=ma.validate.OneOf(SLIP_KINDS))
    table_id = ma.fields.String(required=True)
    gaming_day = ma.fields.Date(required=True)
    chips = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Integer(), required=True, metadata=component(
        "Chips", "chips by denomination: the denomination's cents as text, then how many"))
    total = _cents("the chips' value")
    status = ma.fields.String(required=True, validate=ma.validate.OneOf(SLIP_STATUSES))
    awaiting = ma.fields.List(ma.fields.String(validate=ma.validate.OneOf(CAPACITIES)), required=True,
                              metadata={"description": "whose signature it waits for next"})
    replaces = ma.fields.String(allow_none=True, required=True,
                                metadata={"description": "the voided slip it was issued in place of"})
    replaced_by = ma.fields.String(allow_none=True, load_default=None, dump_default=None,
                                   metadata={"description": "the slip issued in place of this one, once voided"})
    void_asked = ma.fields.String(allow_none=True, required=True,
                                  metadata={"description": "the reason of a void asked for, waiting for a second "
                                                           "person"})
    void_reason = ma.fields.String(allow_none=True, required=True)
    created_by = ma.fields.String(required=True)
    created_at = ma.fields.DateTime(required=True)
    signatures = ma.fields.List(ma.fields.Nested(SignatureSchema), required=True)


class SlipListSchema(ma.Schema):
    gaming_day = ma.fields.Date(required=True)
    slips = ma.fields.List(ma.fields.Nested(SlipSchema), required=True)


class BuyInRecordSchema(ma.Schema):
    buy_in_id = ma.fields.UUID(required=True)
    table_id = ma.fields.String(required=True)
    gaming_day = ma.fields.Date(required=True)
    seat = ma.fields.Integer(required=True)
    amount = _cents("cash (or a marker) into the drop box, chips out of the tray")
    method = ma.fields.String(required=True, validate=ma.validate.OneOf(["cash", "marker"]))
    recorded_by = ma.fields.String(required=True)
    screen = ma.fields.String(allow_none=True, required=True)
    recorded_at = ma.fields.DateTime(required=True)


class BuyInListSchema(ma.Schema):
    gaming_day = ma.fields.Date(required=True)
    buy_ins = ma.fields.List(ma.fields.Nested(BuyInRecordSchema), required=True)


class CountEntrySchema(ma.Schema):
    counted_by = ma.fields.String(required=True)
    outcome = ma.fields.String(required=True, validate=ma.validate.OneOf(["entered", "agreed", "disagreed"]))
    counted_at = ma.fields.DateTime(required=True)
    cash = ma.fields.Integer(metadata={"description": "shown once the count is final"})
    markers = ma.fields.Integer(metadata={"description": "shown once the count is final"})


class DropCountSchema(ma.Schema):
    table_id = ma.fields.String(required=True)
    gaming_day = ma.fields.Date(required=True)
    status = ma.fields.String(required=True, validate=ma.validate.OneOf(
        ["not_counted", "awaiting_second_count", "final"]))
    outcome = ma.fields.String(validate=ma.validate.OneOf(["entered", "agreed", "disagreed"]),
                               metadata={"description": "what the figures just entered did"})
    cash = ma.fields.Integer(allow_none=True, required=True, metadata={"description": "once final"})
    markers = ma.fields.Integer(allow_none=True, required=True, metadata={"description": "once final"})
    drop = ma.fields.Integer(allow_none=True, required=True, metadata={"description": "cash + markers, once final"})
    entered_by = ma.fields.String(allow_none=True, required=True)
    verified_by = ma.fields.String(allow_none=True, required=True)
    final_at = ma.fields.DateTime(allow_none=True, required=True)
    disagreements = ma.fields.Integer(required=True)
    entries = ma.fields.List(ma.fields.Nested(CountEntrySchema), required=True)


class DropCountListSchema(ma.Schema):
    gaming_day = ma.fields.Date(required=True)
    counts = ma.fields.List(ma.fields.Nested(DropCountSchema), required=True)


def _maybe(description: str) -> ma.fields.Integer:
    return ma.fields.Integer(allow_none=True, required=True, metadata={"description": description})


class ShiftStatementSchema(ma.Schema):
    shift = ma.fields.Integer(required=True)
    starts_at = ma.fields.DateTime(allow_none=True, required=True, metadata={"description": "its tray's first count"})
    ends_at = ma.fields.DateTime(allow_none=True, required=True, metadata={"description": "its tray's last count"})
    opener = _maybe("the tray as the shift began")
    closer = _maybe("the tray as it ended")
    fills = _cents("fills issued in the shift")
    credits = _cents("credits issued in the shift")
    drop = _maybe("always null: the box is counted once a gaming day")
    win = _maybe("always null: no drop of its own")
    hold_percent = ma.fields.Float(allow_none=True, required=True, metadata={"description": "always null"})
    tray_result = _maybe("credits - fills + (closer - opener)")
    handle = _cents("stakes of the rounds settled in the shift")
    game_win = _cents("their stakes less their returns")
    buy_ins = _cents("buy-ins recorded in the shift")
    variance = _maybe("tray_result + buy_ins - game_win")
    flagged = ma.fields.Boolean(required=True)
    rounds = ma.fields.Integer(required=True)


class TableStatementSchema(ma.Schema):
    table_id = ma.fields.String(required=True)
    game = ma.fields.String(allow_none=True, required=True)
    activity = ma.fields.String(required=True, validate=ma.validate.OneOf(["active", "no activity"]))
    opener = _maybe("the opener's chips (null: none)")
    closer = _maybe("the closer's chips (null: none)")
    fills = _cents("fills issued by the cage (voided slips left out)")
    credits = _cents("credits issued by the cage")
    drop = _maybe("cash and markers of the drop box's final count (null: not final)")
    drop_cash = _maybe("the final count's cash")
    drop_markers = _maybe("the final count's markers")
    tray_result = _maybe("credits - fills + (closer - opener)")
    win = _maybe("drop + credits - fills + (closer - opener) (null: a count or a closer missing)")
    hold_percent = ma.fields.Float(allow_none=True, required=True, metadata={"description": "win / drop, in %"})
    handle = _cents("the stakes of the gaming day's settled rounds")
    game_win = _cents("their stakes less their returns")
    game_win_percent = ma.fields.Float(allow_none=True, required=True,
                                       metadata={"description": "game win % of handle"})
    buy_ins = _cents("buy-ins recorded at the table's seats")
    buy_ins_cash = _cents("of them in cash")
    buy_ins_markers = _cents("of them by marker")
    variance = _maybe("win - game_win: what the tray and the box say against what the rounds say")
    flagged = ma.fields.Boolean(required=True, metadata={"description": "variance beyond the threshold, or a table "
                                                                        "in play whose variance cannot be worked out"})
    reasons = ma.fields.List(ma.fields.String(), required=True, metadata={"description": "what a reviewer should "
                                                                                         "look at"})
    rounds = ma.fields.Integer(required=True, metadata={"description": "settled rounds"})
    unsettled_rounds = ma.fields.Integer(required=True)
    shifts = ma.fields.List(ma.fields.Nested(ShiftStatementSchema), required=True)


class FloorStatementSchema(ma.Schema):
    opener = _maybe("summed over the tables that have one")
    closer = _maybe("summed over the tables that have one")
    fills = _maybe("")
    credits = _maybe("")
    drop = _maybe("summed over the tables with a final count")
    drop_cash = _maybe("")
    drop_markers = _maybe("")
    tray_result = _maybe("")
    win = _maybe("summed over the tables whose win is known")
    hold_percent = ma.fields.Float(allow_none=True, required=True)
    handle = _maybe("")
    game_win = _maybe("")
    game_win_percent = ma.fields.Float(allow_none=True, required=True)
    buy_ins = _maybe("")
    buy_ins_cash = _maybe("")
    buy_ins_markers = _maybe("")
    variance = _maybe("")
    rounds = _maybe("")
    unsettled_rounds = _maybe("")
    flagged = ma.fields.Boolean(required=True)
    flagged_tables = ma.fields.Integer(required=True)
    variance_threshold = ma.fields.Integer(required=True)


class IssuedSchema(ma.Schema):
    statement_id = ma.fields.UUID(required=True)
    issued_by = ma.fields.String(required=True)
    issued_at = ma.fields.DateTime(required=True)


class StatementSchema(ma.Schema):
    gaming_day = ma.fields.Date(required=True)
    starts_at = ma.fields.DateTime(required=True)
    ends_at = ma.fields.DateTime(required=True)
    timezone = ma.fields.String(required=True)
    gaming_day_starts = ma.fields.String(required=True)
    money_unit = ma.fields.String(required=True)
    variance_threshold = ma.fields.Integer(required=True, metadata={"description": "cents"})
    shifts_per_gaming_day = ma.fields.Integer(required=True)
    tables = ma.fields.List(ma.fields.Nested(TableStatementSchema), required=True)
    floor = ma.fields.Nested(FloorStatementSchema, required=True)
    issued = ma.fields.Nested(IssuedSchema, allow_none=True, required=True,
                              metadata={"description": "the statement's last issue into the audit log"})
