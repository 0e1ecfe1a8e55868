"""Rebuilds each round from its chained records; names what round_events, the ledger or payouts say otherwise."""
from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..compliance.void import REFUND_KIND
from ..engine.transcript import TranscriptError
from ..ledger.transcripts import PaytableSource
from ..rules import Ref, RulesError, load_paytable, parse_paytable
from ..settlement.settle import plan_settlement
from ..store.repositories.audit import RoundFacts, UnboundMoneyRecord
from ..store.repositories.ledger import NO_HAND
from ..store.repositories.rounds import RoundStatus
from ..store.repositories.settlement import CompletedRound
from .report import Problem, Report

# The chained records a round's events are copies of, and the event kind each becomes.
EVENT_OF_RECORD = {"card_dealt": "card", "decision": "action"}
# Records of money paid out: each stands for ledger rows settlement wrote with it.
MONEY_KINDS = ("payout", "super_bonus_won")
# The records that carry a paytable version's whole document (as `after`): version 1 as seeded
# from its file, every later one as submitted.
_DOCUMENT_KINDS = frozenset({"paytable_version_seeded", "paytable_version_submitted"})
# What an export's round is rebuilt from, offline.
_ROUND_KINDS = frozenset({"round_opened", "wager", "round_completed", "round_voided", *EVENT_OF_RECORD, *MONEY_KINDS})


@dataclass(frozen=True, slots=True)
class Chained:
    """One of a round's records in the audit log (its hash checked by the chain walk)."""
    id: int | None
    chain: str
    seq: int
    kind: str
    payload: dict[str, Any]

    @property
    def where(self) -> str:
        return f"chain {self.chain} seq {self.seq} id {self.id}"


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One of a round's round_events rows."""
    seq: int
    kind: str
    payload: dict[str, Any]


@dataclass(frozen=True, slots=True)
class StoredBet:
    """One of a round's ledger rows (hand NO_HAND: a seat-level bet)."""
    seat: int
    hand: int
    kind: str
    stake: int
    returned: int
    outcome: str


@dataclass(frozen=True, slots=True)
class StoredRound:
    """A round as the database holds it, beside what the audit log chained about it."""
    round_id: str
    table_id: str
    status: RoundStatus
    shoe_id: str | None
    rules_ref: str
    paytable_ref: str | None
    wagers: list[dict]
    result: dict | None
    events: list[StoredEvent]   # from round_events, in seq order
    records: list[Chained]      # its chained records, in chain order
    ledger: list[StoredBet]
    kitty: int | None
    limits: dict | None

    @classmethod
    def from_facts(cls, facts: RoundFacts) -> StoredRound:
        return cls(facts.round_id, facts.table_id, RoundStatus(facts.status), facts.shoe_id, facts.rules_ref,
                   facts.paytable_ref, facts.wagers, facts.result, [StoredEvent(**event) for event in facts.events],
                   [Chained(**record) for record in facts.records], [StoredBet(**bet) for bet in facts.ledger],
                   facts.kitty, facts.limits)

    def chained(self, kind: str) -> list[Chained]:
        return [record for record in self.records if record.kind == kind]


# What a card_dealt or decision record says beside its event: the shoe (which the round's row holds
# once for all its cards) and the dealer's screen it came from.
RECORD_ONLY = {"card_dealt": frozenset({"shoe_id", "screen"}), "decision": frozenset({"screen"})}


def event_from_record(record: Chained) -> tuple[str, dict]:
    """The round_events row a card_dealt or decision record describes."""
    payload = {key: value for key, value in record.payload.items() if key not in RECORD_ONLY[record.kind]}
    return EVENT_OF_RECORD[record.kind], payload


def check_rounds(rows: Iterable[RoundFacts], report: Report, paytables: PaytableSource) -> None:
    """Each round rebuilt from its chained records: its events, wagers, rules and result must be
    the ones the database plays it from; a settled round's replay (from the chain alone) must
    be its ledger, and its payout records the ledger's figures; a voided round's ledger its
    refunds; any other round has no money booked or paid out."""
    for row in rows:
        stored = StoredRound.from_facts(row)
        where = f"round {stored.round_id}"
        _compare_events(report, stored)
        _compare_opening(report, stored)
        if stored.status == RoundStatus.SETTLED:
            report.rounds += 1
            _replay_against_ledger(report, stored, paytables)
            _payouts_against_ledger(report, stored)
            continue
        for record in stored.records:
            if record.kind in MONEY_KINDS:
                report.problems.append(Problem(record.where, f"a {record.kind} record for {where}, which is "
                                                             f"{stored.status}: no settlement stands behind it"))
        if stored.status == RoundStatus.VOID:
            _refunds_against_ledger(report, stored)
        elif stored.ledger:
            report.problems.append(Problem(where, f"{stored.status}, yet the ledger holds {len(stored.ledger)} "
                                                  "rows for it"))


