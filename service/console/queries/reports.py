"""The reports page: the REST table report for a period (service/web/reports.py), and its daily game
win and game win % of handle drawn as a chart."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from typing import Any

from ...config import Settings
from ...reports.tables import percent_of
from ...store.uow import UnitOfWork
from ...web.format import money
from ...web.reports import ReportQuery, period_report

# The chart's drawing area in SVG user units (the template scales it to the page's width).
WIDTH, HEIGHT = 760, 260
LEFT, RIGHT, TOP, BOTTOM = 84, 64, 16, 30


@dataclass(frozen=True, slots=True)
class DayPoint:
    day: date
    handle: int
    game_win: int
    game_win_percent: float | None


@dataclass(frozen=True, slots=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    loss: bool              # the house's rounds lost that day
    point: DayPoint


@dataclass(frozen=True, slots=True)
class Tick:
    at: float               # x or y in user units
    label: str


@dataclass(frozen=True, slots=True)
class Chart:
    """Daily game win as bars against the left axis (dollars), game win % of handle as a line
    against the right (%)."""

    width: int
    height: int
    plot_left: int
    plot_right: int
    plot_top: int
    plot_bottom: int
    zero_y: float
    bars: list[Bar]
    percent_lines: list[str]     # polyline point lists; a day without handle breaks the line
    percent_dots: list[tuple[float, float, DayPoint]]
    game_win_ticks: list[Tick]
    percent_ticks: list[Tick]
    day_ticks: list[Tick]
    game_win_range: tuple[int, int]   # cents at the bottom and the top of the plot


def daily(report_by_day: dict[str, Any]) -> list[DayPoint]:
    """The house-banked tables' rows of a by-day report summed per gaming day, every day of the period."""
    handle: dict[date, int] = defaultdict(int)
    game_win: dict[date, int] = defaultdict(int)
    for row in report_by_day["rows"]:
        if row["handle"] is None:   # a player-banked table: the house neither stakes nor wins there
            handle.setdefault(row["gaming_day"], 0)
            continue
        handle[row["gaming_day"]] += row["handle"]
        game_win[row["gaming_day"]] += row["game_win"]
    days = sorted(set(handle))
    return [DayPoint(day, handle[day], game_win[day], percent_of(game_win[day], handle[day])) for day in days]


def _span(low: float, high: float) -> tuple[float, float]:
    """An axis range holding zero and the figures, never empty."""
    low, high = min(low, 0), max(high, 0)
    return (low, high) if high > low else (low, low + 1)


def chart(points: list[DayPoint]) -> Chart:
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    win_low, win_high = _span(min((p.game_win for p in points), default=0),
                              max((p.game_win for p in points), default=0))
    percents = [p.game_win_percent for p in points if p.game_win_percent is not None]
    percent_low, percent_high = _span(min(percents, default=0.0), max(percents, default=0.0))

    def win_y(cents: float) -> float:
        return TOP + (win_high - cents) / (win_high - win_low) * plot_h

    def percent_y(percent: float) -> float:
        return TOP + (percent_high - percent) / (percent_high - percent_low) * plot_h

    slot = plot_w / max(len(points), 1)
    zero = win_y(0)
    bars: list[Bar] = []
    lines: list[str] = []
    dots: list[tuple[float, float, DayPoint]] = []
    line: list[str] = []
    for index, point in enumerate(points):
        x = LEFT + index * slot
        top = win_y(max(point.game_win, 0))
        bars.append(Bar(round(x + slot * 0.15, 1), round(top, 1), round(slot * 0.7, 1),
                        round(abs(win_y(point.game_win) - zero), 1), point.game_win < 0, point))
        if point.game_win_percent is None:
            if line:
                lines.append(" ".join(line))
            line = []
            continue
        centre, y = round(x + slot / 2, 1), round(percent_y(point.game_win_percent), 1)
        line.append(f"{centre},{y}")
        dots.append((centre, y, point))
    if line:
        lines.append(" ".join(line))
    every = max(1, round(len(points) / 12))
    day_ticks = [Tick(round(LEFT + (i + 0.5) * slot, 1), p.day.strftime("%d %b"))
                 for i, p in enumerate(points) if i % every == 0]
    win_ticks = [Tick(round(win_y(value), 1), money(int(value))) for value in sorted({win_low, 0, win_high})]
    percent_ticks = [Tick(round(percent_y(value), 1), f"{value:.1f}%")
                     for value in sorted({percent_low, 0.0, percent_high})]
    return Chart(WIDTH, HEIGHT, LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM, round(zero, 1), bars, lines, dots,
                 win_ticks, percent_ticks, day_ticks, (int(win_low), int(win_high)))


@dataclass(frozen=True, slots=True)
class ReportPage:
    report: dict[str, Any]      # the REST report: header, rows, totals
    days: list[DayPoint]
    chart: Chart


def report_page(uow: UnitOfWork, settings: Settings, query: ReportQuery) -> ReportPage:
    """The report as the REST API gives it, and the period's daily game win and its percentage of
    handle (one more statement, unless the report is by day already); NotFound for a table that
    does not exist."""
    report = period_report(uow, settings, query)
    if query.by == "day":
        points = daily(report)
    elif report["first_gaming_day"] == report["gaming_day"]:   # one gaming day: its totals are the day
        totals = report["totals"]
        points = [DayPoint(report["gaming_day"], totals["handle"], totals["game_win"], totals["game_win_percent"])]
    else:
        points = daily(period_report(uow, settings, query, by="day"))
    return ReportPage(report, points, chart(points))
