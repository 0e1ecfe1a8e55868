"""Round transcripts: parsing the JSON form, and the replay driver every game's round shares."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

from .actions import Action, RuleViolation
from .cards import CardError
from .round_core import Awaiting
from .shoe import PhysicalShoe, ShoeError

CARD, DECISION = Awaiting


class PlayableRound(Protocol):
    """What the replay driver needs of a game's round."""

    @property
    def awaiting(self) -> Awaiting | None: ...
    def deal_card(self, card: str) -> object: ...
    def act(self, action: Action) -> object: ...
    def in_turn(self) -> tuple[int, int | None] | None: ...
    def takes_when_complete(self, action: Action) -> bool: ...


class TranscriptError(ValueError):
    """A transcript that cannot be played: malformed, against the rules, or incomplete."""


class Transcript(NamedTuple):
    """A parsed transcript (immutable): what `parse_transcript` checked, ready to play. `rules`
    and `paytable` are names, `seats` the opening wagers, `cards` and `actions` in order;
    `options`, `kitty` and `players` where the game has them, `limits` a table's own limits
    where they differ from the rules', and `paytable_document` the stored paytable version the
    round ran under, carried so that the round replays where that version's database is not."""

    rules: str
    paytable: str | None
    seats: list[dict[str, Any]]
    cards: list[str]
    actions: list[Action]
    options: dict[str, Any] | None = None
    kitty: int | None = None
    players: list[dict[str, Any]] | None = None
    limits: dict[str, dict[str, int]] | None = None
    paytable_document: dict[str, Any] | None = None