def check_money_records_without_round(found: list[UnboundMoneyRecord], report: Report) -> None:
    for record in found:
        report.problems.append(Problem(f"chain {record.chain} seq {record.seq} id {record.id}",
                                       f"a {record.kind} record for round {record.round_id}, which does not exist: "
                                       "no ledger row stands behind it"))


def _compare_events(report: Report, stored: StoredRound) -> None:
    """round_events against the card_dealt and decision records, one for one, in order; the
    first difference is named (after it, every later event would differ too)."""
    chained = [record for record in stored.records if record.kind in EVENT_OF_RECORD]
    for index in range(max(len(chained), len(stored.events))):
        record = chained[index] if index < len(chained) else None
        event = stored.events[index] if index < len(stored.events) else None
        if record is None and event is not None:
            report.problems.append(Problem(f"round {stored.round_id} event {event.seq}",
                                           f"round_events holds {event.kind} {_text(event.payload)}, which no "
                                           "chained record holds"))
            return
        if event is None and record is not None:
            report.problems.append(Problem(record.where, f"round {stored.round_id}: its {record.kind} record "
                                                         f"{_text(record.payload)} is missing from round_events"))
            return
        assert record is not None and event is not None
        if (event.kind, event.payload) != event_from_record(record):
            report.problems.append(Problem(
                f"round {stored.round_id} event {event.seq}",
                f"round_events holds {event.kind} {_text(event.payload)}, but its chained {record.kind} record "
                f"({record.where}) says {_text(record.payload)}"))
            return


def _compare_opening(report: Report, stored: StoredRound) -> None:
    """The wagers, the rules and paytable, the kitty and the result the round's row holds are the
    ones its wager, round_opened and round_completed records chained."""
    where = f"round {stored.round_id}"
    wagers = stored.chained("wager")
    if [record.payload for record in wagers] != stored.wagers:
        first = wagers[0].where if wagers else "none"
        report.problems.append(Problem(where, f"its stored wagers {_text(stored.wagers)} are not the ones its wager "
                                              f"records (first: {first}) list "
                                              f"{_text([record.payload for record in wagers])}"))
    for opened in stored.chained("round_opened")[:1]:
        stored_values: dict[str, Any] = {"rules": stored.rules_ref, "paytable": stored.paytable_ref}
        chained_values: dict[str, Any] = {name: opened.payload.get(name) for name in stored_values}
        if "kitty" in opened.payload:   # the player-banked game: no kitty and a kitty of 0 are the same
            stored_values["kitty"], chained_values["kitty"] = stored.kitty or 0, opened.payload["kitty"] or 0
        for name, value in stored_values.items():
            if chained_values[name] != value:
                report.problems.append(Problem(where, f"its stored {name} is {value!r}, but its round_opened "
                                                      f"record ({opened.where}) says {chained_values[name]!r}"))
    for completed in stored.chained("round_completed")[:1]:
        if completed.payload and stored.result is not None and completed.payload != stored.result:
            report.problems.append(Problem(where, f"its stored result differs from its round_completed record "
                                                  f"({completed.where})"))


def _from_chain(stored: StoredRound) -> tuple[CompletedRound, list[tuple[str, dict]]]:
    """The round and its events as its chained records alone tell them (the row's own figures
    only where the chain says nothing: its table's limits, a round opened with no round_opened)."""
    opened = next(iter(stored.chained("round_opened")), None)
    said = opened.payload if opened is not None else {}
    completed = next(iter(stored.chained("round_completed")), None)
    round_ = CompletedRound(
        stored.round_id, stored.table_id, stored.shoe_id, said.get("rules", stored.rules_ref),
        said.get("paytable", stored.paytable_ref), [record.payload for record in stored.chained("wager")],
        completed.payload if completed is not None and completed.payload else stored.result,
        said.get("kitty", stored.kitty), stored.limits)
    events = [event_from_record(record) for record in stored.records if record.kind in EVENT_OF_RECORD]
    return round_, events


def _replay_against_ledger(report: Report, stored: StoredRound, paytables: PaytableSource) -> None:
    where = f"round {stored.round_id}"
    round_, events = _from_chain(stored)
    try:
        planned = plan_settlement(round_, events, paytables)
    except (TranscriptError, RulesError, ValueError, KeyError) as exc:
        report.problems.append(Problem(where, f"its chained records do not replay: {exc}"))
        return
    replayed = {(row.seat, row.hand, row.kind): (row.stake, row.returned, row.outcome) for row in planned.ledger}
    compare_bets(report, where, stored.ledger, replayed, "the replay of its chained records gives")


