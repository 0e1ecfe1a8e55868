"""Round requests (wagers, cards, decisions) and the round's state and transcript."""
from __future__ import annotations

import marshmallow as ma

from ...engine.cards import CardError, parse_card
from ...games import DECISIONS
from ...store.repositories.rounds import RoundStatus
from ...web.schemas.base import MAX_CENTS, Pattern, RequestSchema, cents
from .shoes import shoe_mode
from .tables import table_limits_field
from .traditional import MAX_PLACE, BankerSchema, PlayerSchema, StakeSchema, TranscriptPlayerSchema, TransferSchema
from .variants import Catalog, Variant, component

MAX_SEAT = 9
MAX_HAND = 15
# A card as the terminal reports it: rank A 2-9 T (or 10) J Q K, then suit S H D C, in one case.
CARD_PATTERN = r"^(?:[A2-9TJQK][SHDC]|[a2-9tjqk][shdc]|10[SHDCshdc])$"


def _is_card(value: str) -> None:
    try:
        parse_card(value)
    except CardError as exc:
        raise ma.ValidationError(str(exc)) from None


def round_status(**kwargs) -> ma.fields.String:
    return ma.fields.String(validate=ma.validate.OneOf([status.value for status in RoundStatus]),
                            metadata=component("RoundStatus"), **kwargs)


def seat_number(**kwargs) -> ma.fields.Integer:
    return ma.fields.Integer(strict=True, validate=ma.validate.Range(min=1, max=MAX_SEAT), **kwargs)


# ----- requests -----------------------------------------------------------------------------
def side_bet_stakes(description: str, **kwargs) -> ma.fields.Dict:
    """Side-bet stakes in cents by the names the table's paytable declares them under (e.g. pair,
    21+3): a name it does not offer is the round's refusal (409), the paytable being the table's."""
    return ma.fields.Dict(keys=ma.fields.String(), values=cents(minimum=0),
                          metadata=component("SideBetStakes", description), **kwargs)


class WagerSchema(RequestSchema):
    seat = seat_number(required=True)
    wager = cents(required=True)
    side_bets = side_bet_stakes(
        "side-bet stakes by the names the table's paytable declares (e.g. {\"pair\": 500, \"21+3\": 500}); 0 or "
        "absent: none. A name the paytable does not offer, or a stake outside its limits, is refused (409 "
        "wager_refused)", load_default=None, allow_none=True)
    pair_bet = cents(minimum=0, allow_none=True, metadata={
        "description": "the pair bet as older terminals send it: the same as side_bets {\"pair\": amount}",
        "deprecated": True})

    @ma.post_load
    def _side_bets_by_name(self, data: dict, **_) -> dict:
        """One form for the engine and the round's records: side bets by name, none at 0."""
        side_bets = {name: stake for name, stake in (data.pop("side_bets", None) or {}).items() if stake}
        pair_bet = data.pop("pair_bet", None)
        if pair_bet:
            if "pair" in side_bets:
                raise ma.ValidationError("the pair bet is written twice: send it in side_bets only", "pair_bet")
            side_bets = {"pair": pair_bet, **side_bets}
        if side_bets:
            data["side_bets"] = side_bets
        return data


class OpenRoundSchema(RequestSchema):
    wagers = ma.fields.List(ma.fields.Nested(WagerSchema), load_default=None,
                            validate=ma.validate.Length(min=1, max=MAX_SEAT),
                            metadata={"description": "the house-banked game's wagers"})
    players = ma.fields.List(ma.fields.Nested(StakeSchema), load_default=None,
                             validate=ma.validate.Length(min=1, max=MAX_SEAT),
                             metadata={"description": "the player-banked game's players, in place of wagers"})
    banker_place = ma.fields.Integer(strict=True, load_default=None, validate=ma.validate.Range(min=0, max=MAX_PLACE),
                                     metadata={"description": "player-banked: the chair the terminal has the bank "
                                                              "at; refused (409) if the table has it elsewhere"})

    @classmethod
    def openapi_variants(cls, _catalog: Catalog) -> list[Variant]:
        """Wagers open a round of the house-banked game, players one of the player-banked game,
        never both; only the player-banked game has a banker's chair. Which game a table plays is
        the table's: the other shape is refused there (409 wrong_game)."""
        return [
            Variant("OpenHouseBankedRound", "a round of the house-banked game: the seats' wagers",
                    required=("wagers",), null=("players", "banker_place")),
            Variant("OpenPlayerBankedRound", "a round of the player-banked game: the players' stakes, against "
                                             "the table's banker", required=("players",), null=("wagers",)),
        ]

    @ma.validates_schema
    def _wagers_or_players(self, data: dict, **_) -> None:
        if data.get("wagers") is None and data.get("players") is None:
            raise ma.ValidationError("Missing data for required field.", "wagers")
        if data.get("wagers") is not None and data.get("players") is not None:
            raise ma.ValidationError("wagers (house-banked game) or players (player-banked game), not both",
                                     "players")
        if data.get("banker_place") is not None and data.get("players") is None:
            raise ma.ValidationError("only the player-banked game has a banker", "banker_place")


