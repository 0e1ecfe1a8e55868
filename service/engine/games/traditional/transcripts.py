"""How a transcript of the player-banked game starts its round: players, the Shoot kitty, a table's own limits."""
from __future__ import annotations

from ...actions import RuleViolation
from ...limits import limits_by_kind
from ...transcript import Transcript, TranscriptError
from .round import TraditionalRound
from .rules import TraditionalRules


def round_from_transcript(rules: TraditionalRules, paytable: object | None,
                          transcript: Transcript) -> TraditionalRound:
    """A fresh round with the transcript's players against its kitty; TranscriptError when it names
    a paytable (this game has none) or the rules refuse its stakes."""
    if paytable is not None:
        raise TranscriptError("the player-banked game takes no paytable")
    try:
        limits = limits_by_kind(transcript.limits)
    except ValueError as exc:
        raise TranscriptError(f"limits: {exc}") from None
    try:
        return TraditionalRound(rules, transcript.players or transcript.seats, kitty=transcript.kitty, limits=limits)
    except RuleViolation as exc:
        raise TranscriptError(str(exc)) from None
