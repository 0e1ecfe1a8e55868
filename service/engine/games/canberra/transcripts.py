"""How a transcript of the house-banked game starts its round: seats, a paytable, the table's own limits."""
from __future__ import annotations

from ...actions import RuleViolation
from ...limits import Limits
from ...transcript import Transcript, TranscriptError
from .paytable import Paytable
from .round import CanberraRound
from .rules import CanberraRules


def round_from_transcript(rules: CanberraRules, paytable: Paytable | None, transcript: Transcript) -> CanberraRound:
    """A fresh round with the transcript's seats and limits; TranscriptError when it names what this
    game has not (a kitty, players) or lacks its paytable, or when the rules refuse its wagers."""
    if paytable is None:
        raise TranscriptError("this game needs a paytable")
    if transcript.players is not None or transcript.kitty is not None:
        raise TranscriptError(("players are" if transcript.players is not None else "a kitty belongs")
                              + " to the player-banked game: this one has seats and no kitty")
    limits = _limits(transcript.limits, paytable)
    try:
        return CanberraRound(rules, paytable, transcript.seats, limits)
    except RuleViolation as exc:
        raise TranscriptError(str(exc)) from None


def _limits(limits: dict[str, dict[str, int]] | None, paytable: Paytable) -> dict[str, Limits] | None:
    """A transcript's own limits as the engine's, by the bets a table limits: the main wager and
    the paytable's side bets (`pair_bet`, as older transcripts write the pair bet)."""
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
