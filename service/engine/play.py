"""Starts a round of the right game family for a rules object, and plays a whole transcript."""
from __future__ import annotations

from typing import Any

from .actions import RuleViolation
from .games.canberra import CanberraRound, CanberraRules, Paytable
from .games.traditional import TraditionalRound, TraditionalRules
from .limits import Limits
from .shoe import PhysicalShoe, fits_in_shoe
from .transcript import Transcript, TranscriptError, replay

GameRules = CanberraRules | TraditionalRules
GameRound = CanberraRound | TraditionalRound


def start_round(rules: GameRules, paytable: Paytable | None, transcript: Transcript) -> GameRound:
    """A fresh round for these rules with the transcript's seats (or players)."""
    try:
        if isinstance(rules, CanberraRules):
            if paytable is None:
                raise TranscriptError("this game needs a paytable")
            if transcript.players is not None or transcript.kitty is not None:
                raise TranscriptError(("players are" if transcript.players is not None else "a kitty belongs")
                                      + " to the player-banked game: this one has seats and no kitty")
            return CanberraRound(rules, paytable, transcript.seats, _limits(transcript.limits, paytable))
        if isinstance(rules, TraditionalRules):
            if paytable is not None:
                raise TranscriptError("the player-banked game takes no paytable")
            return TraditionalRound(rules, transcript.players or transcript.seats, kitty=transcript.kitty)
    except RuleViolation as exc:
        raise TranscriptError(str(exc)) from None
    raise TranscriptError(f"no game plays rules of type {type(rules).__name__}")


def _limits(limits: dict[str, dict[str, Any]] | None, paytable: Paytable) -> dict[str, Limits] | None:
    """A house-banked transcript's own limits as the engine's, by the bets a table limits: the
    main wager and the paytable's side bets (`pair_bet`, as older transcripts write the pair bet)."""
    if not limits:
        return None
    limited = {"main", "pair_bet", *(bet.name for bet in paytable.side_bets)}
    unknown = sorted(limits.keys() - limited)
    if unknown:
        raise TranscriptError(f"limits: unknown bet kinds {unknown}; a table limits {', '.join(sorted(limited))}")
    try:
        return {kind: Limits(v["min"], v["max"]) for kind, v in limits.items()}
    except ValueError as exc:
        raise TranscriptError(f"limits: {exc}") from None


def play_transcript(rules: GameRules, paytable: Paytable | None, transcript: Transcript) -> GameRound:
    """The finished round a transcript describes; TranscriptError if it breaks the rules."""
    round_ = start_round(rules, paytable, transcript)
    spec = round_.shoe_spec or rules.shoe
    # Cards that all fit the shoe together cannot be refused one by one: the check is done once.
    cards = transcript.cards
    replay(round_, cards, transcript.actions, None if fits_in_shoe(spec, cards) else PhysicalShoe(spec))
    return round_
