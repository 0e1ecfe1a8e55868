"""Builds the player-banked game's rules from its YAML document and a transcript's option overrides."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..engine.games.traditional.rules import OPTION_DEFAULTS, TraditionalRules
from ..engine.limits import Limits
from ..engine.rule_errors import RuleFieldError
from ..engine.shoe import ShoeSpec
from .reader import Reader

_INTEGER_OPTIONS = ("stick_min", "pontoon_pays", "five_card_trick_pays", "banker_pontoon_collects")
_TEXT_OPTIONS = ("split_pairs",)
_NULLABLE_INTEGER_OPTIONS = ("burn",)


def _limits(reader: Reader, key: str) -> Limits | None:
    section = reader.section(key)
    low, high = section.integer("min", minimum=1), section.integer("max", minimum=1)
    section.refuse_unknown()
    return reader.build(key, Limits, low, high)


def _option(reader: Reader, name: str) -> object:
    """Read one named option the way its type needs; a missing one takes the spec's default."""
    default = OPTION_DEFAULTS[name]
    if name in _INTEGER_OPTIONS:
        return reader.integer(name, default)
    if name in _NULLABLE_INTEGER_OPTIONS:
        return reader.integer(name, default, allow_none=True)
    if name in _TEXT_OPTIONS:
        return reader.text(name, default)
    return reader.boolean(name, default)


def _options(doc: Reader, overrides: dict[str, Any]) -> tuple[dict[str, object], dict[str, str]]:
    """Every option's value, the document's unless a transcript overrides it; and where each came from."""
    override_reader = Reader(overrides, "options", doc.errors)
    for name in overrides:
        if name not in OPTION_DEFAULTS:
            override_reader.fail(str(name), f"is not an option; options are {', '.join(OPTION_DEFAULTS)}")
            override_reader.seen.add(name)
    values, paths = {}, {}
    for name in OPTION_DEFAULTS:
        values[name], paths[name] = _option(doc, name), name  # the file's own value must be good too
        if name in overrides:
            values[name], paths[name] = _option(override_reader, name), f"options.{name}"
    return values, paths


def read_rules(doc: Reader, overrides: Mapping[str, object]) -> TraditionalRules | None:
    """The game's rules as the registry reads every game's, a transcript's option overrides applied."""
    return read_traditional_rules(doc, dict(overrides) if isinstance(overrides, Mapping) else {})


def read_traditional_rules(doc: Reader, overrides: dict[str, Any]) -> TraditionalRules | None:
    name = doc.text("name")
    doc.integer("version", 1, minimum=1)
    doc.text("game")
    shoe_r = doc.section("shoe")
    shoe = shoe_r.build("decks", ShoeSpec, shoe_r.integer("decks", 1, minimum=1))
    shoe_r.refuse_unknown()
    large = doc.section("large_table", {"players": 8, "decks": 2})
    large_players = large.integer("players", 8, minimum=2)
    large_shoe = large.build("decks", ShoeSpec, large.integer("decks", 2, minimum=1))
    large.refuse_unknown()
    limits = doc.section("limits")
    stake, kitty = _limits(limits, "stake"), _limits(limits, "kitty")
    buy = _limits(limits, "buy") if "buy" in limits.data else None   # else the buy rule's range alone
    shoot_min = limits.integer("shoot_bet_min", minimum=1)
    shoot_max = limits.integer("shoot_bet_max", None, minimum=1, allow_none=True)   # else the kitty's room
    limits.refuse_unknown()
    fields: dict[str, Any] = dict(
        name=name, shoe=shoe, large_table_shoe=large_shoe, large_table_players=large_players,
        max_seats=doc.integer("seats", minimum=1), stake_limits=stake, kitty_limits=kitty,
        shoot_bet_minimum=shoot_min, shoot_bet_maximum=shoot_max, buy_limits=buy,
        split_max_hands=doc.integer("split_max_hands", 4, minimum=1),
        first_buy_max_multiple=doc.integer("first_buy_max_multiple", 2, minimum=1),
        royal_pontoon_pays=doc.integer("royal_pontoon_pays", 3, minimum=1),
        banker_five_card_trick_collects=doc.integer("banker_five_card_trick_collects", 2, minimum=1),
    )
    options, paths = _options(doc, overrides if isinstance(overrides, dict) else {})
    fields.update(options)
    doc.refuse_unknown()
    if doc.errors:
        return None
    try:
        return TraditionalRules(**fields)
    except RuleFieldError as exc:
        doc.errors[paths.get(exc.field, exc.field)] = str(exc)
    except (ValueError, TypeError) as exc:
        doc.errors["(rules)"] = str(exc)
    return None
