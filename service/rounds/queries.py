"""Read-side queries: a round's state and transcript, a table, a shoe. Nothing here writes."""
from __future__ import annotations

import uuid

from ..catalog import exported_transcript, resolve
from ..games import family_named, family_of
from ..refusals import NotFound
from ..rules import Ref
from ..store.uow import UnitOfWork
from . import views
from .state import load_game


def round_state(uow: UnitOfWork, round_id: uuid.UUID) -> dict:
    row = uow.rounds.get(round_id)
    if row is None:
        raise NotFound(f"no round {round_id}")
    _, game, _ = load_game(uow, row)
    return views.round_state(row, game)


def round_transcript(uow: UnitOfWork, round_id: uuid.UUID) -> dict:
    """The round so far in the transcript format; once complete, `pontoon replay` plays it to
    the same money."""
    row = uow.rounds.get(round_id)
    if row is None:
        raise NotFound(f"no round {round_id}")
    game_rules, game, _ = load_game(uow, row)
    transcript = family_of(game_rules.rules).transcript(game, game_rules.rules_ref, game_rules.paytable_ref)
    return exported_transcript(uow.paytables, transcript, game_rules.paytable_ref)


def table(uow: UnitOfWork, table_id: str) -> dict:
    row = uow.tables.get(table_id)
    if row is None:
        raise NotFound(f"no table {table_id!r}")
    rules = resolve(uow.paytables, str(Ref(row.rules, row.rules_version)), None).rules  # limits need no paytable
    family = family_named(row.game)
    view = views.table_view(row, family.effective_limits(rules, row.limits), uow.shoes.current(table_id),
                            uow.rounds.open_on_table(table_id))
    return {**view, **family.table_fields(uow, table_id, rules)}


def current_shoe(uow: UnitOfWork, table_id: str) -> dict:
    if uow.tables.get(table_id) is None:
        raise NotFound(f"no table {table_id!r}")
    shoe = uow.shoes.current(table_id)
    if shoe is None:
        raise NotFound(f"table {table_id!r} has no shoe open")
    return views.shoe_view(shoe)


def shoe(uow: UnitOfWork, shoe_id: uuid.UUID) -> dict:
    row = uow.shoes.get(shoe_id)
    if row is None:
        raise NotFound(f"no shoe {shoe_id}")
    return views.shoe_view(row)
