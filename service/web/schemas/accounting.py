"""What table games accounting is asked for, by the API's bodies and queries and the console's forms
alike: chips by denomination, a tray's count, a fill or a credit, a void's reason, a buy-in, a drop
box's count, a gaming day."""
from __future__ import annotations

import marshmallow as ma

from .base import RequestSchema, cents
from .gaming_days import gaming_day_field
from .paytables import reason_field

SERIAL_PATTERN = r"[TFC]-[0-9]{6,12}"
TRAY_KINDS = ("opener", "shift_change", "closer")
CAPACITIES = ("cage", "dealer", "supervisor")


def chips_field(**kwargs) -> ma.fields.Dict:
    # A key that names no chip of the casino is the casino's refusal (409 not_a_chip), as the
    # denominations are its configuration, not the document's.
    return ma.fields.Dict(
        keys=ma.fields.String(),
        values=ma.fields.Integer(strict=True, validate=ma.validate.Range(min=0, max=1_000_000)),
        # "component": the OpenAPI document names the shape once (service.api.schemas.variants.component).
        metadata={"component": "ChipCounts",
                  "description": "chips by denomination: the denomination in cents (one of the configured "
                                 "PONTOON_CHIP_DENOMINATIONS) to a number of chips, e.g. {\"2500\": 40, \"10000\": 5}"},
        **kwargs)


def any_day_field(description: str) -> ma.fields.Date:
    """A gaming day a table's own lists or tray count may name: any date (one with nothing in it
    lists nothing; a tray counted for one that is neither today nor yesterday is refused, 409)."""
    return ma.fields.Date(error_messages={"invalid": "Not a valid gaming day: give YYYY-MM-DD."},
                          metadata={"description": description})


def serial_field(description: str, **kwargs) -> ma.fields.String:
    pattern = ma.validate.Regexp(f"^{SERIAL_PATTERN}$", error="a slip's serial, e.g. F-000042")
    return ma.fields.String(validate=[ma.validate.Length(min=8, max=14), pattern],
                            metadata={"description": description}, **kwargs)


class TrayCountSchema(RequestSchema):
    kind = ma.fields.String(required=True, validate=ma.validate.OneOf(TRAY_KINDS),
                            metadata={"description": "opener (the table opens), shift_change, closer (it closes)"})
    chips = chips_field(required=True)
    gaming_day = any_day_field("the gaming day counted for (default: the current one; the one before for a "
                               "closer counted just after the day turned)")
    replaces = serial_field("a voided tray count this one is issued in place of")


class ChipsRequestSchema(RequestSchema):
    chips = chips_field(required=True)
    replaces = serial_field("a voided slip of the same kind this one is issued in place of")


class VoidSlipSchema(RequestSchema):
    reason = reason_field(required=True)


class BuyInSchema(RequestSchema):
    seat = ma.fields.Integer(required=True, strict=True, validate=ma.validate.Range(min=1, max=16),
                             metadata={"description": "the seat, 1 to the table's seats"})
    amount = cents(required=True, metadata={"description": "cents: cash into the drop box, chips out of the tray"})
    method = ma.fields.String(load_default="cash", validate=ma.validate.OneOf(["cash", "marker"]),
                              metadata={"description": "cash (default), or marker: the casino's credit"})


class EnterCountSchema(RequestSchema):
    gaming_day = gaming_day_field("the gaming day whose drop box was counted")
    cash = cents(required=True, minimum=0, metadata={"description": "cents of cash counted in the box"})
    markers = cents(required=True, minimum=0, metadata={"description": "cents of markers counted in the box"})

    @ma.validates_schema
    def _a_day(self, data: dict, **_) -> None:
        if data.get("gaming_day") is None:
            raise ma.ValidationError("name the gaming day whose box was counted", field_name="gaming_day")


class DayQuerySchema(RequestSchema):
    gaming_day = gaming_day_field("the gaming day (default: the current one)")


class TableDayQuerySchema(RequestSchema):
    gaming_day = any_day_field("the gaming day (default: the current one)")


class SlipsQuerySchema(TableDayQuerySchema):
    awaiting = ma.fields.String(validate=ma.validate.OneOf(CAPACITIES),
                                metadata={"description": "only slips waiting for this signature (cage: the fills "
                                                         "and credits to issue); of the current and the last day"})


class StatementQuerySchema(DayQuerySchema):
    format = ma.fields.String(load_default="json", validate=ma.validate.OneOf(["json", "csv"]))


class IssueStatementSchema(RequestSchema):
    gaming_day = gaming_day_field("the gaming day whose statement is issued (default: the current one)")
