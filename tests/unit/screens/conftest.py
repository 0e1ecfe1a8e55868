"""Screens' handlers on a unit of work in memory: a table, and a policy with a clock a test moves."""
from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest

from service.rounds import handlers
from service.rounds.commands import CreateTable
from service.screens.commands import EnrolScreen, IssueScreenCode
from service.screens.enrolment import enrol_screen, issue_code
from service.staff.accounts import create_staff
from service.staff.commands import CreateStaff
from tests.unit.staff.fake_staff import CHEAP, StaffUnitOfWork

TABLE = "T1"
PIN = "402715"


class Clock:
    """The policy's clock: now, until a test moves it on."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now

    def move(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def policy(clock):
    return dataclasses.replace(CHEAP, clock=clock)


@pytest.fixture
def uow() -> StaffUnitOfWork:
    uow = StaffUnitOfWork()
    handlers.create_table(CreateTable(TABLE, "canberra", "canberra-standard", actor="admin"), uow)
    handlers.create_table(CreateTable("T2", "canberra", "canberra-standard", actor="admin"), uow)
    return uow


@pytest.fixture
def enrolled(uow, policy):
    """enrolled(name="Left", table=TABLE) -> the screen's device token, enrolled by a supervisor's code."""
    def enrol(name: str = "Left", table: str = TABLE) -> str:
        issued = issue_code(IssueScreenCode(table, name, "staff:sam"), uow, policy)
        return enrol_screen(EnrolScreen(issued.code, "10.1.1.5"), uow, policy).token
    return enrol


@pytest.fixture
def dealer(uow, policy):
    """dealer(username="dana", pin=PIN) -> the username of a new dealer account."""
    def make(username: str = "dana", pin: str = PIN) -> str:
        create_staff(CreateStaff(username, "dealer", "staff:root", password=pin), uow, policy)
        return username
    return make


def chain(uow, table: str = TABLE) -> list:
    return uow.audit.records.get(f"table:{table}", [])


def kinds(uow, table: str = TABLE) -> list[str]:
    return [record.kind for record in chain(uow, table)]
