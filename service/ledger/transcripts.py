"""A stored round's transcript (rounds + round_events rows) and its replay through the engine."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..engine.play import play_transcript
from ..engine.transcript import parse_transcript
from ..rules import Ref, load_paytable, load_rules

# A paytable version -> its paytable object: where a stored version lives (the database's approved
# versions, see service.catalog.approved_paytable). Without one, the YAML file is used.
PaytableSource = Callable[[Ref], Any]


def stored_transcript(rules_ref: str, paytable_ref: str | None, wagers: list[dict],
                      events: Iterable[tuple[str, dict]], kitty: int | None = None,
                      limits: dict | None = None) -> dict:
    """The transcript a stored round describes; `events` are (kind, payload) in seq order, `kitty`
    the Shoot kitty a player-banked round was played against, and `limits` its table's own limits
    ({"main": {"min", "max"}, ...}, as stored), which its wagers and doubles were checked against."""
    cards: list[str] = []
    actions: list[dict] = []
    for kind, payload in events:
        if kind == "card":
            cards.append(payload["card"])
        elif kind == "action":
            actions.append(payload)
        else:
            raise ValueError(f"unknown round event kind {kind!r}")
    transcript: dict[str, Any] = {"rules": rules_ref, "paytable": paytable_ref, "seats": wagers, "cards": cards,
                                  "actions": actions}
    if kitty:
        transcript["kitty"] = kitty
    if limits:
        transcript["limits"] = limits
    return transcript


def play_stored(transcript: dict, paytables: PaytableSource | None = None) -> Any:
    """The finished engine round, under the paytable version it names; raises TranscriptError or
    RulesError when it cannot be played."""
    parsed = parse_transcript(transcript)
    rules = load_rules(Ref.parse(parsed.rules).name, parsed.options or None)
    paytable = None
    if parsed.paytable:
        ref = Ref.parse(parsed.paytable)
        paytable = paytables(ref) if paytables else load_paytable(ref.name)
    return play_transcript(rules, paytable, parsed)


def seat_totals(result: dict) -> dict[int, tuple[int, int]]:
    """{seat: (staked, returned)} from an engine result (or a stored copy of one)."""
    return {entry["seat"]: (entry["staked"], entry["returned"]) for entry in result.get("seats", [])}


def bet_totals(bets: Iterable[Any]) -> dict[int, tuple[int, int]]:
    """{seat: (staked, returned)} summed over bet lines (the engine's BetLines or ledger rows)."""
    totals: dict[int, tuple[int, int]] = {}
    for bet in bets:
        staked, returned = totals.get(bet.seat, (0, 0))
        totals[bet.seat] = (staked + bet.stake, returned + bet.returned)
    return totals
