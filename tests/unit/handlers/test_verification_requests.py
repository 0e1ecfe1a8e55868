"""Asking for the audit log's verification, on a unit of work in memory: one under way at a time,
a quiet one sent again, and the gaming day's own asked for once, with the clock set by the test."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

from service.audit.jobs import STALE_AFTER, SYSTEM_ACTOR, request_daily_verification, request_verification
from service.store.repositories.outbox import OutboxTopic
from service.store.repositories.verifications import VerificationStatus

from .fake_uow import FakeUnitOfWork

DAY_BEGAN = datetime(2026, 3, 2, 6, 0, tzinfo=UTC)


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def _sent(uow: FakeUnitOfWork) -> list[str]:
    return [payload["verification_id"] for topic, payload in uow.outbox.payloads
            if topic == OutboxTopic.VERIFY_AUDIT and payload is not None]


def test_a_request_queues_a_verification_and_sends_it_to_the_workers():
    uow = FakeUnitOfWork()
    asked = request_verification(uow, "compliance")
    assert not asked.joined and asked.verification.status == VerificationStatus.QUEUED
    assert asked.verification.requested_by == "compliance"
    assert _sent(uow) == [str(asked.verification.verification_id)]


def test_a_request_while_one_is_under_way_joins_it_and_sends_nothing_more():
    uow = FakeUnitOfWork()
    first = request_verification(uow, "compliance")
    second = request_verification(uow, "admin")
    assert second.joined and not second.resent
    assert second.verification.verification_id == first.verification.verification_id
    assert len(uow.verifications.rows) == 1 and len(_sent(uow)) == 1


def test_one_gone_quiet_is_sent_again_to_the_workers():
    uow = FakeUnitOfWork()
    first = request_verification(uow, "compliance")
    uow.verifications.quiet(first.verification.verification_id, STALE_AFTER + 1)
    again = request_verification(uow, "compliance")
    assert again.joined and again.resent
    assert _sent(uow) == [str(first.verification.verification_id)] * 2


def test_a_request_after_the_last_finished_queues_a_new_one():
    uow = FakeUnitOfWork()
    first = request_verification(uow, "compliance")
    uow.verifications.finish(first.verification.verification_id, VerificationStatus.INTACT)
    second = request_verification(uow, "compliance")
    assert not second.joined and second.verification.verification_id != first.verification.verification_id


def test_the_gaming_days_verification_is_asked_for_once_by_the_system():
    clock = Clock(DAY_BEGAN + timedelta(minutes=5))
    uow = FakeUnitOfWork(now=clock)
    asked = request_daily_verification(uow, DAY_BEGAN)
    assert asked is not None and asked.verification.requested_by == SYSTEM_ACTOR
    uow.verifications.finish(asked.verification.verification_id, VerificationStatus.INTACT)
    clock.now += timedelta(hours=3)
    assert request_daily_verification(uow, DAY_BEGAN) is None, "asked for already today"
    assert len(uow.verifications.rows) == 1


def test_one_asked_for_by_anyone_since_the_day_began_counts_for_the_day():
    clock = Clock(DAY_BEGAN + timedelta(hours=1))
    uow = FakeUnitOfWork(now=clock)
    by_hand = request_verification(uow, "compliance")
    uow.verifications.finish(by_hand.verification.verification_id, VerificationStatus.INTACT)
    assert request_daily_verification(uow, DAY_BEGAN) is None


def test_the_next_day_asks_again_but_not_beside_one_still_under_way():
    clock = Clock(DAY_BEGAN + timedelta(hours=23))
    uow = FakeUnitOfWork(now=clock)
    today = request_daily_verification(uow, DAY_BEGAN)
    assert today is not None
    next_day = DAY_BEGAN + timedelta(days=1)
    clock.now = next_day + timedelta(minutes=1)
    assert request_daily_verification(uow, next_day) is None, "yesterday's is still under way"
    uow.verifications.finish(today.verification.verification_id, VerificationStatus.INTACT)
    tomorrows = request_daily_verification(uow, next_day)
    assert tomorrows is not None and tomorrows.verification.requested_at == clock.now
