"""Table games accounting: a table's tray counts, fills and credits (slips, each step a signature),
buy-ins at its seats, and the soft count of its drop box."""
from __future__ import annotations

import marshmallow as ma
from flask.views import MethodView

from ...accounting import buy_ins, counts, slips
from ...accounting.commands import (
    CountTray,
    EnterCount,
    IssueChips,
    RecordBuyIn,
    RequestChips,
    SignSlip,
    VoidSlip,
)
from ...roles import KEY_ROLES
from ...store.repositories.accounting import TABLE_OF_SLIP, Capacity, SlipKind
from ...web.access import Task, roles_for
from ...web.accounting import accounting_policy, capacity_of, day_asked
from ...web.schemas.accounting import (
    BuyInSchema,
    ChipsRequestSchema,
    DayQuerySchema,
    EnterCountSchema,
    SlipsQuerySchema,
    TableDayQuerySchema,
    TrayCountSchema,
    VoidSlipSchema,
)
from ..auth import TableOf, access, principal, require, table_in_path
from ..blueprint import Blueprint
from ..docs import IDEMPOTENCY_KEY, documented
from ..schemas.accounting import (
    BuyInListSchema,
    BuyInRecordSchema,
    DropCountListSchema,
    DropCountSchema,
    SlipListSchema,
    SlipSchema,
)
from ..transactions import command, request_uow

blp = Blueprint("accounting", __name__, url_prefix="/v1",
                description="Table games accounting: tray counts, fills and credits, buy-ins, the soft count")
slip_table = TableOf("serial", TABLE_OF_SLIP)


def _roles(task: Task) -> tuple[str, ...]:
    """The key roles that may do `task` (a dealer signs in at a screen, never with a key)."""
    return tuple(roles_for(task, KEY_ROLES))


def _own_table() -> str | None:
    """A terminal's table: the only one its signatures count at."""
    return principal().table_id


@blp.route("/tables/<table_id:table_id>/tray-counts")
class TrayCounts(MethodView):
    @command(access(*_roles(Task.COUNT_TRAYS), table_from=table_in_path))
    @blp.arguments(TrayCountSchema())
    @blp.response(201, SlipSchema)
    @documented(blp, "countTray", 404, 409, 422, headers=(IDEMPOTENCY_KEY,))
    def post(self, body, table_id):
        """Count the table's tray.

        Count the table's tray by denomination: `opener` as it opens for the gaming day,
        `shift_change` as one shift hands over to the next, `closer` as it closes. The slip is
        signed as it is written by whoever counted (a supervisor's key, or the table's terminal
        for its dealer); the other signs it at `/v1/slips/{serial}/sign`. One opener and one
        closer a day (409 otherwise: void a mistaken one and count again with `replaces`)."""
        caller = principal()
        return slips.count_tray(CountTray(table_id, body["kind"], body["chips"], caller.actor,
                                          capacity_of(caller.role), body.get("gaming_day"), body.get("replaces")),
                                request_uow(), accounting_policy())


def _request(kind: SlipKind, body: dict, table_id: str) -> dict:
    return slips.request_chips(RequestChips(table_id, kind.value, body["chips"], principal().actor,
                                            body.get("replaces")), request_uow(), accounting_policy())


@blp.route("/tables/<table_id:table_id>/fills")
class Fills(MethodView):
    @command(access(*_roles(Task.REQUEST_CHIPS)))
    @blp.arguments(ChipsRequestSchema())
    @blp.response(201, SlipSchema)
    @documented(blp, "requestFill", 404, 409, 422, headers=(IDEMPOTENCY_KEY,))
    def post(self, body, table_id):
        """Ask the cage for a fill.

        A supervisor asks the cage for chips for the table, by denomination: a fill slip with
        its serial number. The cage issues it (`/v1/slips/{serial}/issue`), then the dealer and a
        supervisor receive it at the table (`/v1/slips/{serial}/sign`)."""
        return _request(SlipKind.FILL, body, table_id)


@blp.route("/tables/<table_id:table_id>/credits")
class Credits(MethodView):
    @command(access(*_roles(Task.REQUEST_CHIPS)))
    @blp.arguments(ChipsRequestSchema())
    @blp.response(201, SlipSchema)
    @documented(blp, "requestCredit", 404, 409, 422, headers=(IDEMPOTENCY_KEY,))
    def post(self, body, table_id):
        """Send the cage a credit.

        A supervisor sends chips from the table back to the cage: a credit slip, issued by the
        cage as it takes the chips and received back at the table by the dealer and a supervisor."""
        return _request(SlipKind.CREDIT, body, table_id)


@blp.route("/tables/<table_id:table_id>/slips")
class TableSlips(MethodView):
    @require(*_roles(Task.SEE_SLIPS), table_from=table_in_path)
    @blp.arguments(TableDayQuerySchema(), location="query", unknown=ma.RAISE)
    @blp.response(200, SlipListSchema)
    @documented(blp, "listTableSlips", 404)
    def get(self, query, table_id):
        """A table's slips of a gaming day.

        The table's slips of a gaming day (default: the current one), voided ones included, in
        the order they were written."""
        day = day_asked(query, accounting_policy())
        return {"gaming_day": day, "slips": slips.slips_of_day(request_uow(), day, table_id)}


@blp.route("/slips")
class Slips(MethodView):
    @require(*_roles(Task.SEE_BOOKS))
    @blp.arguments(SlipsQuerySchema(), location="query", unknown=ma.RAISE)
    @blp.response(200, SlipListSchema)
    @documented(blp, "listSlips")
    def get(self, query):
        """Every table's slips of a gaming day.

        Every table's slips of a gaming day; with `awaiting`, those of the current and the last
        gaming day still waiting for that signature (`awaiting=cage`: the fills and credits the
        cage has to issue)."""
        policy = accounting_policy()
        day = day_asked(query, policy)
        if query.get("awaiting"):
            return {"gaming_day": day,
                    "slips": slips.waiting_for(request_uow(), Capacity(query["awaiting"]), policy)}
        return {"gaming_day": day, "slips": slips.slips_of_day(request_uow(), day)}


