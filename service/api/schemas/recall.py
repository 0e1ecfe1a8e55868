"""Game recall: the query (how many rounds) and each recalled round."""
from __future__ import annotations

import marshmallow as ma

from ...web.schemas.base import RequestSchema
from .rounds import DealerSchema, SeatSchema, TranscriptSchema, round_status, side_bet_stakes
from .shoes import shoe_mode
from .traditional import BankerSchema, PlayerSchema, RoundBankSchema

MAX_RECALL = 100


class RecallQuerySchema(RequestSchema):
    last = ma.fields.Integer(load_default=10, validate=ma.validate.Range(min=1, max=MAX_RECALL),
                             metadata={"description": "how many of the table's latest rounds"})


class RecalledEventSchema(ma.Schema):
    seq = ma.fields.Integer(required=True)
    kind = ma.fields.String(required=True, validate=ma.validate.OneOf(["card", "action"]))
    at = ma.fields.DateTime(required=True)
    card = ma.fields.String(metadata={"description": "cards: the card"})
    to = ma.fields.String(allow_none=True, metadata={"description": "cards: who it went to"})
    seat = ma.fields.Integer(metadata={"description": "decisions: the seat"})
    hand = ma.fields.Integer(allow_none=True)
    action = ma.fields.String()
    amount = ma.fields.Integer(allow_none=True)


class RecalledBetSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    party = ma.fields.String(metadata={"description": "who the row is: seat N, or (player-banked) banker or kitty"})
    hand = ma.fields.Integer(allow_none=True, required=True)
    kind = ma.fields.String(required=True)
    stake = ma.fields.Integer(required=True)
    returned = ma.fields.Integer(required=True)
    outcome = ma.fields.String(required=True)


class RoundMoneySchema(ma.Schema):
    staked = ma.fields.Integer(required=True)
    returned = ma.fields.Integer(required=True)
    net = ma.fields.Integer(required=True, metadata={"description": "for the players (the banker and the kitty "
                                                                    "left out): returned less staked"})


class RecalledWagerSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    wager = ma.fields.Integer(required=True)
    side_bets = side_bet_stakes("side-bet stakes by name, as the round was opened")
    pair_bet = ma.fields.Integer(metadata={"description": "the pair bet (side bet pair) as rounds opened before "
                                                          "side bets were declared recorded it", "deprecated": True})


class DealtBySchema(ma.Schema):
    actor = ma.fields.String(allow_none=True, required=True, metadata={
        "description": "who dealt: a dealer as staff:<username>, a terminal by its key's id"})
    screen = ma.fields.String(allow_none=True, required=True,
                              metadata={"description": "the dealer's screen's name (none for a terminal)"})


class RecalledRoundSchema(ma.Schema):
    round_id = ma.fields.UUID(required=True)
    table_id = ma.fields.String(required=True)
    shoe_id = ma.fields.UUID(allow_none=True, required=True)
    shoe_mode = shoe_mode(allow_none=True, required=True)
    status = round_status(required=True)
    rules = ma.fields.String(required=True)
    paytable = ma.fields.String(allow_none=True, required=True)
    opened_at = ma.fields.DateTime(required=True)
    completed_at = ma.fields.DateTime(allow_none=True, required=True)
    settled_at = ma.fields.DateTime(allow_none=True, required=True)
    voided_at = ma.fields.DateTime(allow_none=True, required=True)
    void_reason = ma.fields.String(allow_none=True, required=True)
    wagers = ma.fields.List(ma.fields.Nested(RecalledWagerSchema), required=True)
    dealt_by = ma.fields.List(ma.fields.Nested(DealtBySchema), required=True,
                              metadata={"description": "who opened the round and dealt its cards and decisions, in "
                                                       "the order each first dealt"})
    events = ma.fields.List(ma.fields.Nested(RecalledEventSchema), required=True,
                            metadata={"description": "every card and decision, in order"})
    dealer = ma.fields.Nested(DealerSchema, allow_none=True, required=True)
    seats = ma.fields.List(ma.fields.Nested(SeatSchema), required=True)
    banker = ma.fields.Nested(BankerSchema, metadata={"description": "player-banked game only, as is players: "
                                                                     "the banker's hand (seat 0)"})
    players = ma.fields.List(ma.fields.Nested(PlayerSchema))
    bank = ma.fields.Nested(RoundBankSchema, metadata={"description": "player-banked game only: the bank, the stakes "
                                                                      "and the kitty as the round moved them"})
    bets = ma.fields.List(ma.fields.Nested(RecalledBetSchema), required=True,
                          metadata={"description": "the ledger's stake and payout of each bet (once settled "
                                                   "or voided)"})
    money = ma.fields.Nested(RoundMoneySchema, allow_none=True, required=True)
    transcript = ma.fields.Nested(TranscriptSchema, required=True)


class RecallSchema(ma.Schema):
    table_id = ma.fields.String(required=True)
    last = ma.fields.Integer(required=True)
    rounds = ma.fields.List(ma.fields.Nested(RecalledRoundSchema), required=True,
                            metadata={"description": "oldest first"})
