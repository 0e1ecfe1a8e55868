"""Checks the tables' books against their chains: each issued table games statement follows from the
slips, buy-ins and drop counts chained before it on its table's chain (worked out again as the
statement works them out), every slip's total is its chips', every signature is on a slip a record
wrote, and every slip, signature, buy-in and final count the database holds was chained as it is."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..reports.table_games import CHECKED, BuyIn, ChipMove, Drop, TableBooks, TrayCount, day_figures
from ..store.repositories.accounting import AccountingRepository
from .report import Problem, Report

TRAY_KINDS = ("opener", "shift_change", "closer")
# The records the books are rebuilt from.
BOOK_KINDS = frozenset({"slip_written", "slip_signed", "buy_in_recorded", "drop_count_final",
                        "table_statement_issued"})


def _where(record: dict[str, Any]) -> str:
    return f"chain {record['chain']} seq {record['seq']} id {record.get('id')}"


def _at(record: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(str(record["at"]))


@dataclass
class ChainedSlip:
    serial: str
    table_id: str | None
    kind: str
    gaming_day: str
    total: int
    chips: dict[str, int]
    written_at: datetime
    acts: dict[tuple[str, str], str] = field(default_factory=dict)   # (act, capacity) -> actor
    issued_at: datetime | None = None

    @property
    def voided(self) -> bool:
        return any(act == "voided" for act, _ in self.acts)


@dataclass
class BooksWalker:
    """The books as the chains tell them, record by record in each chain's order."""
    report: Report
    slips: dict[str, ChainedSlip] = field(default_factory=dict)
    buy_ins: dict[str, dict[str, Any]] = field(default_factory=dict)                 # buy_in_id -> its record
    finals: dict[tuple[str | None, str], dict[str, Any]] = field(default_factory=dict)   # (table, day) -> payload
    partial: set[str] = field(default_factory=set)                                   # chains seen from mid-way
    started: set[str] = field(default_factory=set)
    statements: int = 0

    def check(self, record: dict[str, Any]) -> None:
        chain = record["chain"]
        if chain not in self.started:
            self.started.add(chain)
            if record["seq"] != 1:
                self.partial.add(chain)
        kind = record["kind"]
        if kind not in BOOK_KINDS:
            return
        payload = record["payload"] if isinstance(record["payload"], dict) else {}
        getattr(self, f"_{kind}")(record, payload)

    def _slip_written(self, record: dict[str, Any], payload: dict[str, Any]) -> None:
        chips = {str(key): int(value) for key, value in (payload.get("chips") or {}).items()}
        slip = ChainedSlip(str(payload.get("serial")), record["table_id"], str(payload.get("slip_kind")),
                           str(payload.get("gaming_day")), int(payload.get("total") or 0), chips, _at(record))
        if sum(int(denomination) * count for denomination, count in chips.items()) != slip.total:
            self.report.problems.append(Problem(_where(record), f"slip {slip.serial}: its total {slip.total} is not "
                                                                "the value of its chips"))
        self.slips[slip.serial] = slip

    def _slip_signed(self, record: dict[str, Any], payload: dict[str, Any]) -> None:
        serial = str(payload.get("serial"))
        slip = self.slips.get(serial)
        if slip is None:
            if record["chain"] not in self.partial:
                self.report.problems.append(Problem(_where(record), f"a signature on slip {serial}, which no "
                                                                    "chained record wrote"))
            return
        act = str(payload.get("act"))
        slip.acts[(act, str(payload.get("capacity")))] = str(record["actor"])
        if act == "issued":
            slip.issued_at = _at(record)

    def _buy_in_recorded(self, record: dict[str, Any], payload: dict[str, Any]) -> None:
        self.buy_ins[str(payload.get("buy_in_id"))] = {**payload, "table_id": record["table_id"], "at": _at(record)}

    def _drop_count_final(self, record: dict[str, Any], payload: dict[str, Any]) -> None:
        self.finals[(record["table_id"], str(payload.get("gaming_day")))] = payload

    def books_of(self, table_id: str | None, day: str) -> TableBooks:
        """The table's books for the gaming day as the records chained so far give them."""
        live = [slip for slip in self.slips.values()
                if slip.table_id == table_id and slip.gaming_day == day and not slip.voided]
        trays = tuple(TrayCount(slip.serial, slip.kind, slip.total, slip.written_at)
                      for slip in live if slip.kind in TRAY_KINDS)
        moves = tuple(ChipMove(slip.serial, slip.kind, slip.total, slip.issued_at)
                      for slip in live if slip.kind not in TRAY_KINDS and slip.issued_at is not None)
        buy_ins = tuple(BuyIn(int(b.get("amount") or 0), str(b.get("method")), b["at"]) for b in self.buy_ins.values()
                        if b["table_id"] == table_id and b.get("gaming_day") == day)
        final = self.finals.get((table_id, day))
        drop = Drop(int(final.get("cash") or 0), int(final.get("markers") or 0)) if final else None
        return TableBooks(str(table_id), None, trays, moves, buy_ins, drop)

    def _table_statement_issued(self, record: dict[str, Any], payload: dict[str, Any]) -> None:
        day = str(payload.get("gaming_day"))
        if record["chain"] in self.partial:
            self.report.notes.append(f"{_where(record)}: the statement of gaming day {day} is not checked (a "
                                     "partial export: the slips before it are not here)")
            return
        self.statements += 1
        worked = day_figures(self.books_of(record["table_id"], day), 0)
        differ = [f"{name} {payload.get(name)!r} where its slips and counts give {worked[name]!r}"
                  for name in CHECKED if payload.get(name) != worked[name]]
        if differ:
            self.report.problems.append(Problem(_where(record), f"table {record['table_id']}'s statement of gaming "
                                                                f"day {day} says " + "; ".join(differ)))


