"""Helpers for rule tests: build a transcript from seats, cards and decisions, and play it."""
from __future__ import annotations

from service.replay import replay_data


def act(seat: int, action: str, hand: int | None = 0, amount: int | None = None) -> dict:
    out: dict = {"seat": seat, "action": action}
    if hand is not None and action != "insurance":
        out["hand"] = hand
    if amount is not None:
        out["amount"] = amount
    return out


def play(seats, cards: str, actions=(), paytable: str = "canberra-standard", rules: str = "canberra") -> dict:
    if isinstance(seats, int):
        seats = [{"seat": 1, "wager": seats}]
    return replay_data({"rules": rules, "paytable": paytable, "seats": list(seats),
                        "cards": cards.split(), "actions": list(actions)})


def nets(result: dict) -> list[int]:
    return [seat["net"] for seat in result["seats"]]


def seat(result: dict, number: int = 1) -> dict:
    return next(s for s in result["seats"] if s["seat"] == number)
