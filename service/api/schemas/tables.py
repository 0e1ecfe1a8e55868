"""Table requests and views."""
from __future__ import annotations

import marshmallow as ma

from .base import NAME_PATTERN, TABLE_ID_PATTERN, Pattern, RequestSchema, cents
from .shoes import ShoeSchema
from .traditional import BankSchema


class LimitSchema(RequestSchema):
    min = cents(required=True)
    max = cents(required=True)


class TableLimitsSchema(RequestSchema):
    main = ma.fields.Nested(LimitSchema)
    pair_bet = ma.fields.Nested(LimitSchema)


class CreateTableSchema(RequestSchema):
    table_id = ma.fields.String(required=True, validate=Pattern(f"^{TABLE_ID_PATTERN}$"))
    rules = ma.fields.String(required=True, validate=Pattern(f"^{NAME_PATTERN}$"),
                             metadata={"description": "a rules file stem in rules_config/, e.g. canberra"})
    paytable = ma.fields.String(load_default=None, allow_none=True, validate=Pattern(f"^{NAME_PATTERN}$"),
                                metadata={"description": "a paytable stem in paytables/, e.g. canberra-standard"})
    limits = ma.fields.Nested(TableLimitsSchema, load_default=dict,
                              metadata={"description": "the table's own limits in cents; the rules' otherwise"})


class TableSchema(ma.Schema):
    table_id = ma.fields.String(required=True)
    game = ma.fields.String(required=True)
    rules = ma.fields.String(required=True, metadata={"description": "name@version in force"})
    paytable = ma.fields.String(allow_none=True, required=True)
    limits = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Nested(LimitSchema), required=True,
                            metadata={"description": "the limits the table accepts (its own or the rules')"})
    created_at = ma.fields.DateTime(required=True)
    current_shoe = ma.fields.Nested(ShoeSchema, allow_none=True, required=True)
    open_round_id = ma.fields.UUID(allow_none=True, required=True)
    bank = ma.fields.Nested(BankSchema, metadata={"description": "the player-banked game only: who holds the bank, "
                                                                 "the kitty"})
