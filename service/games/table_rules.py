"""Whether a rules file can be a table's: of the table's game, loadable, and able to take the
table's own limits. Asked when a change of the table's rules is proposed, approved and applied."""
from __future__ import annotations

from typing import Any

from ..refusals import Conflict, Invalid
from ..rules import RulesError, load_paytable, load_rules
from ..store.repositories.tables import TableRow
from . import UnknownGame, family_of


def rules_for_table(table: TableRow, name: str) -> Any:
    """The rules object of the rules file `name` as `table` would play it; Invalid (422) for a file
    that does not load, Conflict (409) for one of another game or one the table's limits do not fit."""
    rules: Any   # the game's own rules object, as its family reads it
    try:
        rules = load_rules(name)
        family = family_of(rules)
    except (RulesError, UnknownGame) as exc:
        raise Invalid(f"rules {name!r} cannot be played: {exc}", code="invalid_request",
                      errors={"rules": [f"{name!r} is no rules file a table can play"]}) from None
    if family.game != table.game:
        raise Conflict(f"{name} is a rules file of the {family.game} game: table {table.table_id!r} plays the "
                       f"{table.game} game", code="wrong_game", errors={"rules": [f"not a {table.game} rules file"]})
    try:
        paytable = load_paytable(table.paytable) if table.paytable else None
        family.own_limits(rules, paytable, dict(table.limits or {}))
        family.effective_limits(rules, table.limits)
    except (RulesError, ValueError) as exc:
        raise Conflict(f"table {table.table_id!r} cannot play {name}: {exc}", code="limits_refused",
                       errors={"rules": [str(exc)]}) from None
    return rules


def rules_choices(game: str, names: list[str]) -> list[str]:
    """Of these rules files, those of `game` that load (what a table of the game may change to)."""
    out = []
    for name in names:
        try:
            if family_of(load_rules(name)).game == game:
                out.append(name)
        except (RulesError, UnknownGame):   # a file that does not load is no choice
            continue
    return out
