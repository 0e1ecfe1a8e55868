"""Verifies the audit trail: the hash chains, the shoes' commitments, and settled rounds against the ledger."""
from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TextIO

import psycopg

from ..compliance.void import REFUND_KIND
from ..engine.shoe import verify_commitment
from ..engine.transcript import TranscriptError
from ..rounds.catalog import approved_paytable
from ..rules import RulesError
from ..settlement.ledger import NO_HAND
from ..settlement.settle import CompletedRound, plan_settlement
from ..store.audit_hash import GENESIS, record_hash
from ..store.repositories.audit import AuditRepository
from ..store.repositories.paytables import PaytablesRepository
from .export import COLUMNS, iter_records


@dataclass(frozen=True)
class Problem:
    """One thing found wrong, named so a person can go and look at it."""

    where: str      # "chain table:T1 seq 5 id 812", "shoe 3f2a…", "round 9c1d…", "line 7"
    why: str

    def __str__(self) -> str:
        return f"{self.where}: {self.why}"


@dataclass
class Report:
    records: int = 0
    chains: int = 0
    shoes: set[str] = field(default_factory=set)   # shoes whose commitment was re-opened
    rounds: int = 0
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def intact(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        return (f"{self.records} records in {self.chains} chains, {len(self.shoes)} shoe commitments re-opened, "
                f"{self.rounds} settled rounds replayed against the ledger")


def _where(record: dict[str, Any]) -> str:
    return f"chain {record['chain']} seq {record['seq']} id {record.get('id')}"


def _shoe_order(payload: dict) -> tuple[list[str] | None, str | None]:
    return payload.get("card_order", payload.get("order")), payload.get("salt")


class ChainWalker:
    """Checks records one by one, each chain in seq order (chains may interleave). Names the
    first broken record of each chain, and re-opens every shoe_closed record's commitment."""

    def __init__(self, report: Report, *, partial_start_allowed: bool) -> None:
        self.report = report
        self.partial_start_allowed = partial_start_allowed   # an export may begin mid-chain
        self.last: dict[str, tuple[int, str, Any]] = {}      # chain -> (seq, hash, id) of its last record
        self.broken: set[str] = set()
        self.commitments: dict[str, str] = {}               # shoe_id -> commitment from shoe_started

    def check(self, record: dict[str, Any]) -> None:
        self.report.records += 1
        chain = record["chain"]
        if chain in self.broken:
            return  # after the first break a chain's later links prove nothing more
        why = self._chain_fault(record)
        if why is not None:
            self.broken.add(chain)
            self.report.problems.append(Problem(_where(record), why))
            return
        self.last[chain] = (record["seq"], record["hash"], record.get("id"))
        self._check_shoe(record)

    def _chain_fault(self, record: dict[str, Any]) -> str | None:
        expected = record_hash(record["chain"], record["seq"], record["at"], record["kind"], record["actor"],
                               record["table_id"], record["round_id"], record["payload"], record["prev_hash"])
        if expected != record["hash"]:
            return "its hash does not match its contents (the record was changed)"
        last = self.last.get(record["chain"])
        if last is None:
            if record["seq"] == 1:
                if record["prev_hash"] == GENESIS:
                    return None
                return "the chain's first record does not start from the genesis hash"
            if self.partial_start_allowed:
                self.report.notes.append(f"chain {record['chain']} starts at seq {record['seq']} "
                                         "(a partial export: records before it are not verified)")
                return None
            return f"the chain starts at seq {record['seq']}: records 1 to {record['seq'] - 1} are missing"
        last_seq, last_hash, last_id = last
        if record["seq"] != last_seq + 1:
            return f"seq {record['seq']} follows seq {last_seq} (id {last_id}): records are missing or out of order"
        if record["prev_hash"] != last_hash:
            return (f"its prev_hash is not the hash of seq {last_seq} (id {last_id}): "
                    "that record was changed and re-hashed, or this one re-linked")
        return None

    def _check_shoe(self, record: dict[str, Any]) -> None:
        payload = record["payload"] if isinstance(record["payload"], dict) else {}
        shoe_id = payload.get("shoe_id")
        if record["kind"] == "shoe_started" and shoe_id and payload.get("commitment"):
            self.commitments[str(shoe_id)] = payload["commitment"]
        elif record["kind"] == "shoe_closed" and shoe_id:
            order, salt = _shoe_order(payload)
            commitment = self.commitments.get(str(shoe_id), payload.get("commitment"))
            if order is None or salt is None:
                return  # a physical shoe has no order to reveal
            if commitment is None:
                self.report.notes.append(f"shoe {shoe_id}: closed, but its shoe_started record is not here")
                return
            self.report.shoes.add(str(shoe_id))
            if not verify_commitment(commitment, list(order), str(salt)):
                self.report.problems.append(Problem(_where(record), f"shoe {shoe_id}: the revealed order and salt "
                                                                   "do not open the commitment published at its start"))

    def finish(self, heads: dict[str, tuple[int, str]] | None = None) -> None:
        """Close the walk; `heads` (chain -> seq, hash) from audit_chain_heads catches records
        cut from a chain's end, which no later link can show."""
        self.report.chains = len(set(self.last) | self.broken)
        for chain, (head_seq, head_hash) in sorted((heads or {}).items()):
            if chain in self.broken:
                continue
            last_seq, last_hash, last_id = self.last.get(chain, (0, GENESIS, None))
            if (last_seq, last_hash) != (head_seq, head_hash):
                self.report.problems.append(Problem(
                    f"chain {chain} seq {last_seq} id {last_id}",
                    f"the chain head is at seq {head_seq} but the last record is seq {last_seq}, "
                    "or its hash differs: records at the end were removed or changed"))
        if heads is not None:
            for chain in sorted(set(self.last) - set(heads)):
                self.report.problems.append(Problem(f"chain {chain}", "records exist but the chain has no head"))


def verify_export(lines: Iterable[str]) -> Report:
    """Verify an export (JSON lines, one record per line) offline: chains and shoe commitments."""
    report = Report()
    walker = ChainWalker(report, partial_start_allowed=True)
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            missing = [column for column in COLUMNS if column not in record]
        except ValueError as exc:
            report.problems.append(Problem(f"line {number}", f"is not JSON: {exc}"))
            continue
        if missing:
            report.problems.append(Problem(f"line {number}", f"lacks the columns {missing}"))
            continue
        walker.check(record)
    walker.finish()
    return report


def verify_database(conn: psycopg.Connection, *, rounds: bool = True) -> Report:
    """Verify in place: every chain against its head, the shoes' commitments (table and audit
    records), and, with `rounds`, each settled round's replay against its ledger rows. Reads
    one snapshot, so appends made meanwhile neither show nor look like a broken head. Call it
    with no transaction open."""
    report = Report()
    with conn.transaction():
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        heads = {chain: (seq, digest) for chain, seq, digest in
                 conn.execute("SELECT chain, seq, hash FROM audit_chain_heads")}
        walker = ChainWalker(report, partial_start_allowed=False)
        for record in iter_records(AuditRepository(conn), order_by="chain"):
            walker.check(record)
        walker.finish(heads)
        check_shoes(conn, report, walker.commitments)
        if rounds:
            check_settled_rounds(conn, report)
            check_voided_rounds(conn, report)
            check_unfinished_rounds_have_no_ledger(conn, report)
    return report


def check_shoes(conn: psycopg.Connection, report: Report, audited: dict[str, str]) -> None:
    """Closed virtual shoes: the stored order and salt open the stored commitment, and that is
    the commitment the audit log published when the shoe started."""
    rows = conn.execute("SELECT shoe_id::text, commitment, card_order, salt FROM shoes "
                        "WHERE mode = 'virtual' AND closed_at IS NOT NULL ORDER BY opened_at, shoe_id")
    for shoe_id, commitment, order, salt in rows:
        report.shoes.add(shoe_id)
        where = f"shoe {shoe_id}"
        if commitment is None or order is None or salt is None:
            report.problems.append(Problem(where, "closed, but its commitment, order or salt is missing"))
        elif not verify_commitment(commitment, list(order), salt):
            report.problems.append(Problem(where, "the stored order and salt do not open the stored commitment"))
        elif shoe_id in audited and audited[shoe_id] != commitment:
            report.problems.append(
                Problem(where, "its commitment differs from the one its shoe_started record published"))


_SETTLED_ROUNDS = """
SELECT r.round_id::text, r.table_id, r.shoe_id::text, r.rules_ref, r.paytable_ref, r.wagers, r.result,
       COALESCE((SELECT json_agg(json_build_array(e.kind, e.payload) ORDER BY e.seq)
                 FROM round_events e WHERE e.round_id = r.round_id), '[]'::json),
       COALESCE((SELECT json_agg(json_build_array(l.seat, l.hand, l.kind, l.stake, l.returned, l.outcome))
                 FROM ledger_entries l WHERE l.round_id = r.round_id), '[]'::json),
       (SELECT t.kitty_before FROM traditional_rounds t WHERE t.round_id = r.round_id),
       (SELECT t.limits FROM tables t WHERE t.table_id = r.table_id)
FROM rounds r WHERE r.status = 'settled' ORDER BY r.round_id
"""


def check_settled_rounds(conn: psycopg.Connection, report: Report) -> None:
    """Replay every settled round's transcript as settlement does; the ledger must hold exactly
    the rows the replay gives, bet by bet (seat, hand, kind: stake, return and outcome)."""
    # A second connection looks up paytable versions while the named cursor streams rounds.
    # The DSN psycopg reports leaves the password out: it is passed on by itself.
    with psycopg.connect(conn.info.dsn, password=conn.info.password) as lookup:
        paytables = partial(approved_paytable, PaytablesRepository(lookup))
        _check_settled_rounds(conn, report, paytables)


def _check_settled_rounds(conn: psycopg.Connection, report: Report, paytables) -> None:
    with conn.transaction():
        with conn.cursor(name="audit_verify_rounds") as cursor:
            cursor.itersize = 500
            cursor.execute(_SETTLED_ROUNDS)
            for (round_id, table_id, shoe_id, rules_ref, paytable_ref, wagers, result, events, ledger, kitty,
                 limits) in cursor:
                report.rounds += 1
                where = f"round {round_id}"
                stored = CompletedRound(round_id, table_id, shoe_id, rules_ref, paytable_ref, wagers, result,
                                        kitty, limits)
                try:
                    planned = plan_settlement(stored, events, paytables)
                except (TranscriptError, RulesError, ValueError, KeyError) as exc:
                    report.problems.append(Problem(where, f"its transcript does not replay: {exc}"))
                    continue
                replayed = {(row.seat, row.hand, row.kind): (row.stake, row.returned, row.outcome)
                            for row in planned.ledger}
                _compare_bets(report, where, ledger, replayed, "the replay gives")


_VOIDED_ROUNDS = """
SELECT r.round_id::text,
       COALESCE((SELECT json_agg(json_build_array(l.seat, l.hand, l.kind, l.stake, l.returned, l.outcome))
                 FROM ledger_entries l WHERE l.round_id = r.round_id), '[]'::json),
       (SELECT json_agg(a.payload->'refunds') FROM audit_log a
        WHERE a.round_id = r.round_id AND a.kind = 'round_voided')
FROM rounds r WHERE r.status = 'void' ORDER BY r.round_id
"""


def check_voided_rounds(conn: psycopg.Connection, report: Report) -> None:
    """A voided round's ledger holds exactly the refunds its round_voided record (hash-chained)
    lists: one row a seat, stake and return both the amount refunded."""
    for round_id, ledger, voids in conn.execute(_VOIDED_ROUNDS):
        where = f"round {round_id}"
        if not voids or len(voids) != 1:
            report.problems.append(Problem(where, f"voided, with {len(voids or [])} round_voided records, not one"))
            continue
        listed = {(refund["seat"], NO_HAND, REFUND_KIND): (refund["refunded"], refund["refunded"], "void")
                  for refund in voids[0]}
        _compare_bets(report, where, ledger, listed, "its round_voided record lists")


def check_unfinished_rounds_have_no_ledger(conn: psycopg.Connection, report: Report) -> None:
    """Money is booked only when a round is settled or voided: a ledger row of any other round
    was written by something else."""
    for round_id, status, rows in conn.execute(
            "SELECT r.round_id::text, r.status, count(*) FROM ledger_entries l JOIN rounds r USING (round_id) "
            "WHERE r.status NOT IN ('settled', 'void') GROUP BY r.round_id, r.status ORDER BY r.round_id"):
        report.problems.append(Problem(f"round {round_id}", f"{status}, yet the ledger holds {rows} rows for it"))


def _compare_bets(report: Report, where: str, ledger: list, expected: dict[tuple, tuple], source: str) -> None:
    """Name every bet, (seat, hand, kind), whose ledger row (stake, returned, outcome) is not the
    one `expected` holds: a row different, missing or extra."""
    booked = {(seat, hand, kind): (stake, returned, outcome) for seat, hand, kind, stake, returned, outcome in ledger}
    for key in sorted(set(expected) | set(booked)):
        if expected.get(key) != booked.get(key):
            report.problems.append(Problem(where, f"{_bet(*key)}: the ledger holds (stake, returned, outcome) "
                                                  f"{_row(booked.get(key))}, {source} {_row(expected.get(key))}"))


def _bet(seat: int, hand: int, kind: str) -> str:
    return f"seat {seat} {kind}" + ("" if hand == NO_HAND else f" hand {hand}")


def _row(values: tuple | None) -> str:
    return "no row" if values is None else str(tuple(values))


def print_report(report: Report, out: TextIO) -> int:
    """Write the verdict; the exit status is 0 when intact, 1 otherwise."""
    for note in report.notes:
        out.write(f"note: {note}\n")
    if report.intact:
        out.write(f"audit verify: intact: {report.summary()}\n")
        return 0
    out.write(f"audit verify: BROKEN ({len(report.problems)} problems): {report.summary()}\n")
    for problem in report.problems:
        out.write(f"{problem}\n")
    return 1
