"""Rules across fields, stated in the OpenAPI document: a request schema lists its valid shapes as
`oneOf`, naming the rules files and paytables the service holds, read when the app is built."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from apispec.ext.marshmallow import MarshmallowPlugin

from ...games import UnknownGame, family_of
from ...rules import RulesError, load_rules
from ...rules.registry import paytables_dir, rules_dir


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


def null_only() -> dict[str, Any]:
    """A property that may be left out or sent as null, and nothing else."""
    return {"type": "string", "nullable": True, "enum": [None]}


class VariantsPlugin(MarshmallowPlugin):
    """apispec's marshmallow plugin, adding to a schema's component the `oneOf` its class states
    through a classmethod `openapi_one_of(catalog) -> [variant, ...]`."""

    def __init__(self, catalog: Catalog, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.catalog = catalog

    def schema_helper(self, name, definition, schema=None, **kwargs):
        json_schema = super().schema_helper(name, definition, schema=schema, **kwargs)
        variants = getattr(schema, "openapi_one_of", None)
        if json_schema is not None and variants is not None:
            json_schema["oneOf"] = variants(self.catalog)
        return json_schema
