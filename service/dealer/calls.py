"""/dealer/call-supervisor: the dealer calls a supervisor to the table (a misdeal, a dispute). The
call waits on the console's floor and table page until a supervisor voids the round or dismisses
it; the screen shows it waiting (dealer/_call_supervisor.html, which the screen's page includes)."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request

from ..command_runner import run_command
from ..refusals import CommandRefused
from ..screens.calls import call_supervisor, open_calls
from ..screens.commands import CallSupervisor
from ..web.request_scope import request_uow
from .device import dealer_required, is_htmx, signed_in_dealer

blp = Blueprint("dealer_calls", __name__, url_prefix="/dealer")

FIELD_LIMIT = 1024


def open_call_here() -> dict[str, Any] | None:
    """The call for a supervisor open at this screen's table, if any (for the partial to show)."""
    dealer = signed_in_dealer()
    if dealer is None:
        return None
    found = open_calls(request_uow(), dealer.table_id)
    return found[0] if found else None


def _shown(*, call: dict[str, Any] | None, reason: str = "", errors: dict[str, list[str]] | None = None,
           status: int = 200) -> tuple[str, int]:
    """The partial alone for htmx (it swaps itself), else a page of its own around it."""
    template = "dealer/_call_supervisor.html" if is_htmx() else "dealer/call_supervisor.html"
    return render_template(template, shown_call=call, call_reason=reason, call_errors=errors or {}), status


@blp.get("/call-supervisor")
@dealer_required
def page() -> tuple[str, int]:
    return _shown(call=open_call_here())


@blp.post("/call-supervisor")
@dealer_required
def call() -> tuple[str, int]:
    dealer = signed_in_dealer()
    assert dealer is not None   # dealer_required
    reason = request.form.get("reason", "")[:FIELD_LIMIT]
    uow = request_uow()
    try:
        called = run_command(uow, lambda: call_supervisor(
            CallSupervisor(dealer.table_id, dealer.screen_id, dealer.actor, reason), uow))
    except CommandRefused as refused:
        errors = {name: [str(m) for m in messages] for name, messages in (refused.errors or {}).items()}
        return _shown(call=open_call_here(), reason=reason, errors=errors or {"reason": [refused.message]},
                      status=int(refused.status))
    return _shown(call=called, status=200 if called["already"] else 201)
