"""Starts a round of the right game family for a rules object, and plays a whole transcript."""
from __future__ import annotations

from .actions import RuleViolation
from .games.canberra import CanberraRound, CanberraRules
from .games.canberra.round import LIMITED_BETS
from .shoe import PhysicalShoe, fits_in_shoe
from .transcript import Transcript, TranscriptError, replay

TYPE_CHECKING = False   # typing.TYPE_CHECKING, without importing typing on replay's start-up path
if TYPE_CHECKING:
    from typing import Any


def start_round(rules: Any, paytable: Any, transcript: Transcript):
    """A fresh round for these rules with the transcript's seats (or players)."""
    try:
        if isinstance(rules, CanberraRules):
            if paytable is None:
                raise TranscriptError("this game needs a paytable")
            if transcript.players is not None or transcript.kitty is not None:
                raise TranscriptError(("players are" if transcript.players is not None else "a kitty belongs")
                                      + " to the player-banked game: this one has seats and no kitty")
            limits = transcript.limits
            return CanberraRound(rules, paytable, transcript.seats, _limits(limits) if limits else None)
        from .games.traditional import TraditionalRound, TraditionalRules
        if isinstance(rules, TraditionalRules):
            if paytable is not None:
                raise TranscriptError("the player-banked game takes no paytable")
            return TraditionalRound(rules, transcript.players or transcript.seats, kitty=transcript.kitty)
    except RuleViolation as exc:
        raise TranscriptError(str(exc)) from None
    raise TranscriptError(f"no game plays rules of type {type(rules).__name__}")


def _limits(limits: dict | None):
    """A house-banked transcript's own limits as the engine's, by the bets a table limits."""
    if not limits:
        return None
    from .limits import Limits
    unknown = sorted(limits.keys() - LIMITED_BETS)
    if unknown:
        raise TranscriptError(f"limits: unknown bet kinds {unknown}; a table limits {', '.join(sorted(LIMITED_BETS))}")
    try:
        return {kind: Limits(v["min"], v["max"]) for kind, v in limits.items()}
    except ValueError as exc:
        raise TranscriptError(f"limits: {exc}") from None


def play_transcript(rules: Any, paytable: Any, transcript: Transcript):
    """The finished round a transcript describes; TranscriptError if it breaks the rules."""
    round_ = start_round(rules, paytable, transcript)
    spec = round_.shoe_spec or rules.shoe
    # Cards that all fit the shoe together cannot be refused one by one: the check is done once.
    cards = transcript.cards
    return replay(round_, cards, transcript.actions, None if fits_in_shoe(spec, cards) else PhysicalShoe(spec))
