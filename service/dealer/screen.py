"""The table's screen: its shoe, the round in play, and the dealer's every card and decision, each
carried out by the same handlers as the REST API's and answered with the screen as it now stands."""
from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, render_template, request
from werkzeug.datastructures import MultiDict

from ..engine.cards import CardError, parse_card
from ..refusals import CommandRefused
from ..rounds import handlers
from ..rounds.commands import CloseShoe, OpenRound, OpenShoe, PostAction, PostCard
from ..traditional import bank
from ..traditional.commands import ChangeKitty
from ..web.request_scope import request_uow
from .action_keys import ActionKey, carry_out_once
from .amounts import AmountProblem, cents_of, optional_cents
from .identity import DealerAtScreen, current_dealer, dealer_required
from .keys import KEY_OF_DECISION, KEY_OF_STEP
from .table_state import Awaiting, ScreenState, screen_state

blp = Blueprint("dealer_screen", __name__, url_prefix="/dealer")

# Where on the screen a refusal is shown: beside the control that asked for it.
SHOE, WAGERS, CARD, DECISION, KITTY = "shoe", "wagers", "card", "decision", "kitty"
# What a form lists per seat, a row a seat: an amount field's name, nested under "side_bets." for a side bet.
SIDE_BET_PREFIX = "side_bets."


@dataclass(frozen=True, slots=True)
class Problem:
    """Why the last touch changed nothing, said beside the control it came from."""
    at: str
    message: str
    fields: dict[str, str] = field(default_factory=dict)   # "wager/3" -> what is wrong with seat 3's wager
    legal: list[dict[str, Any]] = field(default_factory=list)


class FormProblem(Exception):
    """A form that cannot be read (an amount that is not one): answered 422, nothing done."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


# ----- reading the screen -------------------------------------------------------------------
@blp.get("/table")
@dealer_required
def table() -> Any:
    """The whole screen (a reload shows the table exactly as the store holds it)."""
    return _render("dealer/table.html", moving_on=request.args.get("next") == "1")


@blp.get("/table/screen")
@dealer_required
def screen() -> Any:
    """The screen's live part alone, for the page to swap in (the next round's bets, a refresh)."""
    return _render("dealer/_screen.html", moving_on=request.args.get("next") == "1")


# ----- the dealer's touches -----------------------------------------------------------------
@blp.post("/shoe")
@dealer_required
def open_shoe() -> Any:
    mode = request.form.get("mode", "")
    if mode not in ("physical", "virtual"):
        return _refused(Problem(SHOE, "Choose a physical shoe (cards entered as they are dealt) or a virtual one "
                                      "(the screen deals)."), 422)
    return _act(SHOE, lambda dealer: (handlers.open_shoe,
                                      OpenShoe(dealer.table_id, mode, dealer.actor, dealer.screen_name)))


@blp.post("/shoe/close")
@dealer_required
def close_shoe() -> Any:
    return _act(SHOE, lambda dealer: (handlers.close_shoe, CloseShoe(dealer.table_id, dealer.actor,
                                                                     dealer.screen_name)))


@blp.post("/rounds")
@dealer_required
def open_round() -> Any:
    try:
        entries = _entries(request.form)
    except FormProblem as exc:
        return _refused(exc.problem, 422)
    if not entries:
        return _refused(Problem(WAGERS, "No seat has a bet: enter at least one seat's bet, then deal."), 422)
    as_players = request.form.get("entries_as") == "players"
    return _act(WAGERS, lambda dealer: (handlers.open_round, OpenRound(
        dealer.table_id, wagers=None if as_players else entries, players=entries if as_players else None,
        actor=dealer.actor, screen=dealer.screen_name)))


@blp.post("/cards")
@dealer_required
def post_card() -> Any:
    card = request.form.get("card", "").strip().upper()
    try:
        parse_card(card)
    except CardError:
        return _refused(Problem(CARD, f"{card or 'Nothing'} is no card: enter its rank (A, 2 to 9, T, J, Q, K) "
                                      "then its suit (S, H, D, C), e.g. QH, 7S, AD."), 422)
    round_id, revision = _round_and_revision(CARD)
    if round_id is None:
        return _refused(Problem(CARD, "No round is in play: there is no card to enter."), 409)
    return _act(CARD, lambda dealer: (handlers.post_card, PostCard(round_id, card, dealer.actor, revision,
                                                                   dealer.screen_name)))


@blp.post("/actions")
@dealer_required
def post_action() -> Any:
    form = request.form
    round_id, revision = _round_and_revision(DECISION)
    try:
        seat = int(form.get("seat", ""))
        hand = int(form["hand"]) if form.get("hand", "") != "" else None
    except ValueError:
        return _refused(Problem(DECISION, "The decision names no seat or hand: reload the screen."), 422)
    amount = None
    if "amount" in form:
        try:
            amount = cents_of(form.get("amount", ""))
        except AmountProblem as exc:
            return _refused(Problem(DECISION, f"The amount {exc}.", {f"amount/{form.get('action')}": str(exc)}), 422)
    if round_id is None:
        return _refused(Problem(DECISION, "No round is in play: there is no decision to take."), 409)
    return _act(DECISION, lambda dealer: (handlers.post_action, PostAction(
        round_id, seat, form.get("action", ""), hand, amount, dealer.actor, revision, dealer.screen_name)))


@blp.post("/kitty")
@dealer_required
def change_kitty() -> Any:
    """Between rounds, the banker's kitty put up or topped up (a game with a kitty offers it)."""
    try:
        amount = cents_of(request.form.get("amount", ""))
    except AmountProblem as exc:
        return _refused(Problem(KITTY, f"The kitty's amount {exc}.", {"amount/kitty": str(exc)}), 422)
    return _act(KITTY, lambda dealer: (bank.change_kitty, ChangeKitty(
        dealer.table_id, request.form.get("kitty_action", ""), amount, dealer.actor)))