class CardSchema(RequestSchema):
    card = ma.fields.String(required=True, validate=[ma.validate.Length(min=2, max=3), Pattern(CARD_PATTERN),
                                                     _is_card],
                            metadata={"description": "rank then suit, e.g. 7H, KD, AS"})


class ActionSchema(RequestSchema):
    seat = ma.fields.Integer(strict=True, required=True, validate=ma.validate.Range(min=0, max=MAX_SEAT),
                             metadata={"description": "the player's seat; 0 is the banker, in the player-banked "
                                                      "game only (elsewhere refused, 409 decision_refused)"})
    hand = ma.fields.Integer(strict=True, allow_none=True, load_default=None,
                             validate=ma.validate.Range(min=0, max=MAX_HAND),
                             metadata={"description": "0 for the hand dealt; each split adds the next index; "
                                                      "none for insurance, which the seat takes"})
    action = ma.fields.String(required=True, validate=ma.validate.OneOf(DECISIONS),
                              metadata={"description": "hit, stand, double, forfeit, split, surrender, insurance; "
                                                      "player-banked: split, buy, twist, stick, burn, shoot, and the "
                                                      "banker's draw, stay, double_stakes"})
    amount = ma.fields.Integer(strict=True, allow_none=True, load_default=None,
                               validate=ma.validate.Range(min=1, max=MAX_CENTS),
                               metadata={"description": "cents, for double and insurance (buy, shoot, and a "
                                                        "split's shoot bet in the player-banked game)"})

    @classmethod
    def openapi_variants(cls, _catalog: Catalog) -> list[Variant]:
        """Insurance is the seat's, not a hand's: it names no hand."""
        return [
            Variant("InsuranceDecision", "insurance, taken by the seat: it names no hand",
                    required=("seat", "action"), narrowed={"action": {"type": "string", "enum": ["insurance"]}},
                    null=("hand",)),
            Variant("HandDecision", "a decision on one of the seat's hands (or, in the player-banked game, the "
                                    "banker's, seat 0)",
                    required=("seat", "action"),
                    narrowed={"action": {"type": "string",
                                         "enum": [name for name in DECISIONS if name != "insurance"]}}),
        ]

    @ma.validates_schema
    def _insurance_is_the_seats(self, data: dict, **_) -> None:
        if data.get("action") == "insurance" and data.get("hand") is not None:
            raise ma.ValidationError("insurance is taken by the seat, not by one of its hands: send no hand", "hand")


# ----- the round's state --------------------------------------------------------------------
class LegalActionSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    action = ma.fields.String(required=True)
    hand = ma.fields.Integer()
    min_amount = ma.fields.Integer()
    max_amount = ma.fields.Integer()


class InTurnSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    hand = ma.fields.Integer(allow_none=True, required=True, metadata={"description": "null for the banker"})
    legal_actions = ma.fields.List(ma.fields.Nested(LegalActionSchema), required=True)


class DealerSchema(ma.Schema):
    cards = ma.fields.List(ma.fields.String(), required=True)
    total = ma.fields.Integer(required=True)
    soft = ma.fields.Boolean(required=True)
    pontoon = ma.fields.Boolean(required=True)


class HandSchema(ma.Schema):
    hand = ma.fields.Integer(required=True)
    cards = ma.fields.List(ma.fields.String(), required=True)
    wager = ma.fields.Integer(required=True)
    double = ma.fields.Integer(required=True)
    stake = ma.fields.Integer(required=True)
    total = ma.fields.Integer(required=True)
    status = ma.fields.String(required=True)


class SeatSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    wager = ma.fields.Integer(required=True)
    side_bets = side_bet_stakes("the seat's side-bet stakes by name", required=True)
    insurance = ma.fields.Integer(required=True)
    hands = ma.fields.List(ma.fields.Nested(HandSchema), required=True)


class SettledSeatSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    party = ma.fields.String(metadata={"description": "player-banked game: banker, kitty or seat N"})
    staked = ma.fields.Integer(required=True)
    returned = ma.fields.Integer(required=True)
    net = ma.fields.Integer(required=True)


class SettlementSchema(ma.Schema):
    seats = ma.fields.List(ma.fields.Nested(SettledSeatSchema), required=True)