def _payouts_against_ledger(report: Report, stored: StoredRound) -> None:
    """Every payout record has its ledger rows and every seat's ledger rows their payout
    record, with the same figures: per seat, what was staked and returned; per bet where the
    record lists its bets."""
    seats: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    bets = {}
    for bet in stored.ledger:
        seats[bet.seat][0] += bet.stake
        seats[bet.seat][1] += bet.returned
        bets[bet.seat, bet.hand, bet.kind] = (bet.stake, bet.returned, bet.outcome)
    named: set[Any] = set()   # the seats payout records name, as they name them
    for record in stored.chained("payout"):
        seat = record.payload.get("seat")
        figures = (record.payload.get("staked"), record.payload.get("returned"))
        why = None
        if seat in named:
            why = f"a second payout record for seat {seat}"
        elif seat not in seats:
            why = f"its payout record for seat {seat} {_figures(figures)} has no ledger row"
        elif tuple(seats[seat]) != figures:
            why = (f"its payout record for seat {seat} says {_figures(figures)}, "
                   f"the ledger holds {_figures(tuple(seats[seat]))}")
        else:
            why = _bets_differ(record, bets)
        named.add(seat)
        if why is not None:
            report.problems.append(Problem(record.where, f"round {stored.round_id}: {why}"))
    for seat in sorted(set(seats) - named):
        report.problems.append(Problem(f"round {stored.round_id}", f"the ledger holds rows for seat {seat} "
                                                                   f"{_figures(tuple(seats[seat]))} but no payout "
                                                                   "record names it"))


def _bets_differ(record: Chained, bets: dict[tuple, tuple]) -> str | None:
    seat = record.payload["seat"]
    for bet in record.payload.get("bets", []):
        hand = NO_HAND if bet.get("hand") is None else bet["hand"]
        said = (bet.get("stake"), bet.get("returned"), bet.get("outcome"))
        if bets.get((seat, hand, bet.get("kind"))) != said:
            return (f"its payout record lists seat {seat} {bet.get('kind')} hand {bet.get('hand')} as {said}, "
                    f"the ledger holds {_row(bets.get((seat, hand, bet.get('kind'))))}")
    return None


def _refunds_against_ledger(report: Report, stored: StoredRound) -> None:
    """A voided round's ledger holds exactly the refunds its round_voided record lists: one row a
    seat, stake and return both the amount refunded."""
    where = f"round {stored.round_id}"
    voids = stored.chained("round_voided")
    if len(voids) != 1:
        report.problems.append(Problem(where, f"voided, with {len(voids)} round_voided records, not one"))
        return
    listed = {(refund["seat"], NO_HAND, REFUND_KIND): (refund["refunded"], refund["refunded"], "void")
              for refund in voids[0].payload.get("refunds", [])}
    compare_bets(report, where, stored.ledger, listed, "its round_voided record lists")


