"""/dealer/buy-ins: between rounds, the dealer records a seat's buy-in (the cash or marker into the
drop box, the chips out of the tray) at the table's screen; and what the screen's part for the
table's books shows (dealer/_table_books.html): the slips waiting for the dealer's signature and the
last buy-ins. A touch is carried out once, as every touch of the screen is."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Flask, redirect, render_template, request

from ..accounting.buy_ins import buy_ins_of_day, record_buy_in
from ..accounting.commands import RecordBuyIn
from ..accounting.slips import waiting_for
from ..catalog import resolve
from ..refusals import CommandRefused
from ..rules import Ref
from ..store.repositories.accounting import Capacity
from ..web import browser
from ..web.accounting import accounting_policy
from ..web.request_scope import request_uow
from .action_keys import ActionKey, carry_out_once
from .amounts import AmountProblem, cents_of
from .identity import current_dealer, dealer_required, signed_in_dealer

blp = Blueprint("dealer_buy_ins", __name__, url_prefix="/dealer")

LAST_BUY_INS = 5
BUY_IN, SIGN = "buy-in", "sign"


@dataclass(frozen=True, slots=True)
class BooksProblem:
    """Why the last touch on the table's books changed nothing, said beside its control."""
    at: str
    message: str
    fields: dict[str, str] = field(default_factory=dict)


def table_books() -> dict[str, Any]:
    """What the screen shows of its table's books: the slips the dealer signs next (a tray's count,
    a fill or credit issued by the cage), the seats, and the gaming day's last buy-ins."""
    dealer = signed_in_dealer()
    if dealer is None:
        return {"to_sign": [], "seats": 0, "buy_ins": []}
    uow = request_uow()
    policy = accounting_policy()
    table = uow.tables.get(dealer.table_id)
    seats = 0 if table is None else resolve(uow.paytables, str(Ref(table.rules, table.rules_version)),
                                            None).rules.max_seats
    return {"to_sign": waiting_for(uow, Capacity.DEALER, policy, dealer.table_id), "seats": seats,
            "buy_ins": buy_ins_of_day(uow, policy.gaming_day(), dealer.table_id)[-LAST_BUY_INS:][::-1]}


def answer(problem: BooksProblem | None = None, status: int = 200, done: str | None = None) -> Any:
    """The books' part alone, for the screen to swap in (a form sent without its script goes back
    to the whole screen)."""
    if request.headers.get("HX-Request") != "true":
        return redirect("/dealer/table", code=303)
    return render_template("dealer/_table_books.html", standalone=True, books_problem=problem, done=done,
                           typed=request.form if problem is not None else {}), status


def act(at: str, work: Callable[[], Any]) -> tuple[Any | None, BooksProblem | None, int]:
    """`work()` once for the touch's key: (its answer, None, 200), or (None, why not, status). A
    repeat of a touch carried out already answers as it did, with nothing done twice."""
    dealer = current_dealer()
    key = ActionKey.of(request.form.get("action_key", ""))
    if key is None:
        return None, BooksProblem(at, "The screen's form was out of date: it has been reloaded. Try again."), 422
    done: list[Any] = []
    try:
        carry_out_once(request_uow(), dealer.screen_id, key, lambda: done.append(work()))
    except CommandRefused as refused:
        fields = {name: " ".join(str(m) for m in messages) for name, messages in (refused.errors or {}).items()
                  if isinstance(messages, list)}
        message = refused.message[:1].upper() + refused.message[1:]
        return None, BooksProblem(at, message if message.endswith(".") else message + ".", fields), int(refused.status)
    return (done[0] if done else None), None, 200


@blp.post("/buy-ins")
@dealer_required
def buy_in() -> Any:
    """A seat's buy-in: its amount as the chips read, in cash or by marker."""
    dealer = current_dealer()
    seat_text = request.form.get("seat", "").strip()
    try:
        amount = cents_of(request.form.get("amount", ""))
    except AmountProblem as exc:
        return answer(BooksProblem(BUY_IN, f"The amount {exc}.", {"amount": str(exc)}), 422)
    if not (seat_text.isascii() and seat_text.isdigit()):
        return answer(BooksProblem(BUY_IN, "Choose the seat that bought in.", {"seat": "choose a seat"}), 422)
    bought, problem, status = act(BUY_IN, lambda: record_buy_in(RecordBuyIn(
        dealer.table_id, int(seat_text), amount, request.form.get("method", "cash"), dealer.actor,
        dealer.screen_name), request_uow(), accounting_policy()))
    if problem is not None:
        return answer(problem, status)
    return answer(done=None if bought is None else f"Seat {bought['seat']}: {bought['method']} in, chips out.")


def install(app: Flask) -> None:
    """The buy-in's route, and `table_books` for the screen's part that shows them."""
    app.register_blueprint(blp)

    @app.context_processor
    def books() -> dict[str, Any]:
        return {"table_books": table_books} if browser.is_dealer_request() else {}
