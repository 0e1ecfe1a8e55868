"""Unit of work: one pooled connection, the repositories bound to it, and its transaction blocks."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

import psycopg
from psycopg_pool import ConnectionPool

from .repositories.accounting import AccountingRepository
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
from .repositories.screens import ScreensRepository
from .repositories.shoes import ShoesRepository
from .repositories.staff import StaffRepository
from .repositories.table_rules import TableRulesRepository
from .repositories.table_transfers import TableTransfersRepository
from .repositories.tables import TablesRepository
from .repositories.traditional import TraditionalRepository
from .repositories.verifications import VerificationsRepository


class ShuffleSource(Protocol):
    """What a virtual shoe's shuffle draws from (the engine's RandomSource)."""

    def randbelow(self, n: int) -> int: ...


class UnitOfWork:
    """The repositories over one connection (in autocommit mode: see open_pool). A read on its own
    needs no transaction; what must commit or roll back together runs in a transaction() block.
    `shuffle_source`: what the virtual shoes its commands open are shuffled from; None, the house's
    own (the operating system's secure source)."""

    def __init__(self, conn: psycopg.Connection[Any], *, shuffle_source: ShuffleSource | None = None) -> None:
        self.conn = conn
        self.shuffle_source = shuffle_source
        self.tables = TablesRepository(conn)
        self.shoes = ShoesRepository(conn)
        self.rounds = RoundsRepository(conn)
        self.keys = KeysRepository(conn)
        self.idempotency = IdempotencyRepository(conn)
        self.outbox = OutboxRepository(conn)
        self.audit = AuditRepository(conn)
        self.audit_search = AuditSearchRepository(conn)
        self.traditional = TraditionalRepository(conn)
        self.table_transfers = TableTransfersRepository(conn)
        self.paytables = PaytablesRepository(conn)
        self.reports = ReportsRepository(conn)
        self.ledger = LedgerRepository(conn)
        self.staff = StaffRepository(conn)
        self.floor = FloorRepository(conn)
        self.verifications = VerificationsRepository(conn)
        self.evaluations = EvaluationsRepository(conn)
        self.table_rules = TableRulesRepository(conn)
        self.screens = ScreensRepository(conn)
        self.accounting = AccountingRepository(conn)

    @property
    def info(self) -> psycopg.ConnectionInfo:
        """The connection's server and session (psycopg's ConnectionInfo), for logs and tools."""
        return self.conn.info

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """psycopg's transaction block: what the block does commits when it ends, and is rolled
        back whole if it raises."""
        with self.conn.transaction():
            yield


@contextmanager
def unit_of_work(pool: ConnectionPool, *, timeout: float | None = None) -> Iterator[UnitOfWork]:
    """A unit of work on a connection of `pool` (waiting `timeout` seconds at most for one), given
    back when the block ends (the pool discards a connection that broke under it)."""
    with pool.connection(timeout=timeout) as conn:
        yield UnitOfWork(conn)