class RoundStateSchema(ma.Schema):
    round_id = ma.fields.UUID(required=True)
    table_id = ma.fields.String(required=True)
    shoe_id = ma.fields.UUID(allow_none=True, required=True)
    shoe_mode = shoe_mode(allow_none=True, required=True)
    status = round_status(required=True)
    revision = ma.fields.Integer(required=True, metadata={"description": "the round's revision, bumped by every "
                                                          "change; send it back as If-Match to refuse a stale "
                                                          "decision"})
    rules = ma.fields.String(required=True, metadata={"description": "name@version the round plays under"})
    paytable = ma.fields.String(allow_none=True, required=True)
    phase = ma.fields.String(required=True)
    awaiting = ma.fields.String(allow_none=True, required=True, validate=ma.validate.OneOf(["card", "decision"]),
                                metadata=component("Awaiting", "what the round waits for: a card (POST .../cards), "
                                                               "a decision (POST .../actions); null once complete"))
    card_to = ma.fields.String(allow_none=True, required=True,
                               metadata={"description": "who the next card goes to: dealer, or seat S hand H"})
    in_turn = ma.fields.Nested(InTurnSchema, allow_none=True, required=True)
    shoe_past_cut_card = ma.fields.Boolean(
        allow_none=True, required=True,
        metadata={"description": "in the answer to an opening or a decision on a virtual shoe: whether the shoe "
                                 "has passed its cut card, so that this round plays on to its end and the next "
                                 "needs a new shoe; null elsewhere (a physical shoe's cut card is the dealer's to "
                                 "see, and a read of the round does not say)"})
    legal_actions = ma.fields.List(ma.fields.Nested(LegalActionSchema), required=True,
                                   metadata={"description": "every decision allowed now, insurance included"})
    dealer = ma.fields.Nested(DealerSchema, allow_none=True, required=True,
                              metadata={"description": "null in the player-banked game, which has a banker"})
    seats = ma.fields.List(ma.fields.Nested(SeatSchema), required=True,
                           metadata={"description": "empty in the player-banked game, which has players"})
    settlement = ma.fields.Nested(SettlementSchema, allow_none=True, required=True,
                                  metadata={"description": "each seat's money, once settled (player-banked: "
                                                           "seat 0 the banker, -1 the kitty)"})
    banker = ma.fields.Nested(BankerSchema, metadata={"description": "player-banked game only, as are the fields "
                                                                     "below"})
    players = ma.fields.List(ma.fields.Nested(PlayerSchema))
    kitty = ma.fields.Integer(metadata={"description": "Shoot Pontoon: the kitty now"})
    shoot_room = ma.fields.Integer(metadata={"description": "how much more may be shot against the kitty now"})
    stakes_doubled = ma.fields.Boolean()
    transfers = ma.fields.List(ma.fields.Nested(TransferSchema),
                               metadata={"description": "money moved so far (a bust pays at once)"})
    next_banker = ma.fields.Integer(allow_none=True, metadata={"description": "once complete: the seat that takes "
                                                                              "the bank, null when it stays"})
    reshuffle = ma.fields.Boolean(allow_none=True, metadata={"description": "once complete: a Pontoon was made, "
                                                                            "so the pack is shuffled"})
    opened_at = ma.fields.DateTime(required=True)
    completed_at = ma.fields.DateTime(allow_none=True, required=True)
    settled_at = ma.fields.DateTime(allow_none=True, required=True)
    voided_at = ma.fields.DateTime(allow_none=True, required=True)


# ----- the transcript -----------------------------------------------------------------------
class TranscriptSeatSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    wager = ma.fields.Integer(required=True)
    side_bets = side_bet_stakes("side-bet stakes by name, where the seat placed any")


class TranscriptActionSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    hand = ma.fields.Integer()
    action = ma.fields.String(required=True)
    amount = ma.fields.Integer()
    shoot = ma.fields.Integer(metadata={"description": "a split's shoot bet on the new hand"})


class TranscriptSchema(ma.Schema):
    rules = ma.fields.String(required=True)
    paytable = ma.fields.String(allow_none=True, required=True)
    seats = ma.fields.List(ma.fields.Nested(TranscriptSeatSchema),
                           metadata={"description": "the house-banked game's seats"})
    players = ma.fields.List(ma.fields.Nested(TranscriptPlayerSchema),
                             metadata={"description": "the player-banked game's players, in place of seats"})
    options = ma.fields.Dict(keys=ma.fields.String(),
                             metadata=component("GameOptions", "the player-banked game's options"))
    kitty = ma.fields.Integer(metadata={"description": "Shoot Pontoon: the kitty before the round"})
    cards = ma.fields.List(ma.fields.String(), required=True)
    actions = ma.fields.List(ma.fields.Nested(TranscriptActionSchema), required=True)
    limits = table_limits_field(
        "the table's own limits by bet (main, and side bets by name), where they differ from the rules' and the "
        "paytable's: the round's wagers and doubles were checked against them, and it replays under them")
    paytable_document = ma.fields.Dict(keys=ma.fields.String(), metadata=component(
        "PaytableDocument", "the stored paytable version the round ran under (version 2 on), as approved: "
                            "`pontoon replay` plays it as carried, with no database"))