@blp.route("/slips/<serial:serial>")
class OneSlip(MethodView):
    @require(*_roles(Task.SEE_SLIPS), table_from=slip_table)
    @blp.response(200, SlipSchema)
    @documented(blp, "getSlip", 404)
    def get(self, serial):
        """One slip.

        A slip: its chips, its total, where it stands and every signature on it."""
        return slips.slip(request_uow(), serial)


@blp.route("/slips/<serial:serial>/issue")
class Issue(MethodView):
    @command(access(*_roles(Task.ISSUE_CHIPS)))
    @blp.response(200, SlipSchema)
    @documented(blp, "issueSlip", 404, 409, headers=(IDEMPOTENCY_KEY,))
    def post(self, serial):
        """Issue a fill or credit at the cage.

        The cage issues a fill's chips, or takes a credit's: the chips count at the table from
        now on. Takes no body."""
        return slips.issue_chips(IssueChips(serial, principal().actor), request_uow())


@blp.route("/slips/<serial:serial>/sign")
class Sign(MethodView):
    @command(access(*_roles(Task.SIGN_SLIPS), table_from=slip_table))
    @blp.response(200, SlipSchema)
    @documented(blp, "signSlip", 404, 409, headers=(IDEMPOTENCY_KEY,))
    def post(self, serial):
        """Sign a slip at the table.

        At the table: sign a tray's count, or receive an issued fill or credit. A supervisor's
        key signs as a supervisor, the table's terminal key as its dealer; the two are two
        people's (403 same_person otherwise). Takes no body."""
        caller = principal()
        return slips.sign_slip(SignSlip(serial, caller.actor, capacity_of(caller.role), _own_table()),
                               request_uow())


@blp.route("/slips/<serial:serial>/void")
class Void(MethodView):
    @command(access(*_roles(Task.VOID_SLIPS)))
    @blp.arguments(VoidSlipSchema())
    @blp.response(200, SlipSchema)
    @documented(blp, "voidSlip", 404, 409, 422, headers=(IDEMPOTENCY_KEY,))
    def post(self, body, serial):
        """Void a mistaken slip.

        Void a mistaken slip, with a reason: the first call asks for the void (`void_asked`),
        a second person's call confirms it (403 same_person if it is the same). A voided slip
        counts no more; write it again with `replaces` naming it."""
        caller = principal()
        return slips.void_slip(VoidSlip(serial, body["reason"], caller.actor, capacity_of(caller.role)),
                               request_uow())


@blp.route("/tables/<table_id:table_id>/buy-ins")
class BuyIns(MethodView):
    @command(access(*_roles(Task.RECORD_BUY_INS), table_from=table_in_path))
    @blp.arguments(BuyInSchema())
    @blp.response(201, BuyInRecordSchema)
    @documented(blp, "recordBuyIn", 404, 422, headers=(IDEMPOTENCY_KEY,))
    def post(self, body, table_id):
        """Record a seat's buy-in.

        A seat's buy-in: cash (or a marker) into the drop box, chips of the same value out of the
        tray, on the current gaming day."""
        return buy_ins.record_buy_in(RecordBuyIn(table_id, body["seat"], body["amount"], body["method"],
                                                 principal().actor), request_uow(), accounting_policy())

    @require(*_roles(Task.SEE_SLIPS), table_from=table_in_path)
    @blp.arguments(TableDayQuerySchema(), location="query", unknown=ma.RAISE)
    @blp.response(200, BuyInListSchema)
    @documented(blp, "listBuyIns", 404)
    def get(self, query, table_id):
        """A table's buy-ins of a gaming day.

        The table's buy-ins of a gaming day (default: the current one)."""
        day = day_asked(query, accounting_policy())
        return {"gaming_day": day, "buy_ins": buy_ins.buy_ins_of_day(request_uow(), day, table_id)}


@blp.route("/tables/<table_id:table_id>/drop-counts")
class DropCount(MethodView):
    @command(access(*_roles(Task.COUNT_DROP)))
    @blp.arguments(EnterCountSchema())
    @blp.response(201, DropCountSchema)
    @documented(blp, "enterDropCount", 404, 409, 422, headers=(IDEMPOTENCY_KEY,))
    def post(self, body, table_id):
        """Enter a drop box's count.

        A counter's figures for the table's drop box of a gaming day: cash and markers, in
        cents. The first figures wait for a second counter (`awaiting_second_count`); a second
        counter's that agree make the count `final` (then it never changes: 409), ones that do
        not agree wait for another counter in turn. The figures are shown once final."""
        return counts.enter_count(EnterCount(table_id, body["gaming_day"], body["cash"], body["markers"],
                                             principal().actor), request_uow(), accounting_policy())


@blp.route("/drop-counts")
class DropCounts(MethodView):
    @require(*_roles(Task.SEE_BOOKS))
    @blp.arguments(DayQuerySchema(), location="query", unknown=ma.RAISE)
    @blp.response(200, DropCountListSchema)
    @documented(blp, "listDropCounts")
    def get(self, query):
        """Every drop box's count of a gaming day.

        Every table's drop box of a gaming day (default: the current one) and where its count
        stands."""
        policy = accounting_policy()
        day = day_asked(query, policy)
        return {"gaming_day": day, "counts": counts.counts_of_day(request_uow(), day, policy)}
