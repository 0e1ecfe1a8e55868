"""Each refusal carries the status every adapter answers it with, and run_command keeps a refusal's
audit record apart from the command it refused (on the in-memory unit of work)."""
from __future__ import annotations

import pytest

from service.command_runner import run_command
from service.refusals import CommandRefused, Conflict, Forbidden, Invalid, NotFound
from service.store.repositories.audit import AuditRecord, chain_for
from tests.unit.handlers.fake_uow import FakeUnitOfWork


def _refuse(refusal: CommandRefused) -> str:
    raise refusal


@pytest.mark.parametrize(("refusal", "status"), [(NotFound, 404), (Conflict, 409), (Invalid, 422),
                                                 (Forbidden, 403), (CommandRefused, 409)])
def test_each_refusal_carries_its_http_status(refusal, status):
    assert refusal("no").status == status


def test_a_command_that_returns_is_committed_once():
    uow = FakeUnitOfWork()
    assert run_command(uow, lambda: "done") == "done"
    assert uow.commits == 1


def test_a_refusal_goes_on_up_with_its_audit_record_kept_in_a_transaction_of_its_own():
    uow = FakeUnitOfWork()
    record = AuditRecord("paytable_self_approval_refused", actor="operator:ann", table_id="T-1")
    with pytest.raises(Forbidden):
        run_command(uow, lambda: _refuse(Forbidden("four eyes", audit=record)))
    assert uow.audit.records[chain_for("T-1")] == [record]
    assert uow.commits == 1   # the record's own transaction; the command's was not committed


def test_a_refusal_after_a_first_answer_gets_that_answer_and_keeps_no_record():
    uow = FakeUnitOfWork()
    record = AuditRecord("card_refused", actor="terminal", table_id="T-1")
    answer = run_command(uow, lambda: _refuse(Conflict("moved on", audit=record)),
                         answered_before=lambda: "the first answer")
    assert answer == "the first answer" and uow.audit.records == {} and uow.commits == 0
