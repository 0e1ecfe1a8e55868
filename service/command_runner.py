"""One command run the same way by every adapter: committed when it succeeds, rolled back whole
when it fails, and the audit record a refusal names kept even so."""
from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import psycopg

from .refusals import CommandRefused
from .store.repositories.audit import AuditRecord, chain_for
from .store.repositories.idempotency import IDEMPOTENCY_KEYS_PRIMARY_KEY
from .store.uow import UnitOfWork

T = TypeVar("T")


def run_command(uow: UnitOfWork, work: Callable[[], T], *,
                answered_before: Callable[[], T | None] | None = None) -> T:
    """`work()` in one transaction of `uow`: committed when it returns, rolled back when it raises.

    A CommandRefused that names an audit record (a card the shoe refused, an operator approving
    their own draft) keeps that record in a transaction of its own, then goes on to the adapter,
    which answers it with the refusal's status.

    `answered_before`, for a command that may be a retry (one with an Idempotency-Key): the answer
    its first run committed, if one did. A retry whose record of being answered meets the first's
    (IdempotencyRepository.store), or that fails in any way after the first committed (the first
    moved the round on, say), gets that answer back and leaves nothing of its own, not even a
    refusal's record."""
    try:
        with uow.transaction():
            return work()
    except psycopg.errors.UniqueViolation as exc:
        if answered_before is None or exc.diag.constraint_name != IDEMPOTENCY_KEYS_PRIMARY_KEY:
            raise
        first = answered_before()
        if first is None:   # its row is never deleted, and the insert found it committed
            raise LookupError("an Idempotency-Key was found taken but has no stored answer") from exc
        return first
    except Exception as exc:
        first = answered_before() if answered_before is not None else None
        if first is not None:
            return first
        if isinstance(exc, CommandRefused) and exc.audit is not None:
            keep_record(uow, exc.audit)
        if isinstance(exc, CommandRefused) and exc.keep is not None:
            with uow.transaction():
                exc.keep(uow)
        raise


def keep_record(uow: UnitOfWork, record: AuditRecord) -> None:
    """Append one audit record in a transaction of its own (a refusal's, after its command's
    transaction was rolled back)."""
    with uow.transaction():
        uow.audit.append(chain_for(record.table_id), [record])
