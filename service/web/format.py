"""The browser pages' Jinja filters (the console's and the dealer's screen's): money in dollars and cents,
percentages, local times with their gaming day, cards, and seats' hands counted from 1 as the pit counts them."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime
from enum import StrEnum
from zoneinfo import ZoneInfo

from flask import Flask, current_app

from ..config import Settings
from ..engine.cards import CardError, parse_card
from ..reports.gaming_day import gaming_day_of, parse_day_start

DASH = "\u2014"   # what a figure that does not exist (a percentage of nothing) shows


class Colour(StrEnum):
    RED = "red"
    BLACK = "black"


@dataclass(frozen=True, slots=True)
class ShownCard:
    """A card as the pit reads it: its rank ("10" for a ten), its suit's symbol and colour."""

    token: str
    rank: str
    suit: str
    symbol: str
    colour: Colour
    name: str               # for a screen reader: "ten of hearts"


_SUITS = {"S": ("\u2660", Colour.BLACK, "spades"), "H": ("\u2665", Colour.RED, "hearts"),
          "D": ("\u2666", Colour.RED, "diamonds"), "C": ("\u2663", Colour.BLACK, "clubs")}
_RANK_NAMES = {"A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
               "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king"}


def money(cents: int | None) -> str:
    """Integer cents as dollars: 123456 -> "$1,234.56", -50 -> "-$0.50"; None -> a dash."""
    if cents is None:
        return DASH
    dollars, rest = divmod(abs(int(cents)), 100)
    return f"{'-' if cents < 0 else ''}${dollars:,}.{rest:02d}"


def percent(value: float | None) -> str:
    """A percentage (game win of handle, hold) to two places (the report's own rounding); a dash
    without one (no handle, no drop)."""
    return DASH if value is None else f"{value:.2f}%"


def card(token: str) -> ShownCard:
    """A stored card token ("7H", "TD", "10D") as a playing card; a token naming no card is shown
    as it is, in black, so a defect in the data is seen rather than hidden."""
    try:
        rank, suit = parse_card(token)
    except CardError:
        return ShownCard(str(token), str(token), "", "", Colour.BLACK, str(token))
    symbol, colour, suit_name = _SUITS[suit]
    return ShownCard(token, "10" if rank == "T" else rank, suit, symbol, colour, f"{_RANK_NAMES[rank]} of {suit_name}")


def _settings() -> Settings:
    settings: Settings = current_app.extensions["pontoon.settings"]
    return settings


def _aware(moment: datetime) -> datetime:
    # The database gives aware instants; a naive one can only be UTC (datetime.now(UTC) stripped).
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def local_time(moment: datetime | None, with_date: bool = True) -> str:
    """An instant in the casino's time zone: "Fri 27 Nov 2026 21:04:05 AEDT" (or the time alone)."""
    if moment is None:
        return DASH
    local = _aware(moment).astimezone(ZoneInfo(_settings().timezone))
    return local.strftime("%a %d %b %Y %H:%M:%S %Z" if with_date else "%H:%M:%S %Z")


def gaming_day(moment: datetime | None = None) -> date:
    """The gaming day an instant belongs to (now, without one), by the casino's day start."""
    settings = _settings()
    return gaming_day_of(_aware(moment or datetime.now(UTC)), parse_day_start(settings.gaming_day_starts),
                         ZoneInfo(settings.timezone))


def day_name(day: date | None) -> str:
    """A gaming day as the pit names it: "Fri 27 Nov 2026"."""
    return DASH if day is None else day.strftime("%a %d %b %Y")


def when(moment: datetime | None) -> str:
    """An instant local, with the gaming day it counts in named: a round at 02:00 on Saturday
    belongs to Friday's gaming day when the day starts at 06:00."""
    if moment is None:
        return DASH
    return f"{local_time(moment)} (gaming day {day_name(gaming_day(moment))})"


def counted(number: int, noun: str) -> str:
    """"1 round", "3 rounds": a count as a person writes it."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


# The engine names who gets a card "seat 2 hand 0": its hands, like the REST API's, count from 0.
_SEAT_HAND = re.compile(r"\bseat (\d+) hand (\d+)\b")


def hand_number(index: int | None) -> int | None:
    """A hand's index as the API gives it (0 for a seat's first hand) as the pit counts it (1)."""
    return None if index is None else int(index) + 1


def recipient(name: str | None) -> str:
    """Who gets a card, in the pit's words: "seat 2 hand 0" -> "seat 2, hand 1"; "dealer" as it is."""
    if not name:
        return DASH
    return _SEAT_HAND.sub(lambda m: f"seat {m[1]}, hand {int(m[2]) + 1}", name)


# A paytable's lines as the pit calls them; the page shows the YAML key beside each for the
# operator who edits it. A key not listed reads as its words.
LINE_NAMES = {
    "pontoon": "Pontoon (a two-card 21)", "win": "a winning hand", "doubled_win": "a winning doubled hand",
    "5_card_21": "five-card 21", "6_card_21": "six-card 21", "7_plus_card_21": "21 in seven or more cards",
    "678_mixed": "6-7-8 mixed suits", "678_suited": "6-7-8 one suit, not spades", "678_spades": "6-7-8 in spades",
    "777_mixed": "7-7-7 mixed suits", "777_suited": "7-7-7 one suit, not spades", "777_spades": "7-7-7 in spades",
    "super_bonus": "super bonus", "envy": "envy bonus (the other seats)", "pair": "pair",
    "21+3": "21+3", "insurance": "insurance", "suited_three_of_a_kind": "suited three of a kind",
    "straight_flush": "straight flush", "three_of_a_kind": "three of a kind", "straight": "straight",
    "flush": "flush",
}


def line_name(key: str) -> str:
    """A paytable line's key as the trade names it: "678_mixed" -> "6-7-8 mixed suits"."""
    return LINE_NAMES.get(str(key), str(key).replace("_", " "))


def as_written(record: object) -> str:
    """A record's content as JSON with its text as it was written ("Cléo", not "Cl\\u00e9o"); the
    page escapes it as it escapes any text."""
    return json.dumps(record, ensure_ascii=False, indent=2, default=str)


def casino_timezone() -> str:
    """The casino's time zone, as configured (PONTOON_TZ)."""
    return _settings().timezone


def install(app: Flask) -> None:
    """Register the filters (and the current gaming day and time zone as template globals)."""
    for name, function in (("money", money), ("percent", percent), ("card", card), ("local_time", local_time),
                           ("gaming_day", gaming_day), ("day_name", day_name), ("when", when),
                           ("counted", counted), ("hand_no", hand_number), ("recipient", recipient),
                           ("as_written", as_written), ("line_name", line_name)):
        app.add_template_filter(function, name)
    app.add_template_global(gaming_day, "current_gaming_day")
    app.add_template_global(casino_timezone, "casino_timezone")
