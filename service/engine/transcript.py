"""Round transcripts: parsing the JSON form, and the replay driver every game's round shares."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from .actions import Action, RuleViolation
from .cards import CardError
from .shoe import PhysicalShoe, ShoeError


class TranscriptError(ValueError):
    """A transcript that cannot be played: malformed, against the rules, or incomplete."""


@dataclass(frozen=True, slots=True)
class Transcript:
    rules: str
    paytable: str | None
    seats: list[dict]
    cards: list[str]
    actions: list[Action]
    options: dict = field(default_factory=dict)
    kitty: int | None = None
    players: list[dict] | None = None
    limits: dict | None = None      # a table's own limits, where they differ from the rules'


def _int(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TranscriptError(f"{what} must be a whole number of cents, not {value!r}")
    return value


_ACTION_FIELDS = frozenset({"seat", "action", "hand", "amount", "shoot"})


def parse_action(raw: Any, position: int) -> Action:
    # `type(x) is int` on purpose: it refuses booleans, which isinstance would let through.
    if type(raw) is not dict:
        raise TranscriptError(f"action {position}: must be an object")
    seat, name, hand, amount = raw.get("seat"), raw.get("action"), raw.get("hand"), raw.get("amount")
    if type(seat) is not int:
        raise TranscriptError(f"action {position}: seat must be a number, not {seat!r}")
    if type(name) is not str:
        raise TranscriptError(f"action {position}: action must be a decision name, not {name!r}")
    if hand is not None and (type(hand) is not int or hand < 0):
        raise TranscriptError(f"action {position}: hand must be 0 or more, not {hand!r}")
    if amount is not None and type(amount) is not int:
        raise TranscriptError(f"action {position}: amount must be a whole number of cents, not {amount!r}")
    if not _ACTION_FIELDS.issuperset(raw):
        raise TranscriptError(f"action {position}: unknown fields {sorted(set(raw) - _ACTION_FIELDS)}")
    if "shoot" in raw:  # a split's shoot bet for the new hand (Shoot Pontoon)
        return Action(seat, name, hand, amount if amount is not None else _int(raw["shoot"], "shoot"))
    return Action(seat, name, hand, amount)


def parse_transcript(data: Any) -> Transcript:
    if not isinstance(data, dict):
        raise TranscriptError("a transcript must be a JSON object")
    rules = data.get("rules")
    if not isinstance(rules, str) or not rules:
        raise TranscriptError("rules must name a rules file")
    paytable = data.get("paytable")
    if paytable is not None and not isinstance(paytable, str):
        raise TranscriptError("paytable must name a paytable file")
    cards = data.get("cards")
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise TranscriptError("cards must be a list of cards such as \"7H\"")
    actions_raw = data.get("actions", [])
    if not isinstance(actions_raw, list):
        raise TranscriptError("actions must be a list")
    actions = [parse_action(a, i) for i, a in enumerate(actions_raw, 1)]
    seats = data.get("seats")
    players = data.get("players")
    entries = seats if seats is not None else players
    if not isinstance(entries, list) or not all(isinstance(s, dict) for s in entries):
        raise TranscriptError("seats (or players) must be a list of objects")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise TranscriptError("options must be an object")
    kitty = data.get("kitty")
    if kitty is not None:
        kitty = _int(kitty, "kitty")
    limits = data.get("limits")
    if limits is not None:
        if not isinstance(limits, dict) or not all(
                isinstance(v, dict) and set(v) == {"min", "max"} and all(type(x) is int for x in v.values())
                for v in limits.values()):
            raise TranscriptError('limits must map bet kinds to {"min": cents, "max": cents}')
    return Transcript(rules, paytable, seats or [], cards, actions, options, kitty, players, limits)


class PlayableRound(Protocol):
    """What the replay driver needs of a game's round."""

    @property
    def awaiting(self) -> str | None: ...
    def deal_card(self, card: str) -> Any: ...
    def act(self, action: Action) -> Any: ...
    def in_turn(self) -> Any: ...


def replay(round_: PlayableRound, cards: list[str], actions: list[Action], shoe: PhysicalShoe | None) -> PlayableRound:
    """Play the cards and decisions in order; raise TranscriptError naming the position and reason."""
    next_card = 0
    shoe_accept = shoe.accept if shoe is not None else None
    deal = round_.deal_card

    def deal_owed(where) -> None:
        nonlocal next_card
        while round_.awaiting == "card":
            if next_card >= len(cards):
                raise TranscriptError(f"{where()}: the transcript ran out of cards")
            card = cards[next_card]
            next_card += 1
            try:
                if shoe_accept is not None:
                    shoe_accept(card)
                deal(card)
            except (ShoeError, CardError, RuleViolation) as exc:
                raise TranscriptError(f"card {next_card} ({card}): {exc}") from None

    for position, action in enumerate(actions, 1):
        def where(position=position, action=action) -> str:  # built only when there is an error
            return f"action {position} ({action.describe()})"
        deal_owed(where)
        if round_.awaiting is None:
            raise TranscriptError(f"{where()}: the round is already complete")
        try:
            round_.act(action)
        except RuleViolation as exc:
            raise TranscriptError(f"{where()}: {exc.reason}") from None
    deal_owed(lambda: "after the last action")
    if round_.awaiting == "decision":
        turn = round_.in_turn()
        raise TranscriptError(f"the transcript ends before every hand is finished: a decision is awaited from {turn}")
    return round_
