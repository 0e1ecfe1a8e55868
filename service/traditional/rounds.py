"""Opening a player-banked round against the table's banker, kitty and pack; what it needs to replay."""
from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..catalog import GameRules
from ..engine.actions import RuleViolation
from ..engine.games.traditional import TraditionalRound
from ..engine.limits import Limits
from ..refusals import Conflict
from ..store.repositories.shoes import ShoeRow
from ..store.repositories.traditional import RoundSetup
from ..store.uow import UnitOfWork
from .bank_state import BankState
from .pack import Note, round_spec, virtual_pack_for_round


def new_round(rules: Any, players: list[dict], kitty: int | None = None,
              limits: Mapping[str, Limits] | None = None) -> TraditionalRound:
    """A fresh round for these players against `kitty` (Shoot Pontoon) under the table's own
    `limits`; Conflict (409) when the table's rules or limits refuse them."""
    try:
        return TraditionalRound(rules, players, kitty=kitty, limits=limits)
    except RuleViolation as exc:
        raise Conflict(str(exc), code="wager_refused") from None


@dataclass(frozen=True, slots=True)
class PreparedRound:
    game: TraditionalRound
    shoe: ShoeRow                   # the shoe it deals from (a new one when the pack had to be replaced)
    setup: RoundSetup
    notes: list[Note] = field(default_factory=list)


def prepare_round(uow: UnitOfWork, table_id: str, shoe: ShoeRow, game_rules: GameRules, players: list[dict],
                  banker_place: int | None, limits: Mapping[str, Limits] | None = None) -> PreparedRound:
    """The engine round for these players (Conflict when the rules refuse them), against the table's
    banker and kitty; the table's row is locked. `banker_place`, when the terminal sends it, must be
    where the table has the bank: the players' seats are counted from the banker's left."""
    rules = game_rules.rules
    repo = uow.traditional
    state = BankState.of(repo.lock_state(table_id))
    if banker_place is not None and banker_place != state.banker_place:
        raise Conflict(f"the bank is at banker_place {state.banker_place} (chair {state.banker_place + 1} as the pit "
                       f"counts them), not {banker_place}: count the seats from its left", code="banker_moved",
                       errors={"banker_place": [f"the bank is at banker_place {state.banker_place}"]})
    if rules.shoot and state.kitty < 1:
        raise Conflict("Shoot Pontoon: the banker must put up a kitty, or sell the bank, before the deal",
                       code="kitty_empty")
    game = new_round(rules, players, kitty=state.kitty if rules.shoot else None, limits=limits)
    notes: list[Note] = []
    if shoe.mode == "virtual":
        shoe, state, notes = virtual_pack_for_round(uow, table_id, shoe, state, round_spec(game))
        repo.save_state(table_id, state.as_json())
    return PreparedRound(game, shoe, RoundSetup(state.banker_place, game.kitty_before), notes)


def record_round(uow: UnitOfWork, round_id: uuid.UUID, table_id: str, setup: RoundSetup) -> None:
    uow.traditional.add_round(round_id, table_id, setup)


def kitty_before(uow: UnitOfWork, round_id: uuid.UUID) -> int | None:
    """The kitty a stored round was played against (its transcript's `kitty`)."""
    setup = uow.traditional.round_setup(round_id)
    return setup.kitty_before if setup else None
