"""Scrape-time figures: the settlement backlog read from the database, and this process's pool."""
from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol

import psycopg
from prometheus_client.core import GaugeMetricFamily
from psycopg_pool import ConnectionPool

from .definitions import metrics

QUERY_TIMEOUT = 2.0   # seconds a scrape waits for a pool connection

log = logging.getLogger(__name__)


class Backlog(Protocol):
    """What waits to be settled, as the store reads it."""

    @property
    def rounds_awaiting(self) -> int: ...

    @property
    def oldest_awaiting_seconds(self) -> float: ...

    @property
    def outbox_unpublished(self) -> int: ...


BacklogQuery = Callable[[psycopg.Connection[Any]], Backlog]


class SettlementBacklogCollector:
    """Rounds awaiting settlement, the oldest one's age, and the outbox's unpublished rows, read
    when scraped (by `query`, on a connection of `pool`). Registered on each scrape's own registry
    (never the shared one), which is the only place custom collectors work in multiprocess mode."""

    def __init__(self, pool: ConnectionPool, query: BacklogQuery) -> None:
        self.pool = pool
        self.query = query

    def collect(self):
        up = GaugeMetricFamily("pontoon_metrics_database_up", "1 when the scrape could read the database")
        try:
            with self.pool.connection(timeout=QUERY_TIMEOUT) as conn:
                backlog = self.query(conn)
        except Exception as exc:  # a scrape reports the database as down; it moves no money
            log.warning("metrics: settlement backlog unreadable: %s", type(exc).__name__)
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield up
        yield GaugeMetricFamily("pontoon_rounds_awaiting_settlement", "Rounds complete and not yet settled",
                                value=backlog.rounds_awaiting)
        yield GaugeMetricFamily("pontoon_oldest_round_awaiting_settlement_seconds",
                                "Age of the oldest round complete and not yet settled (0: none)",
                                value=backlog.oldest_awaiting_seconds)
        yield GaugeMetricFamily("pontoon_outbox_depth", "Outbox rows not yet published to the workers",
                                value=backlog.outbox_unpublished)


def record_pool_usage(pool: ConnectionPool) -> None:
    """Copy this process's pool figures into the live-summed gauges (called after requests and
    on each scrape). Connections in use are counted as requests take and give them back
    (connection_taken, connection_returned): sampled here, between requests, they would always
    read none."""
    stats = pool.get_stats()
    gauges = metrics()
    gauges.pool_connections.labels("size").set(stats.get("pool_size", 0))
    gauges.pool_connections.labels("available").set(stats.get("pool_available", 0))
    gauges.pool_connections.labels("max").set(stats.get("pool_max", 0))
    gauges.pool_requests_waiting.set(stats.get("requests_waiting", 0))


def connection_taken() -> None:
    metrics().pool_connections.labels("in_use").inc()


def connection_returned() -> None:
    metrics().pool_connections.labels("in_use").dec()
