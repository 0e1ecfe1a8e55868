"""Playing cards as short strings ("7H", "TD", "10D"), their ranks, suits and point values."""
from __future__ import annotations

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
TEN_VALUED = frozenset({"T", "J", "Q", "K"})

# Point value with every ace counted as one; soft totals add ten on top.
RANK_POINTS = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
               "T": 10, "J": 10, "Q": 10, "K": 10}


class CardError(ValueError):
    """A card token that names no card."""


def _build_token_table() -> dict[str, tuple[str, str]]:
    table: dict[str, tuple[str, str]] = {}
    for rank in RANKS:
        for suit in SUITS:
            table[rank + suit] = (rank, suit)
            table[(rank + suit).lower()] = (rank, suit)
        if rank == "T":
            for suit in SUITS:
                table["10" + suit] = (rank, suit)
                table["10" + suit.lower()] = (rank, suit)
    return table


_TOKENS = _build_token_table()


def parse_card(token: object) -> tuple[str, str]:
    """Return (rank, suit) of a card token; "10H" and "TH" are the same card."""
    try:
        return _TOKENS[token]  # type: ignore[index]
    except (KeyError, TypeError):
        raise CardError(f"{token!r} is not a card (rank A 2-9 T/10 J Q K, then suit S H D C)") from None


def rank_of(card: str) -> str:
    return parse_card(card)[0]


def canonical(card: str) -> str:
    rank, suit = parse_card(card)
    return rank + suit


def points(card: str) -> int:
    return RANK_POINTS[parse_card(card)[0]]


RANK_OF = {token: rank for token, (rank, _) in _TOKENS.items()}
SUIT_OF = {token: suit for token, (_, suit) in _TOKENS.items()}
CANONICAL = {token: rank + suit for token, (rank, suit) in _TOKENS.items()}
CARD_POINTS = {token: RANK_POINTS[rank] for token, (rank, _) in _TOKENS.items()}
ACES = frozenset(token for token, (rank, _) in _TOKENS.items() if rank == "A")


def is_card(token: object) -> bool:
    return token in _TOKENS


_points_of = CARD_POINTS.__getitem__


def hard_total(cards: list[str]) -> int:
    return sum(map(_points_of, cards))


def best_total(cards: list[str]) -> tuple[int, bool]:
    """(best total not over 21 where possible, soft?) with one ace counted eleven when it fits."""
    hard = sum(map(_points_of, cards))
    if hard <= 11 and not ACES.isdisjoint(cards):
        return hard + 10, True
    return hard, False