class ExportedRounds:
    """Offline, from an export: each settled round's records gathered as the walk meets them, then
    replayed from them alone, and its payout records held to the replay's. A round is replayed
    under the paytable document its version was submitted (or seeded) with, as the export chains
    it; version 1 is also the file in `paytables/`. A round under a later version whose submission
    is not in the export (one that starts after it) is only noted."""

    def __init__(self) -> None:
        self.records: dict[str, list[Chained]] = {}
        self.tables: dict[str, str] = {}                 # round -> table
        self.limits: dict[str, dict | None] = {}         # table -> its own limits, from table_created
        self.documents: dict[tuple[str, int], dict] = {}  # (paytable, version) -> its document, as chained
        self.paytables: dict[tuple[str, int], Any] = {}   # the same, parsed once for every round under it

    def add(self, record: dict[str, Any]) -> None:
        payload = record["payload"] if isinstance(record["payload"], dict) else {}
        if record["kind"] == "table_created" and record["table_id"]:
            self.limits[record["table_id"]] = payload.get("limits") or None
        elif (record["kind"] in _DOCUMENT_KINDS and isinstance(payload.get("after"), dict)
              and isinstance(payload.get("version"), int)):
            self.documents[str(payload.get("paytable")), payload["version"]] = payload["after"]
        elif record["round_id"] and record["kind"] in _ROUND_KINDS:
            self.tables[record["round_id"]] = record["table_id"]
            self.records.setdefault(record["round_id"], []).append(
                Chained(record.get("id"), record["chain"], record["seq"], record["kind"], payload))

    def check(self, report: Report) -> None:
        skipped = 0
        for round_id, records in self.records.items():
            stored = self._round(round_id, records)
            if stored is None:
                continue
            if self._document_missing(stored.paytable_ref):
                skipped += 1
                continue
            report.rounds += 1
            round_, events = _from_chain(stored)
            try:
                planned = plan_settlement(round_, events, self._paytable)
            except (TranscriptError, RulesError, ValueError, KeyError) as exc:
                report.problems.append(Problem(f"round {round_id}", f"its chained records do not replay: {exc}"))
                continue
            _payouts_against_replay(report, stored, [(record.kind, json.loads(json.dumps(record.payload, default=str)))
                                                     for record in planned.audit])
        if skipped:
            report.notes.append(f"{skipped} settled rounds under a paytable version after 1 were not replayed: "
                                "the version's submission is not in this export")

    def _document_missing(self, paytable_ref: str | None) -> bool:
        """Whether the round's paytable is a version after 1 whose submission this export lacks; a
        reference that does not parse is not missing: replaying the round reports it."""
        try:
            ref = Ref.parse(paytable_ref) if paytable_ref else None
        except RulesError:
            return False
        return ref is not None and ref.version > 1 and (ref.name, ref.version) not in self.documents

    def _paytable(self, ref: Ref) -> Any:
        """The version as the export chains its document; version 1 from its file when the export
        starts after its seeding."""
        key = ref.name, ref.version
        if key not in self.paytables:
            document = self.documents.get(key)
            if document is None and ref.version == 1:
                return load_paytable(ref.name)
            if document is None:
                raise KeyError(f"{ref}: its document is not in this export")
            self.paytables[key] = parse_paytable(str(ref), document)
        return self.paytables[key]

    def _round(self, round_id: str, records: list[Chained]) -> StoredRound | None:
        """A settled round whose opening is in the export, as its records tell it (None otherwise)."""
        kinds = {record.kind for record in records}
        if "payout" not in kinds or "round_opened" not in kinds or "round_voided" in kinds:
            return None
        opened = next(record for record in records if record.kind == "round_opened").payload
        table_id = self.tables[round_id]
        return StoredRound(round_id, table_id, RoundStatus.SETTLED, opened.get("shoe_id"), opened.get("rules", ""),
                           opened.get("paytable"), [], None, [], records, [], opened.get("kitty"),
                           self.limits.get(table_id))


def _payouts_against_replay(report: Report, stored: StoredRound, replayed: list[tuple[str, dict]]) -> None:
    """The round's payout (and super bonus) records are the ones the replay of its chained records
    writes, record for record."""
    expected = {_payout_key(kind, payload): payload for kind, payload in replayed}
    seen: set[tuple] = set()
    for record in stored.records:
        if record.kind not in MONEY_KINDS:
            continue
        key = _payout_key(record.kind, record.payload)
        if key in seen or expected.get(key) != record.payload:
            said = "a second such record" if key in seen else f"the replay of its chained records gives " \
                   f"{_text(expected.get(key)) if key in expected else 'no such record'}"
            report.problems.append(Problem(record.where, f"round {stored.round_id}: its {record.kind} record "
                                                         f"{_text(record.payload)} is not what settlement wrote: "
                                                         f"{said}"))
        seen.add(key)
    for key in sorted(set(expected) - seen, key=str):
        report.problems.append(Problem(f"round {stored.round_id}", f"no {key[0]} record for seat {key[1]}: the "
                                                                   "replay of its chained records gives "
                                                                   f"{_text(expected[key])}"))


def _payout_key(kind: str, payload: dict) -> tuple:
    return (kind, payload.get("seat"), payload.get("hand"))


def compare_bets(report: Report, where: str, ledger: list[StoredBet], expected: dict[tuple, tuple],
                 source: str) -> None:
    """Name every bet, (seat, hand, kind), whose ledger row (stake, returned, outcome) is not the
    one `expected` holds: a row different, missing or extra."""
    booked = {(bet.seat, bet.hand, bet.kind): (bet.stake, bet.returned, bet.outcome) for bet in ledger}
    for key in sorted(set(expected) | set(booked)):
        if expected.get(key) != booked.get(key):
            report.problems.append(Problem(where, f"{_bet(*key)}: the ledger holds (stake, returned, outcome) "
                                                  f"{_row(booked.get(key))}, {source} {_row(expected.get(key))}"))


def _bet(seat: int, hand: int, kind: str) -> str:
    return f"seat {seat} {kind}" + ("" if hand == NO_HAND else f" hand {hand}")


def _row(values: tuple | None) -> str:
    return "no row" if values is None else str(tuple(values))


def _figures(figures: tuple) -> str:
    return f"(staked, returned) {tuple(figures)}"


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
