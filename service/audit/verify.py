"""Verifies the audit trail: the hash chains, the shoes' commitments, settled rounds against the ledger,
and the tables' books (slips, buy-ins, counts) with each issued statement against its chain."""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache, partial
from typing import Any, TextIO, TypeVar

import psycopg

from ..catalog import approved_paytable
from ..engine.shoe import verify_commitment
from ..games import family_of
from ..rules import Ref, RulesError, load_rules
from ..store.audit_hash import GENESIS, record_hash
from ..store.repositories.accounting import AccountingRepository
from ..store.repositories.audit import AuditRepository
from ..store.repositories.paytables import PaytablesRepository
from ..store.repositories.shoes import ShoesRepository
from .books import BooksWalker, check_stored_books
from .export import COLUMNS, iter_records
from .report import Problem, Report
from .rounds import MONEY_KINDS, ExportedRounds, check_money_records_without_round, check_rounds
from .state import check_state

T = TypeVar("T")
Progress = Callable[[Report], None]
PROGRESS_EVERY = 1000   # records or rounds between two progress calls: a fraction of a second's checking


def _where(record: dict[str, Any]) -> str:
    return f"chain {record['chain']} seq {record['seq']} id {record.get('id')}"


def _shoe_order(payload: dict) -> tuple[list[str] | None, str | None]:
    return payload.get("card_order", payload.get("order")), payload.get("salt")


@lru_cache(maxsize=64)
def _deals_from_shoe(rules_ref: str) -> bool:
    """Whether rounds under these rules take their cards straight off the shoe, in its order (a
    player-banked pack takes used cards back under it, so its cards leave in another order)."""
    try:
        return family_of(load_rules(Ref.parse(rules_ref).name)).virtual_shoe_deals
    except (RulesError, ValueError, KeyError):
        return False


class ChainWalker:
    """Checks records one by one, each chain in seq order (chains may interleave). Names the
    first broken record of each chain, re-opens every shoe_closed record's commitment, and
    checks that the cards its rounds were dealt are the shoe's revealed order, card by card."""

    def __init__(self, report: Report, *, partial_start_allowed: bool) -> None:
        self.report = report
        self.partial_start_allowed = partial_start_allowed   # an export may begin mid-chain
        self.last: dict[str, tuple[int, str, Any]] = {}      # chain -> (seq, hash, id) of its last record
        self.broken: set[str] = set()
        self.commitments: dict[str, str] = {}               # shoe_id -> commitment from shoe_started
        self.shoe_dealt_rounds: set[str] = set()            # rounds whose cards come off the shoe in order
        self.dealt: dict[str, list[tuple[str, str]]] = {}   # shoe_id -> (card, where) dealt so far

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
        kind = record["kind"]
        if kind == "round_opened" and record["round_id"] and _deals_from_shoe(str(payload.get("rules"))):
            self.shoe_dealt_rounds.add(record["round_id"])
        elif kind == "card_dealt" and shoe_id and record["round_id"] in self.shoe_dealt_rounds:
            self.dealt.setdefault(str(shoe_id), []).append((str(payload.get("card")), _where(record)))
        elif kind in ("round_completed", "round_voided"):
            self.shoe_dealt_rounds.discard(record["round_id"])   # it is dealt no more cards
        elif kind == "shoe_started" and shoe_id and payload.get("commitment"):
            self.commitments[str(shoe_id)] = payload["commitment"]
            self.dealt[str(shoe_id)] = []
        elif kind == "shoe_closed" and shoe_id:
            order, salt = _shoe_order(payload)
            commitment = self.commitments.get(str(shoe_id), payload.get("commitment"))
            dealt = self.dealt.pop(str(shoe_id), None)
            if order is None or salt is None:
                return  # a physical shoe has no order to reveal
            if commitment is None:
                self.report.notes.append(f"shoe {shoe_id}: closed, but its shoe_started record is not here")
                return
            self.report.shoes.add(str(shoe_id))
            if not verify_commitment(commitment, list(order), str(salt)):
                self.report.problems.append(Problem(_where(record), f"shoe {shoe_id}: the revealed order and salt "
                                                                   "do not open the commitment published at its start"))
            elif dealt and str(shoe_id) in self.commitments:   # a player-banked pack deals none in order
                self._check_dealt(record, str(shoe_id), list(order), dealt, payload.get("position"))

    def _check_dealt(self, closed: dict[str, Any], shoe_id: str, order: list[str], dealt: list[tuple[str, str]],
                     position: Any) -> None:
        """The cards the shoe's rounds were dealt, in chain order, are its revealed order from the
        top; and as many as the shoe says it dealt."""
        for index, (card, where) in enumerate(dealt):
            if index >= len(order) or order[index] != card:
                on_top = order[index] if index < len(order) else "no card"
                self.report.problems.append(Problem(where, f"shoe {shoe_id}: card {index + 1} dealt was {card}, "
                                                           f"but the shoe's revealed order has {on_top} there"))
                return
        if isinstance(position, int) and position != len(dealt):
            self.report.problems.append(Problem(_where(closed), f"shoe {shoe_id}: closed at position {position}, "
                                                                f"but its rounds' records deal {len(dealt)} cards"))

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


