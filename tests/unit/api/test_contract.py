"""How the document is written for generators: a variant of a body written out whole, a component
named by two fields of different shapes refused, and a refusal's errors in their one shape."""
from __future__ import annotations

import marshmallow as ma
import pytest
from apispec import APISpec

from service.api.contract import ContractPlugin
from service.api.errors import reasons
from service.api.schemas.variants import Catalog, Variant, component, null_only

BODY = {"type": "object", "required": ["seat"], "additionalProperties": False, "properties": {
    "seat": {"type": "integer"},
    "hand": {"type": "integer", "nullable": True, "description": "the hand"},
    "action": {"type": "string", "enum": ["hit", "insurance"], "description": "what to do"},
}}


def test_a_variant_has_every_field_of_its_body():
    insurance = Variant("Insurance", "insurance", required=("action",),
                        narrowed={"action": {"type": "string", "enum": ["insurance"]}}, null=("hand",))
    written = insurance.written_out(BODY)
    assert written["properties"] == {
        "seat": {"type": "integer"},
        "hand": {"description": "the hand", **null_only()},
        "action": {"description": "what to do", "type": "string", "enum": ["insurance"]}}
    assert written["required"] == ["action", "seat"] and written["additionalProperties"] is False
    required = Variant("OnAHand", "a hand's", required=("hand",)).written_out(BODY)
    assert required["properties"]["hand"] == {"type": "integer", "description": "the hand"}, "required: not null"


def test_a_variant_names_only_fields_its_body_has():
    with pytest.raises(ValueError, match="colour"):
        Variant("Odd", "odd", required=("colour",)).written_out(BODY)


def _spec(*schemas: type[ma.Schema]) -> dict:
    spec = APISpec("t", "1", "3.0.3", plugins=[ContractPlugin(Catalog((), (), ()))])
    for schema in schemas:
        spec.components.schema(schema.__name__, schema=schema)
    return spec.to_dict()["components"]["schemas"]


class Round(ma.Schema):
    mode = ma.fields.String(allow_none=True, validate=ma.validate.OneOf(["a", "b"]),
                            metadata=component("Mode", "the mode"))
    stakes = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Integer(), load_default=None,
                            allow_none=True)


def test_a_nullable_component_is_it_or_null_and_no_default_is_null():
    written = _spec(Round)
    assert written["Mode"] == {"type": "string", "enum": ["a", "b"]}
    assert written["Round"]["properties"]["mode"] == {
        "description": "the mode", "oneOf": [{"$ref": "#/components/schemas/Mode"}, null_only()]}
    assert "default" not in written["Round"]["properties"]["stakes"]


class Other(ma.Schema):
    mode = ma.fields.String(validate=ma.validate.OneOf(["a", "c"]), metadata=component("Mode"))


def test_one_component_name_has_one_shape():
    with pytest.raises(ValueError, match="Mode"):
        _spec(Round, Other)


def test_errors_have_one_shape():
    assert reasons({"round_id": "r-1", "wagers": {0: {"seat": ["too high"]}}, "_schema": ("bad",)}) == \
        {"round_id": ["r-1"], "wagers": {"0": {"seat": ["too high"]}}, "_schema": ["bad"]}
