"""The table report: per table (or per table and gaming day) over a day, month to date or year to
date: rounds, handle, paid out, game win, game win % of handle, bonus and super bonus counts, from
the ledger.

A player-banked table is no house's game: the house neither stakes nor wins there, so its row has
no handle, paid out, game win, game win % or bonuses (null), and it stays out of the totals of
those. It has its own figures instead: the players' stakes (buys included) and buys, their shoot
bets, the bankers' net, the kitty before the period's first round and after its last, and how many
times a Pontoon passed the bank; `player_banked_totals` adds them up.

Money is the ledger's: handle is every stake of the settled rounds opened in the period, paid out
every return (super bonus and envy prizes included), game win is handle less paid out. A voided
round's refunds are stake handed back, neither won nor lost: they stay out of handle and paid out
and are shown beside them (void_refunds), so handle + void_refunds is every stake the ledger holds.
A round belongs to the gaming day it opened in; rounds not settled yet carry no money and are
counted.

Drop, win and hold are the trade's words for a table's books (its drop box, its chips), which the
table games statement (`table_games.py`) works out; the rounds' figures here are never called so."""
from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from datetime import date
from typing import Any
from zoneinfo import ZoneInfo

from ..store.repositories.reports import ReportsRepository
from .gaming_day import RANGE, Period, check_day_start, day_range, parse_day_start, period

# A ledger outcome naming a bonus line of the paytable grammar (5_card_21, 7_plus_card_21,
# 678_suited, 777_spades): a winning 21 paid better than even money.
BONUS_OUTCOME = r"^([0-9]_(plus_)?card_21|[A2-9TJQK]{2,7}_(mixed|suited|spades))$"
NO_ACTIVITY, ACTIVE = "no activity", "active"
MONEY_COLUMNS = ("rounds", "voided_rounds", "unsettled_rounds", "handle", "paid_out", "game_win", "bonuses",
                 "super_bonuses", "void_refunds")
HOUSE_COLUMNS = ("handle", "paid_out", "game_win", "game_win_percent", "bonuses", "super_bonuses")
PLAYER_BANKED_COLUMNS = ("stakes", "buys", "shoot_bets", "banker_net", "kitty_before", "kitty_after", "bank_passes")
PLAYER_BANKED_SUMS = ("rounds", "voided_rounds", "unsettled_rounds", "stakes", "buys", "shoot_bets", "banker_net",
                      "bank_passes")
CSV_COLUMNS = ("gaming_day", "table_id", "activity", "rounds", "voided_rounds", "unsettled_rounds", "handle",
               "paid_out", "game_win", "game_win_percent", "bonuses", "super_bonuses", "void_refunds", "game",
               *PLAYER_BANKED_COLUMNS)
TOTAL = "TOTAL"
PLAYER_BANKED_TOTAL = "TOTAL player-banked"

def table_report(reports: ReportsRepository, *, kind: str, day: date, day_start: str, zone: str,
                 by: str = "table", table_id: str | None = None, first_day: date | None = None,
                 player_banked: tuple[str, ...] = ()) -> dict[str, Any]:
    """The report for the gaming day `day` (day), from the 1st of its month or year to it, or
    (range) from `first_day` to it; tables of the `player_banked` games with their own figures."""
    check_day_start(parse_day_start(day_start), zone)
    if kind == RANGE:
        window = day_range(first_day or day, day, parse_day_start(day_start), ZoneInfo(zone))
    else:
        window = period(kind, day, parse_day_start(day_start), ZoneInfo(zone))
    rows = [_finish(row, player_banked) for row in reports.period_rows({
        "zone": zone, "day_start": parse_day_start(day_start).strftime("%H:%M"), "starts_at": window.starts_at,
        "ends_at": window.ends_at, "table_id": table_id, "bonus": BONUS_OUTCOME, "first_day": window.first_day,
        "last_day": window.last_day, "by_day": by == "day", "player_banked": list(player_banked)})]
    house = [row for row in rows if row["game"] not in player_banked]
    banked = [row for row in rows if row["game"] in player_banked]
    return {**_header(window, day_start, zone, by, table_id), "rows": rows, "totals": _totals(house),
            "player_banked_totals": _player_banked_totals(banked)}


