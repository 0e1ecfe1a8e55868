"""The engine's games by the name their rules carry. The engine finds a rules object's game here
where it must do so itself (a transcript's round, a rules file's reader); the service above asks
each game's family (service.games)."""
from __future__ import annotations

from ..transcript import Transcript, TranscriptError
from .canberra import CanberraRound, CanberraRules, Paytable
from .canberra.transcripts import round_from_transcript as canberra_round
from .traditional import TraditionalRound, TraditionalRules
from .traditional.transcripts import round_from_transcript as traditional_round

GameRules = CanberraRules | TraditionalRules
GameRound = CanberraRound | TraditionalRound

# The paytable a game that pays from one is dealt under.
GamePaytable = Paytable

# Every game's name, as its rules files write `game`.
GAME_NAMES: tuple[str, ...] = (CanberraRules.game, TraditionalRules.game)

# The rules of the game the house banks: the one the strategy and house-edge analyses are of.
HouseBankedRules = CanberraRules


def round_from_transcript(rules: GameRules, paytable: GamePaytable | None, transcript: Transcript) -> GameRound:
    """A fresh round of the rules' game with the transcript's seats (or players)."""
    if isinstance(rules, CanberraRules):
        return canberra_round(rules, paytable, transcript)
    if isinstance(rules, TraditionalRules):
        return traditional_round(rules, paytable, transcript)
    raise TranscriptError(f"no game plays rules of type {type(rules).__name__}")
