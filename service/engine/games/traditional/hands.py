"""What a set of cards is worth in the player-banked game: Pontoon, naturals, tricks, Royal Pontoon."""
from __future__ import annotations

from enum import StrEnum

from ...cards import best_total, hard_total, parse_card
from .rules import TraditionalRules

PICTURES = frozenset({"J", "Q", "K"})
TEN_POINT = frozenset({"T", "J", "Q", "K"})
NATURAL_PARTNERS = frozenset({"K", "Q"})     # under natural_beats_plain: ace with K or Q
FIVE_CARD_TRICK_SIZE = 5


class HandStatus(StrEnum):
    """Where a punter's hand stands. PLAYING hands take decisions; the rest wait for settlement,
    except BUST, which is settled the moment it happens. Once the round is complete no hand is
    PLAYING: a hand the round ended before is UNPLAYED."""

    PLAYING = "playing"
    STUCK = "stuck"
    PONTOON = "pontoon"
    ROYAL = "royal-pontoon"
    FIVE_CARD_TRICK = "five-card-trick"
    BUST = "bust"
    UNPLAYED = "unplayed"       # the round ended before the hand's turn: the banker's Pontoon


class BankerStatus(StrEnum):
    """The banker's hand: still drawing, or finished one of these ways."""

    PLAYING = "playing"
    STAYED = "stayed"
    BUST = "bust"
    FIVE_CARD_TRICK = "five-card-trick"
    PONTOON = "pontoon"
    UNPLAYED = "unplayed"       # every player's hand was bust: the banker had nothing to play for


def ranks(cards: list[str]) -> list[str]:
    return [parse_card(c)[0] for c in cards]


def value(cards: list[str]) -> int:
    """The best total not over 21 where there is one (the hard total once bust)."""
    return best_total(cards)[0] if cards else 0


def is_pontoon(cards: list[str], rules: TraditionalRules) -> bool:
    """An ace and a ten-point card as a hand's first two cards (ace and picture only, by option)."""
    if len(cards) != 2:
        return False
    first, second = ranks(cards)
    partners = TEN_POINT if rules.ace_ten_is_pontoon else PICTURES
    return (first == "A" and second in partners) or (second == "A" and first in partners)


def is_natural(cards: list[str]) -> bool:
    """Ace with king or queen: the Pontoon that beats a plain one under natural_beats_plain."""
    if len(cards) != 2:
        return False
    first, second = ranks(cards)
    return (first == "A" and second in NATURAL_PARTNERS) or (second == "A" and first in NATURAL_PARTNERS)


def is_royal(cards: list[str], rules: TraditionalRules) -> bool:
    """Three sevens, which beat everything where the school plays Royal Pontoon."""
    return rules.royal_pontoon and len(cards) == 3 and all(r == "7" for r in ranks(cards))


def is_five_card_trick(cards: list[str]) -> bool:
    return len(cards) == FIVE_CARD_TRICK_SIZE and hard_total(cards) <= 21


def is_pair(cards: list[str]) -> bool:
    """Two cards of the same rank (a king and a jack are not a pair)."""
    return len(cards) == 2 and parse_card(cards[0])[0] == parse_card(cards[1])[0]
