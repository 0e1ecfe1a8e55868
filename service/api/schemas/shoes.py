"""Shoe requests and views: the commitment at once, the order and salt once the shoe is closed."""
from __future__ import annotations

import marshmallow as ma

from ...web.schemas.base import RequestSchema
from .variants import component

SHOE_MODES = ["virtual", "physical"]


def shoe_mode(description: str | None = None, **kwargs) -> ma.fields.String:
    return ma.fields.String(validate=ma.validate.OneOf(SHOE_MODES), metadata=component("ShoeMode", description),
                            **kwargs)


class OpenShoeSchema(RequestSchema):
    mode = shoe_mode("virtual: deals by itself; physical: the terminal reports each card", required=True)


class ShoeSchema(ma.Schema):
    shoe_id = ma.fields.UUID(required=True)
    table_id = ma.fields.String(required=True)
    mode = shoe_mode(required=True)
    commitment = ma.fields.String(allow_none=True, required=True,
                                  metadata={"description": "SHA-256 over salt and order (virtual shoes)"})
    position = ma.fields.Integer(required=True, metadata={"description": "cards dealt so far"})
    opened_at = ma.fields.DateTime(required=True)
    closed_at = ma.fields.DateTime(allow_none=True, required=True)
    card_order = ma.fields.List(ma.fields.String(), allow_none=True, required=True,
                                metadata={"description": "revealed once the shoe is closed"})
    salt = ma.fields.String(allow_none=True, required=True, metadata={"description": "revealed once closed"})


class OpenedShoeSchema(ShoeSchema):
    closed_shoe = ma.fields.Nested(ShoeSchema, allow_none=True, required=True,
                                   metadata={"description": "the shoe this one replaced, its order revealed"})
