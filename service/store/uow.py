"""Unit of work: one pooled connection, one transaction, the repositories bound to it."""
from __future__ import annotations

from contextlib import AbstractContextManager

import psycopg
from psycopg_pool import ConnectionPool

from .batched_pipeline import BatchedPipeline, batched_pipeline
from .repositories.idempotency import IdempotencyRepository
from .repositories.keys import KeysRepository
from .repositories.outbox import OutboxRepository
from .repositories.rounds import RoundsRepository
from .repositories.shoes import ShoesRepository
from .repositories.tables import TablesRepository


class UnitOfWork:
    """`with UnitOfWork(pool) as uow: ...; uow.commit()` — anything not committed is rolled back
    when the block ends, whether it ends by an exception or not."""

    conn: psycopg.Connection

    def __init__(self, pool: ConnectionPool) -> None:
        self._pool = pool
        self._lease = None

    def __enter__(self) -> "UnitOfWork":
        self._lease = self._pool.connection()
        self.conn = conn = self._lease.__enter__()
        self.tables = TablesRepository(conn)
        self.shoes = ShoesRepository(conn)
        self.rounds = RoundsRepository(conn)
        self.keys = KeysRepository(conn)
        self.idempotency = IdempotencyRepository(conn)
        self.outbox = OutboxRepository(conn)
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        lease, self._lease = self._lease, None
        try:
            if not self.conn.closed:
                self.conn.rollback()
        except psycopg.Error:
            # The connection broke under the request (its server went away mid-pipeline, say):
            # nothing more can be said on it. Closed, it is neither committed on its way back nor
            # handed to another request; the server has rolled back whatever it had not committed,
            # and the request's own error (a 503) stands.
            self.conn.close()
        finally:
            lease.__exit__(exc_type, exc, tb)

    def commit(self) -> None:
        self.conn.commit()
        self.rounds.forget_sent()

    def pipeline(self) -> AbstractContextManager[BatchedPipeline]:
        """The connection in pipeline mode, its statements sent together (BatchedPipeline): a
        statement whose result is not read waits in the client and goes with the next read, or
        with the commit."""
        return batched_pipeline(self.conn)

    def commit_with_pipeline(self) -> None:
        """Inside a pipeline block: COMMIT as the block's last statement, sent with the Sync that
        ends the block, so both cost one round trip (commit() syncs at once, and the block's end
        then syncs again). Whether it committed is known as the block ends: a failure of this or
        any earlier statement is raised there."""
        self.conn.execute("COMMIT", prepare=False)

    def rollback(self) -> None:
        self.conn.rollback()
        self.rounds.forget_sent()
