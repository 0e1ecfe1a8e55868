"""The floor as the pit sees it: every table, its shoe, its round in play and the gaming day's money."""
from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from ...catalog import resolve
from ...config import Settings
from ...games import FAMILIES, View, family_named
from ...reports.gaming_day import gaming_day_of, parse_day_start, period
from ...reports.tables import percent_of
from ...rounds import views
from ...rounds.state import CorruptRound, rebuild
from ...rules import Ref
from ...screens.calls import open_calls
from ...store.repositories.floor import FloorDay, FloorRound, FloorTableRow
from ...store.repositories.rounds import RoundRow, RoundStatus
from ...store.repositories.tables import TableRow
from ...store.uow import UnitOfWork
from ...web.format import hand_number, recipient


@dataclass(frozen=True, slots=True)
class RoundInPlay:
    """What the pit needs to know of an open round: where it stands and whom it waits for."""

    round_id: uuid.UUID
    opened_at: datetime
    phase: str | None
    awaiting: str | None            # card | decision
    card_to: str | None             # who the next card goes to
    in_turn: dict[str, Any] | None  # {"seat", "hand", "legal_actions"}
    decisions: tuple[str, ...] = ()  # the decisions the rules allow now, by name
    fault: str | None = None        # the round's events no longer replay: a defect to report

    @property
    def awaited(self) -> str:
        """What the round waits for, in the pit's words."""
        if self.fault is not None:
            return "does not replay"
        if self.awaiting == "decision" and self.in_turn is not None:
            seat, hand = self.in_turn["seat"], hand_number(self.in_turn["hand"])
            # Seat 0 is the player-banked game's banker, who has one hand.
            who = "the banker" if seat == 0 and hand is None else f"seat {seat}" + (f", hand {hand}" if hand else "")
            return (f"decision: {who}"
                    + (f" ({', '.join(self.decisions)})" if self.decisions else ""))
        if self.awaiting == "card":
            return f"card to {recipient(self.card_to)}" if self.card_to else "card"
        return self.awaiting or "nothing"


@dataclass(frozen=True, slots=True)
class DayFigures:
    """A table's gaming day so far (or the floor's). At a house-banked table its rounds' handle,
    game win and game win % of handle; at a player-banked one the house neither stakes nor wins: the
    players' stakes and buys, their shoot bets and the banker's result instead. The floor's totals
    keep the two apart."""

    rounds: int
    voided_rounds: int
    unsettled_rounds: int
    handle: int
    game_win: int
    game_win_percent: float | None
    house_banked: bool = True
    stakes: int = 0                 # player-banked: the players' stakes, buys included
    buys: int = 0
    shoot_bets: int = 0
    banker_net: int = 0

    @classmethod
    def of(cls, day: FloorDay, house_banked: bool = True) -> DayFigures:
        """Game win and its percentage of handle as the table report works them out (rounded as a
        regulator's figures are); a player-banked table has none: its ledger rows are money between
        the players."""
        if not house_banked:
            return cls(day.rounds, day.voided_rounds, day.unsettled_rounds, 0, 0, None, False, day.stakes, day.buys,
                       day.shoot_bets, day.banker_net)
        game_win = day.handle - day.paid_out
        return cls(day.rounds, day.voided_rounds, day.unsettled_rounds, day.handle, game_win,
                   percent_of(game_win, day.handle))

    @classmethod
    def total(cls, tables: list[DayFigures]) -> DayFigures:
        """The tables' figures added up: house-banked and player-banked tables are never added
        together (the callers keep them apart)."""
        handle, game_win = sum(t.handle for t in tables), sum(t.game_win for t in tables)
        return cls(sum(t.rounds for t in tables), sum(t.voided_rounds for t in tables),
                   sum(t.unsettled_rounds for t in tables), handle, game_win, percent_of(game_win, handle),
                   all(t.house_banked for t in tables), sum(t.stakes for t in tables), sum(t.buys for t in tables),
                   sum(t.shoot_bets for t in tables), sum(t.banker_net for t in tables))


