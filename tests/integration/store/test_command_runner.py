"""run_command against PostgreSQL: a command's writes commit together or not at all, and a
refusal's audit record is kept in a transaction of its own, unless a first run answered already."""
from __future__ import annotations

import uuid

import psycopg
import pytest

from service.command_runner import run_command
from service.refusals import Conflict
from service.store.repositories.audit import AuditRecord, chain_for
from service.store.uow import UnitOfWork

pytestmark = pytest.mark.integration


@pytest.fixture
def uow(database_url):
    with psycopg.connect(database_url, autocommit=True) as conn:
        yield UnitOfWork(conn)


def _add_table(uow: UnitOfWork, table_id: str) -> None:
    uow.tables.add(table_id=table_id, game="canberra", rules="canberra", rules_version=1,
                   paytable="canberra-standard", paytable_version=1, limits={}, created_by="test")
    uow.audit.append(chain_for(table_id), [AuditRecord("table_created", actor="test", table_id=table_id)])


def _audit_kinds(uow: UnitOfWork, table_id: str) -> list[str]:
    rows = uow.conn.execute("SELECT kind FROM audit_log WHERE chain = %s ORDER BY seq", (chain_for(table_id),))
    return [kind for (kind,) in rows]


def test_a_command_that_returns_commits_all_it_wrote(uow):
    table_id = f"T-{uuid.uuid4().hex[:8]}"
    assert run_command(uow, lambda: _add_table(uow, table_id) or "done") == "done"
    assert uow.tables.get(table_id) is not None
    assert _audit_kinds(uow, table_id) == ["table_created"]


def test_a_command_that_fails_leaves_nothing_of_what_it_wrote(uow):
    table_id = f"T-{uuid.uuid4().hex[:8]}"

    def fails() -> None:
        _add_table(uow, table_id)
        raise RuntimeError("after the writes")

    with pytest.raises(RuntimeError):
        run_command(uow, fails)
    assert uow.tables.get(table_id) is None and _audit_kinds(uow, table_id) == []


def test_a_refusal_keeps_its_audit_record_and_nothing_else(uow):
    table_id = f"T-{uuid.uuid4().hex[:8]}"
    record = AuditRecord("card_refused", {"card": "ZZ"}, actor="test", table_id=table_id)

    def refused() -> None:
        _add_table(uow, table_id)
        raise Conflict("refused after writing", audit=record)

    with pytest.raises(Conflict):
        run_command(uow, refused)
    assert uow.tables.get(table_id) is None
    assert _audit_kinds(uow, table_id) == ["card_refused"]


def test_a_refused_retry_gets_the_first_answer_and_keeps_no_record(uow):
    table_id = f"T-{uuid.uuid4().hex[:8]}"
    record = AuditRecord("card_refused", actor="test", table_id=table_id)

    def refused() -> str:
        raise Conflict("the first run moved things on", audit=record)

    assert run_command(uow, refused, answered_before=lambda: "the first answer") == "the first answer"
    assert _audit_kinds(uow, table_id) == []
