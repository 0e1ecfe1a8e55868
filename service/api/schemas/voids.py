"""A voided round as the API answers it: the refunds, seat by seat."""
from __future__ import annotations

import marshmallow as ma


class RefundedBetSchema(ma.Schema):
    kind = ma.fields.String(required=True, metadata={"description": "main, split, double, pair, insurance"})
    hand = ma.fields.Integer(allow_none=True, required=True)
    stake = ma.fields.Integer(required=True)


class SeatRefundSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    bets = ma.fields.List(ma.fields.Nested(RefundedBetSchema), required=True)
    refunded = ma.fields.Integer(required=True)


class VoidedRoundSchema(ma.Schema):
    round_id = ma.fields.UUID(required=True)
    table_id = ma.fields.String(required=True)
    status = ma.fields.String(required=True, validate=ma.validate.OneOf(["void"]))
    version = ma.fields.Integer(required=True)
    voided_at = ma.fields.DateTime(required=True)
    reason = ma.fields.String(required=True)
    refunds = ma.fields.List(ma.fields.Nested(SeatRefundSchema), required=True)
    total_refunded = ma.fields.Integer(required=True)
