"""The games the service deals, each a GameFamily found by the table's `game` or by its rules' `game`."""
from __future__ import annotations

from typing import Any

from . import canberra, traditional
from .family import GameFamily, Opening, RoundChange, table_limits

FAMILIES: dict[str, GameFamily] = {family.game: family for family in (canberra.FAMILY, traditional.FAMILY)}

# tables.game of the games a virtual shoe deals to directly: a decision at their tables locks the
# shoe and the audit chain's head with the round (the player-banked game deals from the table's
# pack instead, under the table's lock).
SHOE_DEALT_GAMES: tuple[str, ...] = tuple(game for game, family in FAMILIES.items() if family.virtual_shoe_deals)


class UnknownGame(LookupError):
    """A table or rules object naming a game the service does not deal: a defect, or a rules
    file for a game not installed here."""


def family_named(game: str) -> GameFamily:
    """The family of a table's `game` column."""
    try:
        return FAMILIES[game]
    except KeyError:
        raise UnknownGame(f"no game {game!r} is dealt here (games: {', '.join(sorted(FAMILIES))})") from None


def family_of(rules: Any) -> GameFamily:
    """The family of a rules object (the engine's rules classes name their game)."""
    return family_named(rules.game)


__all__ = ["FAMILIES", "SHOE_DEALT_GAMES", "GameFamily", "Opening", "RoundChange", "UnknownGame", "family_named",
           "family_of", "table_limits"]
