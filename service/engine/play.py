"""Plays a whole transcript: a fresh round of the rules' game, then its cards and decisions."""
from __future__ import annotations

from .games.registry import GamePaytable, GameRound, GameRules, round_from_transcript
from .shoe import PhysicalShoe, fits_in_shoe
from .transcript import Transcript, replay

__all__ = ["GameRound", "GameRules", "play_transcript", "start_round"]


def start_round(rules: GameRules, paytable: GamePaytable | None, transcript: Transcript) -> GameRound:
    """A fresh round for these rules with the transcript's seats (or players)."""
    return round_from_transcript(rules, paytable, transcript)


def play_transcript(rules: GameRules, paytable: GamePaytable | None, transcript: Transcript) -> GameRound:
    """The finished round a transcript describes; TranscriptError if it breaks the rules."""
    round_ = start_round(rules, paytable, transcript)
    spec = round_.shoe_spec or rules.shoe
    # Cards that all fit the shoe together cannot be refused one by one: the check is done once.
    cards = transcript.cards
    replay(round_, cards, transcript.actions, None if fits_in_shoe(spec, cards) else PhysicalShoe(spec))
    return round_
