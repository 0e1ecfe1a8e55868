"""Rules across fields, stated in the OpenAPI document: a request schema lists its valid shapes as
variants, naming the rules files and paytables the service holds, read when the app is built. Each
variant is written out whole (every field of the body), so that a client generated from the
document has every field in each shape's model."""
from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...games import UnknownGame, family_of
from ...rules import RulesError, load_rules
from ...rules.registry import paytables_dir, rules_dir

# What a property may say about its value without changing which values are valid: kept on a
# property a variant narrows.
_WORDS = ("description", "deprecated")


@dataclass(frozen=True, slots=True)
class Catalog:
    """The names a table may be created with: rules files by whether their game needs a paytable
    (the house-banked game does, the player-banked one takes none), and the paytables."""

    rules_with_paytable: tuple[str, ...]
    rules_without_paytable: tuple[str, ...]
    paytables: tuple[str, ...]


def _stems(directory: str) -> list[str]:
    return sorted(entry[:-len(".yaml")] for entry in os.listdir(directory) if entry.endswith(".yaml"))


def read_catalog() -> Catalog:
    """The rules files in rules_config/ and the paytables in paytables/ (or the directories the
    environment names). A rules file that does not load is left out: a table cannot use it."""
    with_paytable: list[str] = []
    without_paytable: list[str] = []
    for name in _stems(rules_dir()):
        try:
            family = family_of(load_rules(name))
        except (RulesError, UnknownGame):   # a file a table could not be created with is not offered
            continue
        (with_paytable if family.needs_paytable else without_paytable).append(name)
    return Catalog(tuple(with_paytable), tuple(without_paytable), tuple(_stems(paytables_dir())))


COMPONENT = "component"   # a field's metadata key: the component its shape is (contract.ContractPlugin)


def component(name: str, description: str | None = None, **metadata: Any) -> dict[str, Any]:
    """A field's metadata saying its shape is the component `name`: one model in a generated
    client wherever the field stands (every field naming it must have the same shape)."""
    words = {"description": description} if description is not None else {}
    return {COMPONENT: name, **words, **metadata}


def null_only() -> dict[str, Any]:
    """A value that may only be null (OpenAPI 3.0 has no null type: a nullable type whose one
    value is null)."""
    return {"type": "string", "nullable": True, "enum": [None]}


def or_null(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema`, or null: one branch each, so that a validator holds a value to `schema` whole
    (a nullable `allOf` would let null fail the schema it names, and an object branch that is
    merely nullable would take any object) and a generator reads "this type, or None"."""
    return {"oneOf": [schema, null_only()]}


@dataclass(frozen=True, slots=True)
class Variant:
    """One valid shape of a request body: its component's name, what it is, the fields it
    requires (never null in it), the fields it narrows (an enum of names), and those it forbids
    (absent or null only). Every other field of the body stands in it as the body has it."""

    name: str
    description: str
    required: tuple[str, ...]
    narrowed: Mapping[str, dict[str, Any]] = field(default_factory=dict)
    null: tuple[str, ...] = ()

    def written_out(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """The variant as a whole schema, from the body's own (its component as apispec wrote it)."""
        properties: dict[str, Any] = {}
        for name, prop in body["properties"].items():
            words = {key: prop[key] for key in _WORDS if key in prop}
            if name in self.null:
                properties[name] = {**words, **null_only()}
            elif name in self.narrowed:
                properties[name] = {**words, **self.narrowed[name]}
            elif name in self.required:
                properties[name] = _not_null(prop)
            else:
                properties[name] = prop
        unknown = (set(self.required) | set(self.narrowed) | set(self.null)) - set(properties)
        if unknown:
            raise ValueError(f"{self.name} names fields its body does not have: {sorted(unknown)}")
        return {"type": "object", "description": self.description, "properties": properties,
                "required": sorted({*body.get("required", ()), *self.required}), "additionalProperties": False}


def _not_null(prop: dict[str, Any]) -> dict[str, Any]:
    """A property as the body has it, null no longer allowed (a variant requires it)."""
    if null_only() in prop.get("oneOf", ()):
        rest = [branch for branch in prop["oneOf"] if branch != null_only()]
        words = {key: value for key, value in prop.items() if key != "oneOf"}
        if len(rest) > 1:
            return {**words, "oneOf": rest}
        return {**words, "allOf": rest} if words else rest[0]
    return {key: value for key, value in prop.items() if key != "nullable"}
