"""The table games statement worked out from a table's books: what its tray, its fills and credits
and its drop box say the table won, beside what its settled rounds say (the game win), and the
variance between the two, flagged for review beyond a threshold.

For a gaming day, win = drop + credits - fills + (closer - opener) and hold % = win / drop. The
rounds are the independent check: chips sold at the table's seats leave the tray as their cash or
markers go into the box, so when every slip, buy-in and count is right the tray and the box win
exactly what the rounds did, and variance = win - game win is 0.

A shift's tray is counted at both its ends, but the box is counted once a gaming day: a shift has
no drop of its own, so its win is not worked out. Its tray result (credits - fills + closer -
opener) with the buy-ins recorded in it stands for it: its variance is tray result + buy-ins -
game win. Events belong to the shift whose tray counts they fall between.

Pure: the handlers hand it what the store holds, and `audit verify` what the audit log chained."""
from __future__ import annotations

import csv
import io
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .tables import percent_of

OPENER, SHIFT_CHANGE, CLOSER, FILL, CREDIT = "opener", "shift_change", "closer", "fill", "credit"
CASH, MARKER = "cash", "marker"
NO_ACTIVITY, ACTIVE = "no activity", "active"
# The figures of a table's day that are sums (the floor's are their sums over the tables).
SUMMED = ("opener", "closer", "fills", "credits", "drop", "drop_cash", "drop_markers", "tray_result", "win",
          "handle", "game_win", "buy_ins", "buy_ins_cash", "buy_ins_markers", "variance", "rounds", "unsettled_rounds")


@dataclass(frozen=True, slots=True)
class TrayCount:
    serial: str
    kind: str                       # opener | shift_change | closer
    total: int
    at: datetime


@dataclass(frozen=True, slots=True)
class ChipMove:
    serial: str
    kind: str                       # fill | credit
    total: int
    at: datetime                    # when the cage issued it


@dataclass(frozen=True, slots=True)
class BuyIn:
    amount: int
    method: str                     # cash | marker
    at: datetime


@dataclass(frozen=True, slots=True)
class Drop:
    cash: int
    markers: int

    @property
    def total(self) -> int:
        return self.cash + self.markers


@dataclass(frozen=True, slots=True)
class RoundMoney:
    at: datetime                    # when it opened
    handle: int
    game_win: int


@dataclass(frozen=True, slots=True)
class TableBooks:
    """What a table's gaming day holds: its live tray counts, issued fills and credits (voided
    slips left out), buy-ins, its box's final count (None: not final), its settled rounds, and
    anything about them a reviewer should know (`notes`: a slip unsigned, a fill not received)."""
    table_id: str
    game: str | None = None
    trays: tuple[TrayCount, ...] = ()
    moves: tuple[ChipMove, ...] = ()
    buy_ins: tuple[BuyIn, ...] = ()
    drop: Drop | None = None
    rounds: tuple[RoundMoney, ...] = ()
    unsettled_rounds: int = 0
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def active(self) -> bool:
        return bool(self.trays or self.moves or self.buy_ins or self.drop or self.rounds or self.unsettled_rounds)


def _of(kind: str, trays: Iterable[TrayCount]) -> list[TrayCount]:
    return sorted((tray for tray in trays if tray.kind == kind), key=lambda tray: tray.at)


def _tray_result(credits: int, fills: int, closer: int | None, opener: int | None) -> int | None:
    """credits - fills + (closer - opener): what the table's chips say it won, before its drop; None
    while either count is missing."""
    if closer is None or opener is None:
        return None
    return credits - fills + (closer - opener)


def _money(moves: Iterable[ChipMove], buy_ins: Iterable[BuyIn], rounds: Iterable[RoundMoney]) -> dict[str, int]:
    moves, buy_ins, rounds = list(moves), list(buy_ins), list(rounds)
    return {"fills": sum(move.total for move in moves if move.kind == FILL),
            "credits": sum(move.total for move in moves if move.kind == CREDIT),
            "buy_ins": sum(buy_in.amount for buy_in in buy_ins),
            "buy_ins_cash": sum(buy_in.amount for buy_in in buy_ins if buy_in.method == CASH),
            "buy_ins_markers": sum(buy_in.amount for buy_in in buy_ins if buy_in.method == MARKER),
            "handle": sum(played.handle for played in rounds),
            "game_win": sum(played.game_win for played in rounds),
            "rounds": len(rounds)}


def _flag(variance: int | None, active: bool, threshold: int) -> bool:
    """Beyond the threshold, or a table in play whose variance cannot be worked out."""
    return abs(variance) > threshold if variance is not None else active


