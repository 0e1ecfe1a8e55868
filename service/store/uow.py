"""Unit of work: one pooled connection, its transactions, and the repositories bound to them."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from .repositories.audit import AuditRepository
from .repositories.audit_search import AuditSearchRepository
from .repositories.evaluations import EvaluationsRepository
from .repositories.floor import FloorRepository
from .repositories.idempotency import IdempotencyRepository
from .repositories.keys import KeysRepository
from .repositories.ledger import LedgerRepository
from .repositories.outbox import OutboxRepository
from .repositories.paytables import PaytablesRepository
from .repositories.reports import ReportsRepository
from .repositories.rounds import RoundsRepository
from .repositories.shoes import ShoesRepository
from .repositories.staff import StaffRepository
from .repositories.table_transfers import TableTransfersRepository
from .repositories.tables import TablesRepository
from .repositories.traditional import TraditionalRepository
from .repositories.verifications import VerificationsRepository
from .transaction import Transaction


class UnitOfWork:
    """The repositories over one connection's transaction. Nothing is committed but by commit();
    whatever is left uncommitted is rolled back when the unit of work ends (unit_of_work())."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self._tx = tx = Transaction(conn)
        self.tables = TablesRepository(tx)
        self.shoes = ShoesRepository(tx)
        self.rounds = RoundsRepository(tx)
        self.keys = KeysRepository(tx)
        self.idempotency = IdempotencyRepository(tx)
        self.outbox = OutboxRepository(tx)
        self.audit = AuditRepository(tx)
        self.audit_search = AuditSearchRepository(tx)
        self.traditional = TraditionalRepository(tx)
        self.table_transfers = TableTransfersRepository(tx)
        self.paytables = PaytablesRepository(tx)
        self.reports = ReportsRepository(tx)
        self.ledger = LedgerRepository(tx)
        self.staff = StaffRepository(tx)
        self.floor = FloorRepository(tx)
        self.verifications = VerificationsRepository(tx)
        self.evaluations = EvaluationsRepository(tx)

    @property
    def info(self) -> psycopg.ConnectionInfo:
        """The connection's server and session (psycopg's ConnectionInfo), for logs and tools."""
        return self._tx.info

    @contextmanager
    def pipeline(self) -> Iterator[None]:
        """psycopg's pipeline mode for the block: a statement whose result is not read waits to be
        answered with the next one that is read, or with the block's end (a sync). The block's
        transaction is opened and committed by statements in the pipeline (Transaction), so a
        request's BEGIN goes with its first read and its COMMIT with its last writes. A failure
        of any statement is raised at the latest as the block ends."""
        with self._tx.conn.pipeline():
            yield

    def commit(self) -> None:
        """Commit: done on return outside a pipeline; in one, its outcome (and that of every
        statement before it) is known at the pipeline's next read or its end."""
        self._tx.commit()

    def rollback(self) -> None:
        self._tx.rollback()

    def close(self) -> None:
        """Roll back what was not committed. A connection that broke under the request (its server
        gone mid-pipeline, say) is closed: neither committed on its way back nor handed to another
        request; the server has rolled back whatever it had not committed."""
        conn = self._tx.conn
        try:
            if not conn.closed:
                self._tx.rollback()
        except psycopg.Error:
            conn.close()


@contextmanager
def unit_of_work(pool: ConnectionPool, *, timeout: float | None = None) -> Iterator[UnitOfWork]:
    """A unit of work on a connection of `pool` (autocommit: see open_pool; waiting `timeout`
    seconds at most for one), given back when the block ends, rolled back if not committed."""
    with pool.connection(timeout=timeout) as conn:
        uow = UnitOfWork(conn)
        try:
            yield uow
        finally:
            uow.close()
