"""What a scrape answers: every process's metric files (or this process's registry) and the
scrape-time database figures, in the Prometheus text format."""
from __future__ import annotations

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest, multiprocess
from psycopg_pool import ConnectionPool

from .collectors import BacklogQuery, SettlementBacklogCollector, record_pool_usage
from .definitions import metrics
from .multiproc import multiprocess_dir


class _RegistryOf:
    """Puts one registry's metrics into another (single-process mode)."""

    def __init__(self, registry: CollectorRegistry) -> None:
        self.registry = registry

    def collect(self):
        yield from self.registry.collect()


def scrape(pool: ConnectionPool | None, backlog: BacklogQuery | None = None) -> tuple[bytes, str]:
    """The exposition body and its content type. A fresh registry per scrape, as multiprocess
    mode requires: the MultiProcessCollector reads every process's files as they are now. With a
    pool and a backlog query, the settlement backlog is read too."""
    registry = CollectorRegistry(auto_describe=False)
    directory = multiprocess_dir()
    if pool is not None:
        record_pool_usage(pool)
    if directory:
        multiprocess.MultiProcessCollector(registry, path=directory)
    else:
        own = metrics().registry
        assert own is not None, "a single process's metrics have a registry of their own"
        registry.register(_RegistryOf(own))
    if pool is not None and backlog is not None:
        registry.register(SettlementBacklogCollector(pool, backlog))
    return generate_latest(registry), CONTENT_TYPE_LATEST
