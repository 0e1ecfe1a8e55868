"""The player-banked game's requests and views: players' stakes, the banker's hand, transfers, the bank."""
from __future__ import annotations

import marshmallow as ma

from ...web.schemas.base import RequestSchema, cents

MAX_PLAYER_SEAT = 9      # the rules files seat nine players round the banker
MAX_PLACE = 12           # chairs are 0 to the rules' seats (at most 12)


def player_seat(**kwargs) -> ma.fields.Integer:
    return ma.fields.Integer(strict=True, validate=ma.validate.Range(min=1, max=MAX_PLAYER_SEAT), **kwargs)


# ----- requests -----------------------------------------------------------------------------
class StakeSchema(RequestSchema):
    seat = player_seat(required=True, metadata={"description": "counted from the banker's left: seat 1 is next"})
    stake = cents(required=True, metadata={"description": "the initial stake"})
    shoot = cents(metadata={"description": "Shoot Pontoon: a shoot bet against the kitty"})


class KittySchema(RequestSchema):
    action = ma.fields.String(required=True, validate=ma.validate.OneOf(["put_up", "top_up"]),
                              metadata={"description": "put_up when no kitty is up, top_up to add to it"})
    amount = cents(required=True)


class BankSaleSchema(RequestSchema):
    to_seat = player_seat(required=True, metadata={"description": "the buyer, counted from the banker's left"})
    price = cents(minimum=0, required=True, metadata={"description": "what the buyer pays the banker"})


# ----- views --------------------------------------------------------------------------------
class TableTransferSchema(ma.Schema):
    seq = ma.fields.Integer(required=True, metadata={"description": "the table's n-th transfer"})
    kind = ma.fields.String(required=True, validate=ma.validate.OneOf(
        ["kitty-put-up", "kitty-topped-up", "kitty-taken", "bank-sale"]))
    from_seat = ma.fields.Integer(required=True, metadata={"description": "0 the banker, -1 the kitty, N a player"})
    to_seat = ma.fields.Integer(required=True)
    from_place = ma.fields.Integer(allow_none=True, required=True, metadata={"description": "the chair; null: kitty"})
    to_place = ma.fields.Integer(allow_none=True, required=True)
    amount = ma.fields.Integer(required=True)
    round_id = ma.fields.UUID(allow_none=True, required=True,
                              metadata={"description": "the round that passed the bank"})
    created_at = ma.fields.DateTime(required=True)


class BankSchema(ma.Schema):
    table_id = ma.fields.String(required=True)
    banker_place = ma.fields.Integer(required=True, metadata={"description": "the chair holding the bank, "
                                                                            "counted from 0"})
    banker_chair = ma.fields.Integer(metadata={"description": "the same chair as the pit counts them, from 1"})
    places = ma.fields.Integer(required=True, metadata={"description": "chairs round the table, 0 to places-1"})
    shoot = ma.fields.Boolean(required=True, metadata={"description": "Shoot Pontoon: the banker keeps a kitty"})
    kitty = ma.fields.Integer(required=True)
    transfers = ma.fields.List(ma.fields.Nested(TableTransferSchema),
                               metadata={"description": "the transfers this request made"})


class TransferSchema(ma.Schema):
    from_ = ma.fields.String(required=True, attribute="from", data_key="from",
                             metadata={"description": "banker, kitty, or seat N"})
    to = ma.fields.String(required=True)
    amount = ma.fields.Integer(required=True)
    kind = ma.fields.String(required=True)
    seat = ma.fields.Integer(allow_none=True, required=True)
    hand = ma.fields.Integer(allow_none=True, required=True)


class BankerSchema(ma.Schema):
    cards = ma.fields.List(ma.fields.String(), required=True)
    total = ma.fields.Integer(required=True)
    status = ma.fields.String(required=True)


class PlayerHandSchema(ma.Schema):
    hand = ma.fields.Integer(required=True)
    cards = ma.fields.List(ma.fields.String(), required=True)
    stake = ma.fields.Integer(required=True, metadata={"description": "the initial stake and its buys"})
    buys = ma.fields.List(ma.fields.Integer(), required=True)
    twisted = ma.fields.Boolean(required=True)
    twists = ma.fields.Integer(metadata={"description": "how many of its cards it twisted (after its buys)"})
    shoot = ma.fields.Integer(required=True)
    total = ma.fields.Integer(required=True)
    status = ma.fields.String(required=True)
    burned = ma.fields.List(ma.fields.String(), required=True)


class PlayerSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    stake = ma.fields.Integer(required=True)
    hands = ma.fields.List(ma.fields.Nested(PlayerHandSchema), required=True)


class TranscriptPlayerSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    stake = ma.fields.Integer(required=True)
    shoot = ma.fields.Integer()


class RoundBankSchema(ma.Schema):
    banker_chair = ma.fields.Integer(allow_none=True, required=True, metadata={"description": "the chair that held "
                                                                                             "the bank, from 1"})
    chairs = ma.fields.Integer(required=True)
    stakes = ma.fields.Integer(required=True, metadata={"description": "the players' initial stakes (split hands' "
                                                                       "included)"})
    buys = ma.fields.Integer(required=True, metadata={"description": "what the players' buys added to them"})
    shoot_bets = ma.fields.Integer(required=True)
    banker_net = ma.fields.Integer(allow_none=True, required=True, metadata={"description": "the banker's result "
                                                                                           "once complete"})
    shoot = ma.fields.Boolean(required=True)
    kitty_before = ma.fields.Integer(allow_none=True, required=True)
    kitty_after = ma.fields.Integer(allow_none=True, required=True)
    passed_to_seat = ma.fields.Integer(allow_none=True, required=True, metadata={"description": "the seat a "
                                                                                               "Pontoon gave the bank"})
    passed_to_chair = ma.fields.Integer(allow_none=True, required=True)