@dataclass(frozen=True, slots=True)
class FloorTable:
    table_id: str
    game: str
    game_name: str
    rules: str                      # name@version
    paytable: str | None            # name@version in force
    pending_paytable: str | None    # name@version waiting for the next round
    shoe_mode: str | None
    cards_dealt: int | None
    game_fields: View               # the game's own part of the row (who holds the bank, the kitty)
    round: RoundInPlay | None
    today: DayFigures


@dataclass(frozen=True, slots=True)
class Floor:
    gaming_day: date
    tables: list[FloorTable]
    totals: DayFigures              # the house-banked tables': their handle and game win are the house's alone
    player_banked: DayFigures | None = None   # the player-banked tables' own figures, if there are any
    calls: list[dict[str, Any]] = field(default_factory=list)   # dealers' calls for a supervisor, oldest first


def current_gaming_day(settings: Settings, now: datetime | None = None) -> date:
    return gaming_day_of(now or datetime.now(UTC), parse_day_start(settings.gaming_day_starts),
                         ZoneInfo(settings.timezone))


def floor(uow: UnitOfWork, settings: Settings, *, table_id: str | None = None, now: datetime | None = None) -> Floor:
    """Every table (or the one named) with what the pit watches, in one statement whatever the
    number of tables; the rounds in play are replayed from the events read with them (the paytable
    versions they name are read once per process)."""
    day = current_gaming_day(settings, now)
    window = period("day", day, parse_day_start(settings.gaming_day_starts), ZoneInfo(settings.timezone))
    player_banked = tuple(game for game, family in FAMILIES.items() if not family.house_banked)
    tables = [_table(uow, row) for row in uow.floor.tables(window.starts_at, window.ends_at, table_id, player_banked)]
    players = [table.today for table in tables if not table.today.house_banked]
    return Floor(day, tables, DayFigures.total([table.today for table in tables if table.today.house_banked]),
                 DayFigures.total(players) if players else None, open_calls(uow) if table_id is None else [])


def _table(uow: UnitOfWork, row: FloorTableRow) -> FloorTable:
    table = row.table
    family = family_named(table.game)
    shoe = row.shoe
    return FloorTable(
        table_id=table.table_id, game=table.game, game_name=family.display_name,
        rules=str(Ref(table.rules, table.rules_version)),
        paytable=str(Ref(table.paytable, table.paytable_version or 1)) if table.paytable else None,
        pending_paytable=str(Ref(table.paytable, table.pending_paytable_version))
        if table.paytable and table.pending_paytable_version else None,
        shoe_mode=shoe.mode if shoe else None,
        # A pack whose used cards go back under it (the player-banked game's) counts nothing here:
        # its cards come round again (the game's own fields count them since the last shuffle).
        # A house-banked physical shoe's reported cards, or a virtual shoe's position, count what
        # has left it.
        cards_dealt=shoe.cards_dealt if shoe and family.house_banked and (
            shoe.mode != "virtual" or family.virtual_shoe_deals) else None,
        game_fields=family.floor_fields(row.state),
        round=_in_play(uow, table, row.open_round) if row.open_round else None,
        today=DayFigures.of(row.day, family.house_banked))


def _in_play(uow: UnitOfWork, table: TableRow, stored: FloorRound) -> RoundInPlay:
    """The round replayed from its events (the paytable versions are read once per process)."""
    row = RoundRow(stored.round_id, table.table_id, stored.shoe_id, stored.shoe_mode, RoundStatus.OPEN,
                   stored.rules_ref, stored.paytable_ref, stored.wagers, stored.version, None, stored.opened_at,
                   None, None, None)
    try:
        game_rules = resolve(uow.paytables, row.rules_ref, row.paytable_ref)
        game = rebuild(game_rules, row, stored.events, table.limits, stored.kitty_before)
    except CorruptRound as exc:
        # Shown on the floor as a fault for the pit to escalate; the round itself is untouched.
        return RoundInPlay(row.round_id, row.opened_at, None, None, None, None, fault=str(exc))
    state = views.round_state(row, game)
    # Insurance and the like are the seat's, not a hand's: listed from every decision open now, in
    # the order the table page lists them, so both screens read alike.
    decisions = tuple(dict.fromkeys(action["action"] for action in state["legal_actions"]))
    return RoundInPlay(row.round_id, row.opened_at, state["phase"], state["awaiting"], state["card_to"],
                       state["in_turn"], decisions)