def day_figures(books: TableBooks, threshold: int) -> dict[str, Any]:
    """The table's statement for its gaming day (see the module)."""
    openers, closers = _of(OPENER, books.trays), _of(CLOSER, books.trays)
    opener = openers[0].total if openers else None
    closer = closers[-1].total if closers else None
    money = _money(books.moves, books.buy_ins, books.rounds)
    drop = books.drop.total if books.drop is not None else None
    tray_result = _tray_result(money["credits"], money["fills"], closer, opener)
    win = drop + tray_result if drop is not None and tray_result is not None else None
    variance = win - money["game_win"] if win is not None else None
    reasons = list(books.notes)
    if books.active:
        if opener is None:
            reasons.append("no opener: the tray was not counted as the table opened")
        if closer is None:
            reasons.append("no closer: the tray was not counted as the table closed")
        if drop is None:
            reasons.append("the drop box's count is not final")
    flagged = _flag(variance, books.active, threshold)
    if variance is not None and flagged:
        reasons.append(f"variance {variance} cents is beyond the threshold of {threshold}")
    return {"table_id": books.table_id, "game": books.game, "activity": ACTIVE if books.active else NO_ACTIVITY,
            "opener": opener, "closer": closer, "fills": money["fills"], "credits": money["credits"],
            "drop": drop, "drop_cash": books.drop.cash if books.drop else None,
            "drop_markers": books.drop.markers if books.drop else None,
            "tray_result": tray_result, "win": win,
            "hold_percent": percent_of(win, drop) if win is not None and drop else None,
            "handle": money["handle"], "game_win": money["game_win"],
            "game_win_percent": percent_of(money["game_win"], money["handle"]),
            "buy_ins": money["buy_ins"], "buy_ins_cash": money["buy_ins_cash"],
            "buy_ins_markers": money["buy_ins_markers"], "variance": variance, "flagged": flagged,
            "reasons": reasons, "rounds": money["rounds"], "unsettled_rounds": books.unsettled_rounds,
            "shifts": shift_figures(books, threshold)}


def shift_figures(books: TableBooks, threshold: int) -> list[dict[str, Any]]:
    """Each shift the table's tray counts mark out: the opener to the first shift change, each
    shift change to the next, the last to the closer. Whatever happened before the first count
    is in the first shift, after the last in the last."""
    openers, changes, closers = _of(OPENER, books.trays), _of(SHIFT_CHANGE, books.trays), _of(CLOSER, books.trays)
    if not books.active:
        return []
    boundaries = [change.at for change in changes]
    starts: list[TrayCount | None] = [openers[0] if openers else None, *changes]
    ends: list[TrayCount | None] = [*changes, closers[-1] if closers else None]

    def shift_of(at: datetime) -> int:
        return bisect_right(boundaries, at)

    shifts = []
    for index, (start, end) in enumerate(zip(starts, ends)):
        money = _money((move for move in books.moves if shift_of(move.at) == index),
                       (buy_in for buy_in in books.buy_ins if shift_of(buy_in.at) == index),
                       (played for played in books.rounds if shift_of(played.at) == index))
        opener, closer = (start.total if start else None), (end.total if end else None)
        tray_result = _tray_result(money["credits"], money["fills"], closer, opener)
        variance = tray_result + money["buy_ins"] - money["game_win"] if tray_result is not None else None
        shifts.append({"shift": index + 1, "starts_at": start.at if start else None, "ends_at": end.at if end else None,
                       "opener": opener, "closer": closer, "fills": money["fills"], "credits": money["credits"],
                       "drop": None, "win": None, "hold_percent": None, "tray_result": tray_result,
                       "handle": money["handle"], "game_win": money["game_win"], "buy_ins": money["buy_ins"],
                       "variance": variance, "flagged": _flag(variance, True, threshold), "rounds": money["rounds"]})
    return shifts


def floor_figures(tables: list[dict[str, Any]], threshold: int) -> dict[str, Any]:
    """The floor's statement: each figure summed over the tables that have it (a table whose
    closer or count is missing adds nothing to the floor's closer, drop or win), hold % from those
    sums, and how many tables are flagged."""
    totals: dict[str, Any] = {}
    for name in SUMMED:
        known = [table[name] for table in tables if table[name] is not None]
        totals[name] = sum(known) if known else None
    totals["hold_percent"] = (percent_of(totals["win"], totals["drop"])
                              if totals["win"] is not None and totals["drop"] else None)
    totals["game_win_percent"] = percent_of(totals["game_win"] or 0, totals["handle"] or 0)
    totals["flagged_tables"] = sum(1 for table in tables if table["flagged"])
    totals["flagged"] = totals["flagged_tables"] > 0
    totals["variance_threshold"] = threshold
    return totals


# The figures a statement issued into the audit log carries for each table, which `audit verify`
# works out again from the chained slips and counts: the tray, the box and what follows from them.
CHECKED = ("opener", "closer", "fills", "credits", "drop", "win", "hold_percent", "buy_ins")


CSV_COLUMNS = ("gaming_day", "table_id", "shift", "opener", "closer", "fills", "credits", "drop", "drop_cash",
               "drop_markers", "win", "hold_percent", "handle", "game_win", "game_win_percent", "buy_ins",
               "tray_result", "variance", "flagged", "reasons")
FLOOR = "FLOOR"


def csv_lines(statement: dict[str, Any]) -> Iterator[str]:
    """The statement as CSV: a header, each table's gaming day (shift `day`) and then its shifts,
    and a FLOOR line; amounts in cents, an unknown figure empty, reasons joined by "; "."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)

    def line(values: Iterable[Any]) -> str:
        buffer.seek(0)
        buffer.truncate()
        writer.writerow(["" if value is None else value for value in values])
        return buffer.getvalue()

    day = statement["gaming_day"].isoformat()

    def row(table_id: str, shift: Any, figures: dict[str, Any]) -> str:
        values = {**figures, "gaming_day": day, "table_id": table_id, "shift": shift,
                  "flagged": "yes" if figures.get("flagged") else "no",
                  "reasons": "; ".join(figures.get("reasons", []))}
        return line(values.get(column) for column in CSV_COLUMNS)

    yield line(CSV_COLUMNS)
    for table in statement["tables"]:
        yield row(table["table_id"], "day", table)
        for shift in table["shifts"]:
            yield row(table["table_id"], shift["shift"], shift)
    yield row(FLOOR, "day", statement["floor"])