def _header(window: Period, day_start: str, zone: str, by: str, table_id: str | None) -> dict[str, Any]:
    return {"period": window.kind, "gaming_day": window.last_day, "first_gaming_day": window.first_day,
            "starts_at": window.starts_at, "ends_at": window.ends_at, "timezone": zone,
            "gaming_day_starts": day_start, "by": by, "table_id": table_id, "money_unit": "cents"}


def percent_of(part: int, whole: int) -> float | None:
    """`part` as a percentage of `whole` (game win of handle, win of drop) to two places, halves
    rounded away from zero as a regulator's figures are, and worked out in whole numbers: a float's
    own rounding would put 1 in 800 at 0.12 rather than 0.13. None without a whole."""
    if not whole:
        return None
    hundredths, remainder = divmod(abs(part) * 10_000, whole)
    if 2 * remainder >= whole:
        hundredths += 1
    return (hundredths if part >= 0 else -hundredths) / 100


def _finish(row: dict[str, Any], player_banked: tuple[str, ...]) -> dict[str, Any]:
    played = row["rounds"] + row["voided_rounds"] + row["unsettled_rounds"]
    row["activity"] = ACTIVE if played else NO_ACTIVITY
    if row["game"] in player_banked:
        # The ledger's rows are money between the players and the banker: none is the house's.
        row.update(dict.fromkeys(HOUSE_COLUMNS))
        if not row["kitty_before"] and not row["kitty_after"]:   # no kitty: not Shoot Pontoon
            row["kitty_before"] = row["kitty_after"] = None
        return row
    row["game_win"] = row["handle"] - row["paid_out"]
    row["game_win_percent"] = percent_of(row["game_win"], row["handle"])
    row.update(dict.fromkeys(PLAYER_BANKED_COLUMNS))
    return row


def _totals(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The house-banked tables' figures added up (a player-banked table's are never among them)."""
    totals = {column: sum(row[column] for row in rows) for column in MONEY_COLUMNS}
    totals["game_win_percent"] = percent_of(totals["game_win"], totals["handle"])
    totals["activity"] = ACTIVE if any(row["activity"] == ACTIVE for row in rows) else NO_ACTIVITY
    return totals


def _player_banked_totals(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The player-banked tables' own figures added up; None when the report has none of them."""
    if not rows:
        return None
    totals: dict[str, Any] = {column: sum(row[column] for row in rows) for column in PLAYER_BANKED_SUMS}
    totals["activity"] = ACTIVE if any(row["activity"] == ACTIVE for row in rows) else NO_ACTIVITY
    return totals


def csv_lines(report: dict[str, Any]) -> Iterator[str]:
    """The report's rows as CSV (a header, one line per row, the player-banked tables' total line
    if there are any, and the house-banked tables' TOTAL line last); amounts in cents."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)

    def line(values) -> str:
        buffer.seek(0)
        buffer.truncate()
        writer.writerow(["" if value is None else value for value in values])
        return buffer.getvalue()

    first, last = report["first_gaming_day"], report["gaming_day"]
    # By table, a row covers the whole period: an ISO 8601 interval of gaming days.
    whole_period = last.isoformat() if first == last else f"{first.isoformat()}/{last.isoformat()}"
    yield line(CSV_COLUMNS)
    for row in report["rows"]:
        yield line([row["gaming_day"].isoformat() if row["gaming_day"] else whole_period]
                   + [row[column] for column in CSV_COLUMNS[1:]])
    if report.get("player_banked_totals"):   # the player-banked tables' own, on a line of their own
        banked = {**report["player_banked_totals"], "table_id": PLAYER_BANKED_TOTAL}
        yield line([whole_period] + [banked.get(column) for column in CSV_COLUMNS[1:]])
    totals = {**report["totals"], "table_id": TOTAL}   # the house's, last
    yield line([whole_period] + [totals.get(column) for column in CSV_COLUMNS[1:]])
