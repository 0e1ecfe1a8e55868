"""A sensible player: stand on 17+, hit below 13, double 10 and 11, split 8s and aces, surrender
15 and 16 against a picture, forfeit a poor double, insurance now and then. It chooses only
among the legal decisions the API lists."""
from __future__ import annotations

import random
from typing import Any

INSURANCE_RATE = 0.2       # of the seats offered insurance
PICTURES = frozenset({"J", "Q", "K"})
SPLIT_RANKS = frozenset({"8", "A"})


def rank(card: str) -> str:
    return card[:-1]


def card_value(card: str) -> int:
    r = rank(card)
    return 11 if r == "A" else 10 if r in ("T", "J", "Q", "K") else int(r)


def hard_total(cards: list[str]) -> int:
    return sum(1 if rank(card) == "A" else card_value(card) for card in cards)


def choose(state: dict, rng: random.Random, insurance_asked: set[int]) -> dict[str, Any] | None:
    """The decision to post for a round awaiting one (None when nothing listed can be chosen).
    `insurance_asked` is the round's seats already asked about insurance (updated here)."""
    legal = state.get("legal_actions") or []
    for offer in legal:
        if offer["action"] == "insurance" and offer["seat"] not in insurance_asked:
            insurance_asked.add(offer["seat"])
            if rng.random() < INSURANCE_RATE:
                amount = offer.get("max_amount") or offer.get("min_amount")
                return {"seat": offer["seat"], "action": "insurance", "amount": amount}
    turn = state.get("in_turn")
    if not turn:
        return None
    seat, hand_index = turn["seat"], turn["hand"]
    offers = {offer["action"]: offer for offer in turn["legal_actions"]}
    hand = _hand(state, seat, hand_index)
    upcard = state["dealer"]["cards"][0] if state["dealer"]["cards"] else None
    name, amount = play_hand(hand["cards"], hand["total"], upcard, offers)
    if name is None:
        return None
    decision = {"seat": seat, "hand": hand_index, "action": name}
    if amount is not None:
        decision["amount"] = amount
    return decision


def play_hand(cards: list[str], total: int, upcard: str | None,
              offers: dict[str, dict]) -> tuple[str | None, int | None]:
    """(decision, amount) for one hand, from the decisions on offer."""
    up = card_value(upcard) if upcard else 10
    picture = upcard is not None and rank(upcard) in PICTURES
    soft = total != hard_total(cards)
    if "forfeit" in offers:                       # the double's card is in: keep it, or give up the wager
        return ("forfeit", None) if total <= 14 and up >= 7 else ("stand", None)
    if "split" in offers and len(cards) == 2 and rank(cards[0]) in SPLIT_RANKS:
        return "split", None
    if "surrender" in offers and total in (15, 16) and picture:
        return "surrender", None
    if "double" in offers and not soft and (total in (10, 11) or (total == 9 and 3 <= up <= 6)):
        return "double", offers["double"].get("max_amount")
    if total >= 17 and "stand" in offers:
        return "stand", None
    if total <= 12 and "hit" in offers:
        return "hit", None
    if "stand" in offers and (up <= 6 or "hit" not in offers):
        return "stand", None
    if "hit" in offers:
        return "hit", None
    for fallback in ("stand", "hit"):
        if fallback in offers:
            return fallback, None
    return None, None


def _hand(state: dict, seat: int, hand_index: int) -> dict:
    for seat_view in state["seats"]:
        if seat_view["seat"] == seat:
            for hand in seat_view["hands"]:
                if hand["hand"] == hand_index:
                    return hand
    raise KeyError(f"seat {seat} hand {hand_index} is in turn but not in the round's seats")