def _int(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TranscriptError(f"{what} must be a whole number of cents, not {value!r}")
    return value


def _all_of_type(items: list[Any], kind: type) -> bool:
    # Exact types, as JSON gives them. A plain loop: building a set of the types costs more for
    # the dozen cards of a round (this runs for every round replayed).
    for item in items:
        if type(item) is not kind:
            return False
    return True


# A field nobody reads is refused, not skipped: a misspelt one ("side_bet" for "side_bets", "option"
# for "options") would otherwise change the money without a word.
_TRANSCRIPT_FIELDS = frozenset({"rules", "paytable", "seats", "players", "cards", "actions", "options", "kitty",
                                "limits", "paytable_document"})
_ACTION_FIELDS = frozenset({"seat", "action", "hand", "amount", "shoot"})


def parse_action(raw: Any, position: int) -> Action:
    """One decision of a transcript's `actions`, checked field by field (the first check that
    fails names the reason); a split's `shoot` bet is read as its amount."""
    # `type(x) is int` on purpose: it refuses booleans, which isinstance would let through.
    if type(raw) is not dict:
        raise TranscriptError(f"action {position}: must be an object")
    get = raw.get
    seat, name, hand, amount = get("seat"), get("action"), get("hand"), get("amount")
    if type(seat) is not int:
        raise TranscriptError(f"action {position}: seat must be a number, not {seat!r}")
    if type(name) is not str:
        raise TranscriptError(f"action {position}: action must be a decision name, not {name!r}")
    if hand is not None and (type(hand) is not int or hand < 0):
        raise TranscriptError(f"action {position}: hand must be 0 or more, not {hand!r}")
    if amount is not None and type(amount) is not int:
        raise TranscriptError(f"action {position}: amount must be a whole number of cents, not {amount!r}")
    # Seat and action are there: any field but hand and amount makes the object longer.
    if len(raw) != 2 + ("hand" in raw) + ("amount" in raw):
        if not _ACTION_FIELDS.issuperset(raw):
            raise TranscriptError(f"action {position}: unknown fields {sorted(set(raw) - _ACTION_FIELDS)}")
        if "shoot" in raw:  # a split's shoot bet for the new hand (Shoot Pontoon)
            amount = amount if amount is not None else _int(raw["shoot"], "shoot")
    return Action(seat, name, hand, amount)


def parse_transcript(data: Any) -> Transcript:
    if type(data) is not dict:
        raise TranscriptError("a transcript must be a JSON object")
    if not data.keys() <= _TRANSCRIPT_FIELDS:
        raise TranscriptError(f"unknown fields {sorted(data.keys() - _TRANSCRIPT_FIELDS)}")
    get = data.get
    rules = get("rules")
    if type(rules) is not str or not rules:
        raise TranscriptError("rules must name a rules file")
    paytable = get("paytable")
    if paytable is not None and type(paytable) is not str:
        raise TranscriptError("paytable must name a paytable file")
    cards = get("cards")
    if type(cards) is not list or not _all_of_type(cards, str):
        raise TranscriptError("cards must be a list of cards such as \"7H\"")
    actions_raw = get("actions", [])
    if type(actions_raw) is not list:
        raise TranscriptError("actions must be a list")
    actions = [parse_action(a, i) for i, a in enumerate(actions_raw, 1)]
    seats = get("seats")
    players = get("players")
    if seats is not None and players is not None:
        raise TranscriptError("seats and players: a transcript names one of them (players in the player-banked game)")
    entries = seats if seats is not None else players
    if type(entries) is not list or not _all_of_type(entries, dict):
        raise TranscriptError("seats (or players) must be a list of objects")
    options = get("options") or None
    if options is not None and type(options) is not dict:
        raise TranscriptError("options must be an object")
    kitty = get("kitty")
    if kitty is not None:
        kitty = _int(kitty, "kitty")
    limits = get("limits")
    if limits is not None:
        if type(limits) is not dict or not all(
                type(v) is dict and v.keys() == {"min", "max"} and all(type(x) is int for x in v.values())
                for v in limits.values()):
            raise TranscriptError('limits must map bet kinds to {"min": cents, "max": cents}')
    document = get("paytable_document")
    if document is not None and (type(document) is not dict or paytable is None):
        raise TranscriptError("paytable_document must be the object of the paytable version the transcript names")
    return Transcript(rules, paytable, seats or [], cards, actions, options, kitty, players, limits, document)


def replay(round_: PlayableRound, cards: list[str], actions: list[Action], shoe: PhysicalShoe | None) -> PlayableRound:
    """Play the cards and decisions in order; raise TranscriptError naming the position and reason."""
    accept = shoe.accept if shoe is not None else None
    deal, act = round_.deal_card, round_.act
    next_card = 0
    for position, action in enumerate(actions, 1):
        if round_.awaiting is CARD:
            next_card = _deal_owed(round_, cards, next_card, accept, deal, actions, position - 1)
        if round_.awaiting is None and not round_.takes_when_complete(action):
            raise TranscriptError(f"{_where(position, action)}: the round is already complete")
        try:
            act(action)
        except RuleViolation as exc:
            raise TranscriptError(f"{_where(position, action)}: {exc.reason}") from None
    _deal_owed(round_, cards, next_card, accept, deal, actions, len(actions))
    if round_.awaiting is DECISION:
        turn = round_.in_turn()
        whose = "" if turn is None else f"seat {turn[0]}" + (f" hand {turn[1]}" if turn[1] is not None else "")
        raise TranscriptError(f"{_after(len(actions), actions)}: the transcript ends before every hand is finished: "
                              f"a decision is awaited from {whose}")
    return round_


def _deal_owed(round_: PlayableRound, cards: list[str], next_card: int, accept: Callable[[str], object] | None,
               deal: Callable[[str], object], actions: list[Action], taken: int) -> int:
    """Deal every card the round is owed once the first `taken` actions are taken; the next card's
    index. Run out, the error names the action that left the card owed (the last one taken)."""
    while round_.awaiting is CARD:
        if next_card >= len(cards):
            after = _after(taken, actions) if taken else "in the opening deal"
            raise TranscriptError(f"{after}: the transcript ran out of cards")
        card = cards[next_card]
        next_card += 1
        try:
            if accept is not None:
                accept(card)
            deal(card)
        except (ShoeError, CardError, RuleViolation) as exc:
            raise TranscriptError(f"card {next_card} ({card}): {exc}") from None
    return next_card


def _where(position: int, action: Action) -> str:
    return f"action {position} ({action.describe()})"


def _after(taken: int, actions: list[Action]) -> str:
    """Where a transcript stands once `taken` actions are taken, as an error names it."""
    return f"after action {taken} ({actions[taken - 1].describe()})" if taken else "after the opening deal"
