"""Each table's own betting limits, bet by bet and bound by bound, against its chained table_created."""
from __future__ import annotations

from datetime import UTC, datetime

from service.audit.report import Report
from service.audit.state import ChainedState, StoredLimits, check_limits

DAY = datetime(2024, 6, 11, 12, tzinfo=UTC)


def _problems(stored: StoredLimits, created: dict | None) -> list[str]:
    state = ChainedState()
    if created is not None:
        state.add("table_created", "admin", stored.table_id, {"rules": "x", "limits": created}, DAY)
    report = Report()
    check_limits([stored], state, report)
    return [str(problem) for problem in report.problems]


def test_limits_as_created_are_in_order():
    limits = {"main": {"min": 500, "max": 50000}, "pair": {"min": 100, "max": 2500}}
    assert _problems(StoredLimits("T1", limits), limits) == []
    assert _problems(StoredLimits("T1", {}), {}) == []
    assert _problems(StoredLimits("T1", {}), None) == []     # no record, no limits of its own


def test_each_limit_that_differs_is_named_with_the_table():
    created = {"main": {"min": 500, "max": 50000}}
    assert _problems(StoredLimits("T1", {"main": {"min": 500, "max": 5000000}}), created) == [
        "table T1: limits.main.max is 5000000 cents, but its chained table_created record sets 50000 cents"]
    assert _problems(StoredLimits("T1", {}), created) == [
        "table T1: limits.main.min is none, but its chained table_created record sets 500 cents",
        "table T1: limits.main.max is none, but its chained table_created record sets 50000 cents"]
    assert _problems(StoredLimits("T2", {"main": {"min": 1, "max": 500}}), None) == [
        "table T2: limits.main.min is 1 cents, but no chained record set the table's limits",
        "table T2: limits.main.max is 500 cents, but no chained record set the table's limits"]


def test_a_player_banked_tables_record_from_before_its_stake_was_renamed_reads_as_migrated():
    """Migration 0023 renamed a player-banked table's stored `main` limit `stake`."""
    created = {"main": {"min": 100, "max": 900}, "buy": {"min": 100, "max": 500}}
    stored = StoredLimits("P1", {"stake": {"min": 100, "max": 900}, "buy": {"min": 100, "max": 500}})
    assert _problems(stored, created) == []
    raised = StoredLimits("P1", {"stake": {"min": 100, "max": 90000}, "buy": {"min": 100, "max": 500}})
    assert _problems(raised, created) == [
        "table P1: limits.stake.max is 90000 cents, but its chained table_created record sets 900 cents"]
