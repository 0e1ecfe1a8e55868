"""Starts a round of the right game family for a rules object, and plays a whole transcript."""
from __future__ import annotations

from .actions import RuleViolation
from .games.canberra import CanberraRound, CanberraRules
from .shoe import PhysicalShoe
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
            limits = None
            if transcript.limits:
                from .limits import Limits
                try:
                    limits = {kind: Limits(v["min"], v["max"]) for kind, v in transcript.limits.items()}
                except ValueError as exc:
                    raise TranscriptError(f"limits: {exc}") from None
            return CanberraRound(rules, paytable, transcript.seats, limits)
        from .games.traditional import TraditionalRound, TraditionalRules
        if isinstance(rules, TraditionalRules):
            return TraditionalRound(rules, transcript.players or transcript.seats, kitty=transcript.kitty)
    except RuleViolation as exc:
        raise TranscriptError(str(exc)) from None
    raise TranscriptError(f"no game plays rules of type {type(rules).__name__}")


def play_transcript(rules: Any, paytable: Any, transcript: Transcript):
    """The finished round a transcript describes; TranscriptError if it breaks the rules."""
    round_ = start_round(rules, paytable, transcript)
    # A game whose pack depends on the table (two packs for a big traditional school) says so.
    spec = getattr(round_, "shoe_spec", None) or rules.shoe
    shoe = PhysicalShoe(spec)
    # Cards that all fit the shoe together cannot be refused one by one: the check is done once.
    return replay(round_, transcript.cards, transcript.actions, None if shoe.holds_all(transcript.cards) else shoe)
