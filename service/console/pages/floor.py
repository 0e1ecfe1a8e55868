"""/console/floor: every table at a glance, refreshed in place every few seconds."""
from __future__ import annotations

from datetime import UTC, datetime

from flask import Blueprint, current_app, render_template

from ...web.access import Task
from ...web.request_scope import request_uow
from ..auth import may, staff_required
from ..queries.floor import floor

blp = Blueprint("console_floor", __name__, url_prefix="/console", template_folder="../templates")


@blp.get("/floor")
@staff_required(Task.SEE_TABLES)
def page() -> str:
    return render_template("console/floor.html", floor=floor(request_uow(), current_app.extensions["pontoon.settings"]),
                           updated_at=datetime.now(UTC), can_answer_calls=may(Task.ANSWER_CALLS))


@blp.get("/floor/rows")
@staff_required(Task.SEE_TABLES)
def rows() -> str:
    """The table list alone, for the page's own polling (htmx swaps it in)."""
    return render_template("console/_floor_rows.html",
                           floor=floor(request_uow(), current_app.extensions["pontoon.settings"]),
                           updated_at=datetime.now(UTC), can_answer_calls=may(Task.ANSWER_CALLS))
