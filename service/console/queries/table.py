"""One table as the pit sees it: the round in play as it stands, the last rounds, the shoe, the paytable."""
from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from ...compliance.recall import recall
from ...config import Settings
from ...games import family_named
from ...operators import paytables, table_rules
from ...refusals import NotFound
from ...rounds import queries as rounds
from ...rounds.state import CorruptRound
from ...screens.calls import open_calls
from ...store.repositories.paytables import VersionStatus
from ...store.repositories.rounds import RoundStatus
from ...store.uow import UnitOfWork
from .floor import FloorTable, floor

LAST_ROUNDS = 10


@dataclass(frozen=True, slots=True)
class RoundShown:
    """The round in play: the REST round state (the game's hands; what is awaited and the
    decisions open), its game, and the cards and decisions so far in the order they came."""

    state: dict[str, Any]
    game: str                       # tables.game: whose partial shows its hands
    cards: list[str]
    decisions: list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class PaytableChoice:
    """The table's paytable: the version in force, the one waiting for the next round, and the
    approved versions an operator may assign."""

    name: str
    version: int
    pending_version: int | None
    approved: list[dict[str, Any]]
    assignments: list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class TablePage:
    gaming_day: date
    summary: FloorTable
    table: dict[str, Any]               # the REST table view: limits, current shoe and its commitment, bank
    round: RoundShown | None
    last_rounds: list[dict[str, Any]]   # recalled, newest first, the round in play left out
    paytable: PaytableChoice | None
    fault: str | None = None            # why the last rounds could not be recalled
    rules: dict[str, Any] | None = None   # the rules in force, the change waiting, every change
    calls: list[dict[str, Any]] = field(default_factory=list)   # dealers' calls for a supervisor, still open


def table_page(uow: UnitOfWork, settings: Settings, table_id: str, *, with_paytable: bool = True) -> TablePage:
    """NotFound for a table that does not exist. `with_paytable`: the paytable versions too (the
    page's live part, refreshed every few seconds, leaves them out)."""
    shown = floor(uow, settings, table_id=table_id)
    if not shown.tables:
        raise NotFound(f"no table {table_id!r}")
    summary = shown.tables[0]
    table = rounds.table(uow, table_id)
    in_play = None
    if summary.round is not None and summary.round.fault is None:
        transcript = rounds.round_transcript(uow, summary.round.round_id)
        in_play = RoundShown(rounds.round_state(uow, summary.round.round_id), summary.game,
                             list(transcript["cards"]), list(transcript["actions"]))
    last, fault = [], None
    try:
        recalled = recall(uow, table_id, LAST_ROUNDS + 1)["rounds"]
    except CorruptRound as exc:
        # A stored round the engine no longer replays is a defect for the pit to escalate: the
        # page says so where the last rounds would be, and everything else on it still shows.
        fault = str(exc)
    else:
        last = [{**r, "hands": family_named(r["game"]).hands_shown(r)} for r in reversed(recalled)
                if r["status"] != RoundStatus.OPEN][:LAST_ROUNDS]
    return TablePage(shown.gaming_day, summary, table, in_play, last,
                     _paytable(uow, table_id) if with_paytable and summary.paytable else None, fault,
                     table_rules.table_rules(uow, table_id) if with_paytable else None, open_calls(uow, table_id))


def _paytable(uow: UnitOfWork, table_id: str) -> PaytableChoice:
    current = paytables.table_paytable(uow, table_id)
    versions = paytables.list_versions(uow, current["paytable"])["versions"]
    return PaytableChoice(current["paytable"], current["version"], current["pending_version"],
                          [v for v in versions if v["status"] == VersionStatus.APPROVED], current["assignments"])


def round_on_table(uow: UnitOfWork, table_id: str, round_id: uuid.UUID) -> RoundShown:
    """A round of this table as it stands (NotFound for a round of another table: a page names
    both, and a void must reach only the round the supervisor was looking at)."""
    state = rounds.round_state(uow, round_id)
    if state["table_id"] != table_id:
        raise NotFound(f"no round {round_id} at table {table_id!r}")
    transcript = rounds.round_transcript(uow, round_id)
    return RoundShown(state, rounds.table(uow, table_id)["game"], list(transcript["cards"]),
                      list(transcript["actions"]))


def stakes_on_table(state: dict[str, Any]) -> list[tuple[int, int]]:
    """(seat, cents) staked so far by each seat of a house-banked round: what a void hands back.
    The player-banked game moves no money before settlement, so it has none."""
    out = []
    for seat in state.get("seats") or ():
        side_bets = sum((seat.get("side_bets") or {}).values()) + (seat.get("insurance") or 0)
        staked = sum(hand["stake"] for hand in seat["hands"]) + side_bets
        out.append((seat["seat"], staked))
    return out


def ledger_lines(uow: UnitOfWork, round_id: uuid.UUID) -> list[dict[str, Any]]:
    """Every ledger entry of the round (a voided round's are its refunds)."""
    return [{"seat": bet.seat, "hand": None if bet.hand < 0 else bet.hand, "kind": bet.kind, "stake": bet.stake,
             "returned": bet.returned, "outcome": bet.outcome}
            for bet in uow.ledger.bets_of([round_id])]
