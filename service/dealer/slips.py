"""/dealer/slips/sign: the dealer signs, at the table's screen, a tray's count a supervisor wrote
(opener, shift change, closer), or receives a fill's chips or a credit's slip the cage issued. The
screen's part for the table's books (dealer/_table_books.html) lists what waits for them."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, request

from ..accounting.commands import SignSlip
from ..accounting.slips import sign_slip
from ..store.repositories.accounting import Capacity
from ..web.request_scope import request_uow
from .buy_ins import SIGN, BooksProblem, act, answer
from .identity import current_dealer, dealer_required

blp = Blueprint("dealer_slips", __name__, url_prefix="/dealer")


@blp.post("/slips/sign")
@dealer_required
def sign() -> Any:
    dealer = current_dealer()
    serial = request.form.get("serial", "").strip()[:32]
    if not serial:
        return answer(BooksProblem(SIGN, "The form names no slip: reload the screen."), 422)
    signed, problem, status = act(SIGN, lambda: sign_slip(SignSlip(
        serial, dealer.actor, Capacity.DEALER, dealer.table_id, dealer.screen_name), request_uow()))
    if problem is not None:
        return answer(problem, status)
    return answer(done=None if signed is None else f"{signed['serial']} signed.")
