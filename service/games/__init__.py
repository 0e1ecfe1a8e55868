"""The games the service deals, each a GameFamily found by the table's `game` or by its rules' `game`:
the one list of them the service keeps."""
from __future__ import annotations

from typing import Protocol

from .canberra import CanberraFamily
from .family import GameFamily, Note, Opening, RoundChange, View, table_limits
from .traditional import TraditionalFamily

# Any one of the games: which a table plays is known only when its row or rules are read.
Family = CanberraFamily | TraditionalFamily

FAMILIES: dict[str, Family] = {family.game: family for family in (CanberraFamily(), TraditionalFamily())}

# tables.game of the games a virtual shoe deals to directly: a decision at their tables locks the
# shoe and the audit chain's head with the round (the player-banked game deals from the table's
# pack instead, under the table's lock).
SHOE_DEALT_GAMES: tuple[str, ...] = tuple(game for game, family in FAMILIES.items() if family.virtual_shoe_deals)

# Every decision any game's hands take, by name, and those that take an amount: what a request may
# name before the table's game says which of them it allows.
DECISIONS: tuple[str, ...] = tuple(sorted({name for family in FAMILIES.values() for name in family.decisions}))


# The folder of every game's own templates (the console's pages include them by the game's name).
TEMPLATES_FOLDER = "templates"


def game_view(game: str, part: str) -> str:
    """The template of a game's own part of a page: `part` of the game's partials."""
    return f"{family_named(game).templates}/{part}.html"


def seat_name(game: str, seat: int) -> str:
    """Who a seat of a game's round is, in the pit's words (the banker is "the banker")."""
    return family_named(game).seat_name(seat)


class UnknownGame(LookupError):
    """A table or rules object naming a game the service does not deal: a defect, or a rules
    file for a game not installed here."""


def family_named(game: str) -> Family:
    """The family of a table's `game` column."""
    try:
        return FAMILIES[game]
    except KeyError:
        raise UnknownGame(f"no game {game!r} is dealt here (games: {', '.join(sorted(FAMILIES))})") from None


class NamesItsGame(Protocol):
    """What a rules object says of itself: the game it is a rules object of."""

    @property
    def game(self) -> str: ...


def family_of(rules: NamesItsGame) -> Family:
    """The family of a rules object (the engine's rules classes name their game)."""
    return family_named(rules.game)


__all__ = ["DECISIONS", "FAMILIES", "Family", "SHOE_DEALT_GAMES", "TEMPLATES_FOLDER", "GameFamily", "Note", "Opening",
           "RoundChange", "UnknownGame", "View", "family_named", "family_of", "game_view", "seat_name",
           "table_limits"]
