"""Settles a batch of completed rounds in one transaction: replay, ledger rows, `settled`, payout records."""
from __future__ import annotations

import logging
import uuid
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import psycopg

from ..catalog import approved_paytable
from ..engine.transcript import TranscriptError
from ..games import family_of
from ..ledger.transcripts import PaytableSource, play_stored, stored_transcript
from ..metrics import observe_settled
from ..rules import RulesError
from ..store.repositories.audit import AuditRecord, AuditRepository, chain_for
from ..store.repositories.ledger import LedgerConflict, LedgerRepository, LedgerRow
from ..store.repositories.paytables import PaytablesRepository
from ..store.repositories.settlement import CompletedRound, SettlementRepository

ACTOR = "settlement"

log = logging.getLogger(__name__)


class SettlementRefused(RuntimeError):
    """Rounds that cannot be settled (their transcript does not replay, or disagrees with the
    result stored when they completed). Raised after the rest of the batch has committed."""

    def __init__(self, refused: list[RefusedRound]) -> None:
        super().__init__("; ".join(f"round {r.round_id}: {r.reason}" for r in refused))
        self.refused = refused

    def __reduce__(self):  # crosses process boundaries (the worker pool pickles failures)
        return (SettlementRefused, (self.refused,))


@dataclass(frozen=True)
class RefusedRound:
    round_id: str
    reason: str


@dataclass(frozen=True)
class SettledRound:
    """What settling one round writes: its ledger rows, its audit records and its result."""

    round_id: str
    table_id: str
    ledger: list[LedgerRow]
    audit: list[AuditRecord]
    result: dict
    result_missing: bool    # no result was stored when the round completed


@dataclass
class BatchOutcome:
    settled: list[str] = field(default_factory=list)
    not_settleable: list[str] = field(default_factory=list)  # not 'complete' when asked, or locked by another settler
    refused: list[RefusedRound] = field(default_factory=list)

    def summary(self) -> dict:
        return {"settled": len(self.settled), "not_settleable": len(self.not_settleable),
                "refused": [r.round_id for r in self.refused]}

    def log(self, logger: logging.Logger, how: str = "settled") -> None:
        """A line per round, its id in the line's round_id: a round's settlement is found in the
        workers' logs as its requests are in the API's."""
        for round_id in self.settled:
            logger.info("round %s", how, extra={"round_id": round_id})
        for refused in self.refused:
            # It stays 'complete' and is reported again at every sweep until someone voids or mends it.
            logger.error("round cannot be settled: %s", refused.reason, extra={"round_id": refused.round_id})


def normalise_ids(round_ids: Iterable[Any]) -> list[str]:
    """Distinct round ids in canonical text, sorted: the order rows are locked in."""
    return sorted({str(uuid.UUID(str(round_id))) for round_id in round_ids})


def settle_rounds(conn: psycopg.Connection, round_ids: Iterable[Any]) -> BatchOutcome:
    """Settle whichever of `round_ids` are complete and not being settled elsewhere, in one
    transaction. Run twice, the second run finds them settled and writes nothing."""
    ids = normalise_ids(round_ids)
    outcome = BatchOutcome()
    if not ids:
        return outcome
    paytables = partial(approved_paytable, PaytablesRepository(conn))
    rounds = SettlementRepository(conn)
    with conn.transaction():
        stored = rounds.lock_complete(ids)
        events = rounds.events_of([r.round_id for r in stored])
        settled: list[SettledRound] = []
        for round_ in stored:
            try:
                settled.append(plan_settlement(round_, events.get(round_.round_id, []), paytables))
            except (TranscriptError, RulesError, ValueError, KeyError) as exc:
                # Kept out of this batch and reported to the caller, who raises after commit.
                outcome.refused.append(RefusedRound(round_.round_id, f"{type(exc).__name__}: {exc}"))
        settled = _write_ledger(conn, settled, outcome)
        if settled:
            # The result stored at completion is kept; the replayed one fills it in only where
            # missing (the API stores it, so this is normally empty and costs nothing).
            rounds.mark_settled([s.round_id for s in settled],
                                {s.round_id: s.result for s in settled if s.result_missing})
            # Last before the commit: a table's chain head stays locked from here to the commit,
            # and the table's terminal waits on it to save its next decision.
            _append_audit(conn, settled)
    observe_settled(settled, _settlement_lags(conn, settled))  # after the commit: only what is in the ledger counts
    outcome.settled = [s.round_id for s in settled]
    done = set(outcome.settled) | {r.round_id for r in outcome.refused}
    outcome.not_settleable = [i for i in ids if i not in done]
    return outcome


def _settlement_lags(conn: psycopg.Connection, settled: list[SettledRound]) -> list[float]:
    """Each settled round's seconds from completion to settlement, read back after the commit for
    the metrics: the ledger is committed, so a failure here loses only this figure."""
    if not settled:
        return []
    try:
        with conn.transaction():
            return SettlementRepository(conn).settlement_lags([s.round_id for s in settled])
    except psycopg.Error as exc:
        log.warning("metrics: settlement lag unreadable for %d rounds: %s", len(settled), type(exc).__name__)
        return []


def plan_settlement(round_: CompletedRound, events: list[tuple[str, dict]],
                    paytables: PaytableSource | None = None) -> SettledRound:
    """Replay the round under its own paytable version and derive its ledger rows and payout
    records (no I/O beyond what `paytables` looks up)."""
    transcript = stored_transcript(round_.rules_ref, round_.paytable_ref, round_.wagers, events, round_.kitty,
                                   round_.limits)
    played = play_stored(transcript, paytables)
    result = played.result()
    # The house-banked game settles bet lines seat by seat; the player-banked one the transfers
    # between its banker, players and kitty. Either checks the result stored at completion.
    ledger, audit = family_of(played.rules).settle(round_, played, result)
    return SettledRound(round_.round_id, round_.table_id, ledger, audit, result, round_.result is None)


def _write_ledger(conn: psycopg.Connection, settled: list[SettledRound], outcome: BatchOutcome) -> list[SettledRound]:
    """Write the batch's ledger rows; the rounds written. A round whose rows the ledger already
    holds with other figures is refused and the batch written without it: one such round must
    not hold back the rest of its batch at every retry and every sweep."""
    while settled:
        try:
            with conn.transaction():   # a savepoint: a refused attempt leaves no row behind
                LedgerRepository(conn).write([row for s in settled for row in s.ledger])
            return settled
        except LedgerConflict as exc:
            outcome.refused += [RefusedRound(round_id, f"LedgerConflict: {reason}")
                                for round_id, reason in exc.rounds.items()]
            settled = [s for s in settled if s.round_id not in exc.rounds]
    return settled


def _append_audit(conn: psycopg.Connection, settled: list[SettledRound]) -> None:
    by_chain: dict[str, list[AuditRecord]] = defaultdict(list)
    for round_ in settled:
        by_chain[chain_for(round_.table_id)].extend(round_.audit)
    AuditRepository(conn).append_by_chain(by_chain)