# ----- how each touch is carried out --------------------------------------------------------
Command = tuple[Callable[..., Any], Any]


def _act(at: str, command: Callable[[DealerAtScreen], Command]) -> Any:
    """Carry out the touch's command once (a double tap, a resent form or a second tab's copy of
    the same form finds it done), then answer with the screen as it now stands; a refusal is shown
    beside the control, with nothing changed."""
    dealer = current_dealer()
    key = ActionKey.of(request.form.get("action_key", ""))
    if key is None:
        return _refused(Problem(at, "The screen's form was out of date: it has been reloaded. Try again."), 422)
    handler, cmd = command(dealer)
    uow = request_uow()
    try:
        carry_out_once(uow, dealer.screen_id, key, lambda: handler(cmd, uow))
    except CommandRefused as refused:
        return _refused(Problem(at, _in_words(refused), legal=refused.legal_actions or []), int(refused.status))
    return _render(_answer_template())


def _answer_template() -> str:
    """A touch sent by the page's script is answered with the screen's live part, swapped in; a
    form sent without it (no script), with the whole page."""
    return "dealer/_screen.html" if request.headers.get("HX-Request") == "true" else "dealer/table.html"


def _in_words(refused: CommandRefused) -> str:
    """The refusal as the dealer reads it: the rules' own words, first letter up, and what to do
    where the round moved on elsewhere."""
    if refused.code == "revision_conflict":
        return ("The round had moved on (another tab or screen acted first): it is shown as it stands now. "
                "Nothing was changed.")
    message = refused.message
    return message[:1].upper() + message[1:] + ("" if message.endswith(".") else ".")


def _round_and_revision(at: str) -> tuple[uuid.UUID | None, int | None]:
    """The round and its revision the form was drawn for: a form from before the round moved on
    is refused by the handler (revision_conflict) rather than applied to a later state."""
    try:
        round_id = uuid.UUID(request.form.get("round_id", ""))
        revision = int(request.form.get("revision", ""))
    except ValueError:
        return None, None
    return round_id, revision


def _entries(form: MultiDict[str, str]) -> list[dict[str, Any]]:
    """Each seat's bets from the wagers form: a row a seat, its amount fields named by the form's
    `entry_fields` (the first the seat's main bet, empty when the seat does not play)."""
    names = [name for name in form.get("entry_fields", "").split(",") if name]
    seats = form.getlist("seat")
    columns = {name: form.getlist(name) for name in names}
    if not names or any(len(values) != len(seats) for values in columns.values()):
        raise FormProblem(Problem(WAGERS, "The bets form was out of date: reload the screen."))
    entries, fields = [], {}
    for row, seat_text in enumerate(seats):
        seat = int(seat_text)
        entry: dict[str, Any] = {"seat": seat}
        for name in names:
            try:
                amount = optional_cents(columns[name][row])
            except AmountProblem as exc:
                fields[f"{name}/{seat}"] = str(exc)
                continue
            if amount is None:
                continue
            if name.startswith(SIDE_BET_PREFIX):
                entry.setdefault("side_bets", {})[name.removeprefix(SIDE_BET_PREFIX)] = amount
            else:
                entry[name] = amount
        main = names[0]
        if main not in entry and len(entry) > 1 and f"{main}/{seat}" not in fields:
            fields[f"{main}/{seat}"] = "a seat with a side bet needs its main bet too"
        if main in entry:
            entries.append(entry)
    if fields:
        raise FormProblem(Problem(WAGERS, "Some bets cannot be read: see the seats marked.", fields))
    return entries


def _refused(problem: Problem, status: int) -> Any:
    return _render(_answer_template(), problem=problem, status=status)


def _render(template: str, *, moving_on: bool = False, problem: Problem | None = None, status: int = 200) -> Any:
    dealer = current_dealer()
    state: ScreenState = screen_state(request_uow(), dealer.table_id, moving_on=moving_on)
    return render_template(template, dealer=dealer, state=state, Awaiting=Awaiting, problem=problem,
                           keys=KEY_OF_DECISION, step_keys=KEY_OF_STEP,
                           form=request.form if problem is not None else None), status