def verify_export(lines: Iterable[str], hashes_at: dict[tuple[str, int], str | None] | None = None) -> Report:
    """Verify an export (JSON lines, one record per line) offline: chains, shoe commitments and
    the order shoes dealt in, and settled rounds replayed from their records against their payouts.
    `hashes_at`: (chain, seq) keys (checkpoints') whose records' hashes are filled in as read."""
    report = Report()
    walker = ChainWalker(report, partial_start_allowed=True)
    books = BooksWalker(report)
    rounds = ExportedRounds()
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
        if hashes_at is not None and (record["chain"], record["seq"]) in hashes_at:
            hashes_at[(record["chain"], record["seq"])] = record["hash"]
        if record["chain"] not in walker.broken:
            rounds.add(record)
            books.check(record)
    walker.finish()
    rounds.check(report)
    return report


def verify_database(conn: psycopg.Connection, *, rounds: bool = True, progress: Progress | None = None) -> Report:
    """Verify in place: every chain against its head, the shoes' commitments (table and audit
    records) and the order their cards were dealt in, and, with `rounds`, each round rebuilt from
    its chained records against round_events, its row, the ledger and its payout records. Reads
    one snapshot, so appends made meanwhile neither show nor look like a broken head. Call it
    with no transaction open. `progress` is handed the report as it grows, every
    PROGRESS_EVERY records and rounds."""
    report = Report()
    audit = AuditRepository(conn)
    with conn.transaction():
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        heads = audit.chain_heads()
        walker = ChainWalker(report, partial_start_allowed=False)
        books = BooksWalker(report)
        for record in _reporting(iter_records(audit, order_by="chain"), report, progress):
            walker.check(record)
            if record["chain"] not in walker.broken:
                books.check(record)
        walker.finish(heads)
        check_stored_books(AccountingRepository(conn), books, report)
        check_shoes(conn, report, walker.commitments)
        check_state(conn, report)
        if rounds:
            check_database_rounds(conn, report, progress)
    return report


def check_database_rounds(conn: psycopg.Connection, report: Report, progress: Progress | None = None) -> None:
    """Every round rebuilt from its chained records and held against the database (check_rounds),
    and every payout record that names no round."""
    audit = AuditRepository(conn)
    # A second connection looks up paytable versions while the named cursor streams rounds.
    # The DSN psycopg reports leaves the password out: it is passed on by itself.
    with psycopg.connect(conn.info.dsn, password=conn.info.password) as lookup:
        paytables = partial(approved_paytable, PaytablesRepository(lookup))
        with conn.transaction():   # the server-side cursor lives in a transaction
            check_rounds(_reporting(audit.round_facts(), report, progress), report, paytables)
    check_money_records_without_round(audit.money_records_without_round(MONEY_KINDS), report)


def _reporting(items: Iterable[T], report: Report, progress: Progress | None) -> Iterator[T]:
    """`items` as they are, handing `progress` the report after every PROGRESS_EVERY of them."""
    for count, item in enumerate(items, 1):
        yield item
        if progress is not None and count % PROGRESS_EVERY == 0:
            progress(report)


def check_shoes(conn: psycopg.Connection, report: Report, audited: dict[str, str]) -> None:
    """Closed virtual shoes: the stored order and salt open the stored commitment, and that is
    the commitment the audit log published when the shoe started."""
    for shoe in ShoesRepository(conn).closed_virtual():
        shoe_id, commitment, order, salt = shoe.shoe_id, shoe.commitment, shoe.card_order, shoe.salt
        report.shoes.add(shoe_id)
        where = f"shoe {shoe_id}"
        if commitment is None or order is None or salt is None:
            report.problems.append(Problem(where, "closed, but its commitment, order or salt is missing"))
        elif not verify_commitment(commitment, list(order), salt):
            report.problems.append(Problem(where, "the stored order and salt do not open the stored commitment"))
        elif shoe_id in audited and audited[shoe_id] != commitment:
            report.problems.append(
                Problem(where, "its commitment differs from the one its shoe_started record published"))


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
