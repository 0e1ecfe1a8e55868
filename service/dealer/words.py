"""The screen's words for what the engine names: who a card goes to, whose turn it is, a
decision, a hand's status. Hands are counted from 1, as people count them (the API's index and the
page's data-hand attributes keep counting from 0)."""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from flask import Flask

from .action_keys import new_action_key
from .amounts import dollars_of

_SEAT_HAND = re.compile(r"^seat (\d+) hand (\d+)$")


def to_whom(card_to: str | None) -> str:
    """"seat 2 hand 0" -> "seat 2, hand 1"; "dealer" -> "the dealer"."""
    if card_to is None:
        return "nobody"
    found = _SEAT_HAND.match(card_to)
    if found is None:
        return f"the {card_to}"
    seat, hand = found.groups()
    return f"seat {seat}, hand {int(hand) + 1}"


def turn_words(in_turn: Mapping[str, Any]) -> str:
    """Whose turn it is: "Seat 2, hand 1", or the banker's (seat 0, deciding for no one hand)."""
    seat, hand = in_turn["seat"], in_turn.get("hand")
    if hand is None:
        return f"Seat {seat}" if seat else "The banker"
    return f"Seat {seat}, hand {hand + 1}"


def words(name: str | None) -> str:
    """An engine name as words: "five_card_21" -> "five card 21", "dealer-bust" -> "dealer bust"."""
    return (name or "").replace("_", " ").replace("-", " ")


def decision_words(action: str) -> str:
    return words(action).capitalize()


def install(app: Flask) -> None:
    for name, function in (("to_whom", to_whom), ("turn_words", turn_words), ("status_words", words),
                           ("decision_words", decision_words)):
        app.add_template_filter(function, name)
    app.add_template_global(new_action_key, "new_action_key")
    app.add_template_global(dollars_of, "dollars")
