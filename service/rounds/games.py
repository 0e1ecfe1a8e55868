"""The game-specific corner: which round class a rules object plays, and a table's limits for it."""
from __future__ import annotations

from typing import Any

from ..engine.actions import RuleViolation
from ..engine.games.canberra import CanberraRound, CanberraRules
from ..engine.games.canberra.rules import Limits
from ..engine.games.traditional import TraditionalRules
from ..engine.play import start_round
from ..engine.transcript import Transcript, TranscriptError
from .errors import Invalid

LIMIT_KINDS = ("main", "pair_bet")
# tables.game (game_of) of the games a virtual shoe deals to directly: the player-banked game deals
# from the table's pack instead, under the table's lock.
SHOE_DEALT_GAMES = ("canberra",)


def game_of(rules: Any) -> str:
    return "canberra" if isinstance(rules, CanberraRules) else type(rules).__name__.removesuffix("Rules").lower()


def needs_paytable(rules: Any) -> bool:
    return isinstance(rules, CanberraRules)


def player_banked(rules: Any) -> bool:
    """The traditional game: a player holds the bank, and money moves between the participants."""
    return isinstance(rules, TraditionalRules)


def table_limits(limits: dict[str, dict] | None) -> dict[str, Limits]:
    """The engine's Limits from a table's stored {"main": {"min", "max"}, "pair_bet": {...}}."""
    return {kind: Limits(entry["min"], entry["max"]) for kind, entry in (limits or {}).items()}


def effective_limits(rules: Any, limits: dict[str, dict] | None) -> dict[str, dict]:
    """What a table accepts: its own limits where it sets them, the rules' defaults elsewhere."""
    if not isinstance(rules, CanberraRules):
        return dict(limits or {})
    defaults = {"main": rules.main_limits, "pair_bet": rules.pair_limits}
    own = table_limits(limits)
    return {kind: {"min": own.get(kind, default).minimum, "max": own.get(kind, default).maximum}
            for kind, default in defaults.items()}


def new_round(rules: Any, paytable: Any, wagers: list[dict], limits: dict[str, dict] | None,
              kitty: int | None = None):
    """A fresh round of the game these rules describe; Invalid when the wagers are refused.
    `kitty`: the Shoot kitty a player-banked round is played against."""
    try:
        if isinstance(rules, CanberraRules):
            return CanberraRound(rules, paytable, wagers, limits=table_limits(limits))
        return start_round(rules, paytable, Transcript(rules.name, None, wagers, [], [], kitty=kitty))
    except (RuleViolation, TranscriptError) as exc:
        raise Invalid(str(exc), code="wager_refused") from None


def transcript_of(game: Any, rules_ref: str, paytable_ref: str | None) -> dict:
    """A round's transcript; the player-banked game's names no paytable."""
    if player_banked(game.rules):
        return {**game.transcript(rules_ref), "paytable": None}
    return game.transcript(rules_ref, paytable_ref)
