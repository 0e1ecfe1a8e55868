"""A pipeline whose statements go to the server together: held in libpq's buffer until a result is read or it syncs."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial

import psycopg
from psycopg.generators import send
from psycopg.pq import TransactionStatus


class BatchedPipeline(psycopg.Pipeline):
    """psycopg's pipeline mode writes each statement to the socket as it is made: a system call
    for the app, and a wake-up for the server, per statement. This pipeline moves each statement
    into libpq's output buffer and writes the buffer once, when a result is read (with a flush
    request, as psycopg's pipeline does) or when the pipeline syncs or ends. The statements a
    request makes between two reads then reach the server in one write.

    A sync goes out in the same write as the statements before it, and no flush request follows
    it (the server sends what it has at a sync): psycopg's own pipeline writes the statements, then
    the sync, then a flush request, each a wake-up for the server.

    Results and errors are psycopg's: an error surfaces when a result is read, or at the latest
    at the sync that ends the pipeline, which is when psycopg's own pipeline guarantees it too.

    A transaction's BEGIN goes out with its sync, and nothing waits for their answers until the
    next statement's (_sync_gen): psycopg's own pipeline gives BEGIN a round trip of its own.

    It overrides four of psycopg's pipeline methods. Their behaviour is pinned by the psycopg
    versions in pyproject.toml and by tests/integration/store/test_batched_pipeline.py."""

    _sync_queued = False   # a sync waits in the command queue
    _synced = False        # the last thing written was a sync: the server will send every result

    def _enqueue_sync(self) -> None:
        """A sync (pipeline.sync(), a commit, the pipeline's end): what is queued goes out with it."""
        super()._enqueue_sync()
        self._sync_queued = True

    def _communicate_gen(self):
        """Statements made: into libpq's buffer, not yet onto the socket. A sync among them writes
        the buffer out (libpq's PQpipelineSync does), and what a full socket left over follows."""
        sync_queued, self._sync_queued = self._sync_queued, False
        self._buffer_commands()
        self._synced = sync_queued
        if sync_queued:
            yield from send(self.pgconn)

    def _fetch_gen(self, *, flush: bool):
        """A result wanted: every statement buffered goes with the flush request that asks for it,
        which a sync written last makes needless."""
        if self.command_queue:
            self._synced = False
            self._buffer_commands()
        yield from super()._fetch_gen(flush=flush and not self._synced)

    def _sync_gen(self):
        """psycopg syncs right after the BEGIN it queues before a transaction's first statement (so
        that libpq, told by the server, calls the connection in a transaction from then on, and the
        next statement queues no BEGIN of its own) and waits for the answer: a round trip for BEGIN
        alone. Here the BEGIN and its sync go to the server at once and nothing waits for them:
        their answers are read with the next statement's, in its round trip. Every other sync (a
        commit's, a rollback's, pipeline.sync()) is waited for, as psycopg does."""
        if self._begins_transaction():
            super()._enqueue_sync()   # psycopg's own: no result is waited for
            self._buffer_commands()   # libpq's PQpipelineSync writes BEGIN and the sync out
            return
        yield from super()._sync_gen()

    def _begins_transaction(self) -> bool:
        """Whether the last command queued is the BEGIN psycopg sends for an idle connection."""
        if not self.command_queue or self.pgconn.transaction_status != TransactionStatus.IDLE:
            return False
        command = self.command_queue[-1]
        return (isinstance(command, partial) and getattr(command.func, "__name__", None) == "send_query_params"
                and command.args[:1] == (self._conn._get_tx_start_command(),))

    def _buffer_commands(self) -> None:
        queue = self.command_queue
        while queue:
            queue.popleft()()


@contextmanager
def batched_pipeline(conn: psycopg.Connection) -> Iterator[BatchedPipeline]:
    """As `conn.pipeline()`, with a BatchedPipeline. Not nested: a connection has one pipeline."""
    with conn.lock:
        if conn._pipeline is not None:
            raise RuntimeError("the connection is in a pipeline already")
        pipeline = conn._pipeline = BatchedPipeline(conn)
    try:
        with pipeline:
            yield pipeline
    finally:
        with conn.lock:
            conn._pipeline = None
