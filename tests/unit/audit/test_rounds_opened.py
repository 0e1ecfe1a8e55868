"""Each round opened under a paytable version the chained records approved before it opened."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

from service.audit.report import Report
from service.audit.state import ChainedState, OpenedRound, check_rounds_opened_approved

DAY = datetime(2024, 6, 11, 12, tzinfo=UTC)


def _state() -> ChainedState:
    """house@1 seeded from its file; house@2 submitted by ann and approved by bob at noon; house@3 a draft."""
    state = ChainedState()
    state.add("paytable_version_seeded", "system", None, {"paytable": "house", "version": 1, "after": {}}, DAY)
    for version in (2, 3):
        state.add("paytable_version_submitted", "ann", None,
                  {"paytable": "house", "version": version, "after": {"v": version}}, DAY)
    state.add("paytable_version_approved", "bob", None, {"paytable": "house", "version": 2}, DAY)
    return state


def _problems(paytable_ref: str, opened_at: datetime | None) -> list[str]:
    report = Report()
    check_rounds_opened_approved([OpenedRound("r-1", paytable_ref, opened_at)], _state(), report)
    return [str(problem) for problem in report.problems]


def test_a_round_opened_after_its_versions_approval_is_in_order():
    assert _problems("house@2", DAY + timedelta(minutes=1)) == []
    assert _problems("house@1", DAY - timedelta(days=1)) == []          # the file's version: from the start
    assert _problems("house", DAY - timedelta(days=1)) == []            # the same, named without its version
    assert _problems("other@1", DAY) == []                              # a file never stored: played from it


def test_a_round_opened_before_its_versions_approval_or_under_a_draft_is_named():
    assert _problems("house@2", DAY - timedelta(minutes=1)) == [
        "round r-1: opened under house@2 before it was approved (or it never was)"]
    assert _problems("house@3", DAY) == ["round r-1: opened under house@3, which no chained record approved"]


def test_a_round_whose_paytable_reference_names_no_version_is_named():
    for stored in ("house@", "house@0", "house@two", "@2"):
        assert _problems(stored, DAY) == [f"round r-1: opened under {stored!r}, which names no paytable version"]
