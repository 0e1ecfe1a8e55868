"""Table requests and views."""
from __future__ import annotations

import marshmallow as ma

from ...web.schemas.base import RequestSchema, cents, file_name_text, table_id_text
from .shoes import ShoeSchema
from .traditional import BankSchema
from .variants import Catalog, Variant, component

# JSON Schema cannot compare two fields, so the document says this one in words.
_MAX_AT_LEAST_MIN = "in cents; max at least min (a maximum below the minimum is refused, 422)"


class LimitSchema(RequestSchema):
    min = cents(required=True)
    max = cents(required=True, metadata={"description": "at least min"})


def table_limits_field(description: str, **kwargs) -> ma.fields.Dict:
    """Limits by bet: `main`, or a side bet's name in the table's paytable (its limits are the
    paytable's otherwise; a name it does not offer is refused, 409)."""
    return ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Nested(LimitSchema),
                          metadata=component("BetLimits", description), **kwargs)


class CreateTableSchema(RequestSchema):
    table_id = ma.fields.String(required=True, validate=table_id_text())
    rules = ma.fields.String(required=True, validate=file_name_text(),
                             metadata={"description": "a rules file stem in rules_config/, e.g. canberra"})
    paytable = ma.fields.String(load_default=None, allow_none=True, validate=file_name_text(),
                                metadata={"description": "a paytable stem in paytables/, e.g. canberra-standard"})
    limits = table_limits_field(
        "the table's own limits by bet, in cents, each {min, max}, " + _MAX_AT_LEAST_MIN + ". House-banked: main "
        "(the rules' otherwise) and side bets by their names in the paytable (the paytable's otherwise). "
        "Player-banked: stake (main is read as stake), buy, and in Shoot Pontoon shoot and kitty (the rules' "
        "otherwise). A bet the game has not is refused (409)", load_default=dict)

    @classmethod
    def openapi_variants(cls, catalog: Catalog) -> list[Variant]:
        """The house-banked game is dealt against a paytable; the player-banked game takes none.
        A rules file or paytable not listed is refused (422)."""
        return [
            Variant("CreateHouseBankedTable", "a table of the house-banked game: rules with a paytable",
                    required=("table_id", "rules", "paytable"),
                    narrowed={"rules": {"type": "string", "enum": list(catalog.rules_with_paytable)},
                              "paytable": {"type": "string", "enum": list(catalog.paytables)}}),
            Variant("CreatePlayerBankedTable", "a table of the player-banked game: rules without a paytable",
                    required=("table_id", "rules"),
                    narrowed={"rules": {"type": "string", "enum": list(catalog.rules_without_paytable)}},
                    null=("paytable",)),
        ]


class TableSchema(ma.Schema):
    table_id = ma.fields.String(required=True)
    game = ma.fields.String(required=True)
    rules = ma.fields.String(required=True, metadata={"description": "name@version in force"})
    paytable = ma.fields.String(allow_none=True, required=True)
    limits = table_limits_field("the limits the table accepts (its own or the rules')", required=True)
    created_at = ma.fields.DateTime(required=True)
    current_shoe = ma.fields.Nested(ShoeSchema, allow_none=True, required=True)
    open_round_id = ma.fields.UUID(allow_none=True, required=True)
    bank = ma.fields.Nested(BankSchema, metadata={"description": "the player-banked game only: who holds the bank, "
                                                                 "the kitty"})
    side_bets = table_limits_field("the house-banked game only: the side bets its next round takes (its "
                                   "paytable's), by the names wagers give them, with their limits in cents")
