"""Round transcripts: parsing the JSON form, and the replay driver every game's round shares."""
from __future__ import annotations

from collections import namedtuple
from functools import partial

from .actions import Action, RuleViolation, new_action
from .cards import CardError
from .shoe import PhysicalShoe, ShoeError

TYPE_CHECKING = False   # typing.TYPE_CHECKING, without importing typing on replay's start-up path
if TYPE_CHECKING:
    from typing import Any, Callable, Protocol

    class PlayableRound(Protocol):
        """What the replay driver needs of a game's round."""

        @property
        def awaiting(self) -> str | None: ...
        def deal_card(self, card: str) -> Any: ...
        def act(self, action: Action) -> Any: ...
        def in_turn(self) -> Any: ...
        def takes_when_complete(self, action: Action) -> bool: ...


class TranscriptError(ValueError):
    """A transcript that cannot be played: malformed, against the rules, or incomplete."""


class Transcript(namedtuple("Transcript", "rules paytable seats cards actions options kitty players limits",
                            defaults=(None, None, None, None))):
    """A parsed transcript (immutable): what `parse_transcript` checked, ready to play. `rules`
    and `paytable` are names, `seats` the opening wagers, `cards` and `actions` in order;
    `options`, `kitty` and `players` where the game has them, and `limits` a table's own limits
    where they differ from the rules'."""

    __slots__ = ()


_new_transcript = partial(tuple.__new__, Transcript)   # every field given: cheaper, as in actions.py


def _int(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TranscriptError(f"{what} must be a whole number of cents, not {value!r}")
    return value


def _all_of_type(items: list, kind: type) -> bool:
    # Exact types, as JSON gives them. A plain loop: building a set of the types costs more for
    # the dozen cards of a round (this runs for every round replayed).
    for item in items:
        if type(item) is not kind:
            return False
    return True


# A field nobody reads is refused, not skipped: a misspelt one ("pair" for "pair_bet", "option"
# for "options") would otherwise change the money without a word.
_TRANSCRIPT_FIELDS = frozenset({"rules", "paytable", "seats", "players", "cards", "actions", "options", "kitty",
                                "limits"})
_ACTION_FIELDS = frozenset({"seat", "action", "hand", "amount", "shoot"})


def parse_action(raw: Any, position: int) -> Action:
    # `type(x) is int` on purpose: it refuses booleans, which isinstance would let through.
    if type(raw) is dict:
        get = raw.get
        seat, name, hand, amount = get("seat"), get("action"), get("hand"), get("amount")
        # A seat and an action (None when absent fails their checks), and no field besides them but
        # a hand and an amount: counted rather than compared as sets, which costs more per decision.
        if (type(seat) is int and type(name) is str and (hand is None or type(hand) is int and hand >= 0)
                and (amount is None or type(amount) is int) and len(raw) == 2 + ("hand" in raw) + ("amount" in raw)):
            return new_action((seat, name, hand, amount))
    return _parse_action_checked(raw, position)


def _parse_action_checked(raw: Any, position: int) -> Action:
    """The same checks one by one, naming the first that fails (and reading a shoot bet)."""
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
        return new_action((seat, name, hand, amount if amount is not None else _int(raw["shoot"], "shoot")))
    return new_action((seat, name, hand, amount))


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
    return _new_transcript((rules, paytable, seats or [], cards, actions, options, kitty, players, limits))


def replay(round_: PlayableRound, cards: list[str], actions: list[Action], shoe: PhysicalShoe | None) -> PlayableRound:
    """Play the cards and decisions in order; raise TranscriptError naming the position and reason."""
    accept = shoe.accept if shoe is not None else None
    deal, act = round_.deal_card, round_.act
    next_card = 0
    for position, action in enumerate(actions, 1):
        if round_.awaiting == "card":
            next_card = _deal_owed(round_, cards, next_card, accept, deal, actions, position - 1)
        if round_.awaiting is None and not round_.takes_when_complete(action):
            raise TranscriptError(f"{_where(position, action)}: the round is already complete")
        try:
            act(action)
        except RuleViolation as exc:
            raise TranscriptError(f"{_where(position, action)}: {exc.reason}") from None
    _deal_owed(round_, cards, next_card, accept, deal, actions, len(actions))
    if round_.awaiting == "decision":
        seat, hand = round_.in_turn()
        whose = f"seat {seat}" + (f" hand {hand}" if hand is not None else "")
        raise TranscriptError(f"{_after(len(actions), actions)}: the transcript ends before every hand is finished: "
                              f"a decision is awaited from {whose}")
    return round_


def _deal_owed(round_: PlayableRound, cards: list[str], next_card: int, accept: Callable[[str], Any] | None,
               deal: Callable[[str], Any], actions: list[Action], taken: int) -> int:
    """Deal every card the round is owed once the first `taken` actions are taken; the next card's
    index. Run out, the error names the action that left the card owed (the last one taken)."""
    while round_.awaiting == "card":
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