def check_stored_books(accounting: AccountingRepository, walker: BooksWalker, report: Report) -> None:
    """The database's slips, signatures, buy-ins and final counts against what the chains say."""
    for slip in accounting.slips():
        row, where = slip.row, f"slip {slip.row.serial}"
        chained = walker.slips.get(row.serial)
        if chained is None:
            report.problems.append(Problem(where, "exists, but no chained record wrote it"))
            continue
        stored = (row.table_id, row.kind, row.gaming_day.isoformat(), row.total,
                  {str(key): int(value) for key, value in row.chips.items()})
        if stored != (chained.table_id, chained.kind, chained.gaming_day, chained.total, chained.chips):
            report.problems.append(Problem(where, f"holds {stored[1]} of {stored[3]} at table {stored[0]} on "
                                                  f"{stored[2]}, but was chained as {chained.kind} of "
                                                  f"{chained.total} at table {chained.table_id} on "
                                                  f"{chained.gaming_day}"))
        for signature in slip.signatures:
            actor = chained.acts.get((signature.act, signature.capacity))
            if actor != signature.actor:
                report.problems.append(Problem(where, f"{signature.act} by the {signature.capacity} "
                                                      f"({signature.actor}), which no chained record signed"))
        stored_acts = {(signature.act, signature.capacity) for signature in slip.signatures}
        for act, capacity in sorted(set(chained.acts) - stored_acts):
            report.problems.append(Problem(where, f"was chained as {act} by the {capacity}, which the database "
                                                  "no longer holds"))
    for bought in accounting.buy_ins():
        chained_buy_in = walker.buy_ins.get(str(bought.buy_in_id))
        stored_buy_in = (bought.table_id, bought.gaming_day.isoformat(), bought.seat, bought.amount, bought.method)
        if chained_buy_in is None or stored_buy_in != (
                chained_buy_in["table_id"], chained_buy_in.get("gaming_day"), chained_buy_in.get("seat"),
                chained_buy_in.get("amount"), chained_buy_in.get("method")):
            report.problems.append(Problem(f"buy-in {bought.buy_in_id}", f"seat {bought.seat} {bought.amount} in "
                                                                         f"{bought.method} at table {bought.table_id}"
                                                                         ", which no chained record holds so"))
    for final in accounting.final_counts():
        chained_final = walker.finals.get((final.table_id, final.gaming_day.isoformat()))
        if chained_final is None or (chained_final.get("cash"), chained_final.get("markers")) != (final.cash,
                                                                                                 final.markers):
            report.problems.append(Problem(f"drop count of table {final.table_id} on {final.gaming_day}",
                                           f"final at {final.cash} cash and {final.markers} markers, which no "
                                           "chained record holds so"))

