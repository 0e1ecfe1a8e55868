"""Rebuilds a round from its stored events with the pure engine: the transcript is the state."""
from __future__ import annotations

from typing import Any

from ..catalog import GameRules, resolve
from ..engine.actions import Action, RuleViolation
from ..games import family_of
from ..refusals import Conflict, Invalid
from ..store.repositories.rounds import RoundEvent, RoundRow
from ..store.uow import UnitOfWork


class CorruptRound(RuntimeError):
    """Stored events the engine no longer accepts: a defect to look into, never a client error."""


def action_of(payload: dict) -> Action:
    return Action(payload["seat"], payload["action"], payload.get("hand"), payload.get("amount"))


def action_payload(action: Action) -> dict:
    payload: dict = {"seat": action.seat, "action": action.action}
    if action.hand is not None:
        payload["hand"] = action.hand
    if action.amount is not None:
        payload["amount"] = action.amount
    return payload


def rebuild(game_rules: GameRules, row: RoundRow, events: list[RoundEvent], limits: dict | None,
            kitty: int | None = None):
    """A fresh engine round with every stored card and decision applied, in order (`kitty`: the
    Shoot kitty a player-banked round was played against)."""
    try:
        game = family_of(game_rules.rules).start(game_rules.rules, game_rules.paytable, row.wagers, limits, kitty)
        for event in events:
            if event.kind == "card":
                record = game.deal_card(event.payload["card"])
                if event.payload.get("to") not in (None, record.to):
                    raise CorruptRound(f"round {row.round_id} event {event.seq}: {event.payload['card']} went to "
                                       f"{record.to}, stored as going to {event.payload['to']}")
            else:
                game.act(action_of(event.payload))
    except (Invalid, Conflict, RuleViolation, ValueError) as exc:  # ValueError: CardError
        raise CorruptRound(f"round {row.round_id} does not replay: {exc}") from exc
    return game


def load_game(uow: UnitOfWork, row: RoundRow, events_and_limits: tuple[list[RoundEvent], dict | None] | None = None
              ) -> tuple[GameRules, Any, int]:
    """The round's rules (as it opened with them), its engine state rebuilt from its events, and
    the sequence number the next event takes. `events_and_limits`: the round's events and its
    table's limits, when the caller has read them already (with the round's lock)."""
    game_rules = resolve(uow.paytables, row.rules_ref, row.paytable_ref)
    events, limits = events_and_limits or uow.rounds.events_and_limits(row.round_id, row.table_id)
    kitty = family_of(game_rules.rules).kitty_before(uow, row.round_id)
    return game_rules, rebuild(game_rules, row, events, limits, kitty), (events[-1].seq + 1 if events else 0)
