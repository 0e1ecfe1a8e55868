"""The metric objects, built once per process on first use (never at import)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

from .multiproc import multiprocess_dir

# Seconds. The API's requests take milliseconds; the tail buckets catch lock waits and outages.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.05, 0.075, 0.1, 0.25, 0.5, 1.0,
                   2.5, 5.0, 10.0)
# Complete to settled: the relay polls every 0.2 s, so under a second is normal; the sweep's 60 s
# and beyond mean lost messages or a stalled worker.
SETTLEMENT_LAG_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 900.0)


@dataclass(frozen=True)
class Metrics:
    registry: CollectorRegistry | None    # None in multiprocess mode: the shared files are the registry
    http_requests: Counter                # method, endpoint (the URL rule), status
    http_latency: Histogram               # method, endpoint
    rounds_completed: Counter             # table, outcome
    rounds_settled: Counter               # table
    money_staked: Counter                 # table, kind (main, split, double, insurance, pair, ...)
    money_returned: Counter               # table, kind
    settlement_lag: Histogram             # seconds from complete to settled
    pool_connections: Gauge               # state: size, available, in_use, max (summed over live processes)
    pool_requests_waiting: Gauge          # checkouts waiting for a connection
    access_refused: Counter               # status, reason: requests refused before a valid key was known


@cache
def metrics() -> Metrics:
    """This process's metric objects. In multiprocess mode they write to per-process files and
    belong to no registry (a scrape reads the files); otherwise to a private registry that
    /metrics serves."""
    registry = None if multiprocess_dir() else CollectorRegistry(auto_describe=True)
    return Metrics(
        registry=registry,
        http_requests=Counter("pontoon_http_requests", "HTTP requests answered",
                              ["method", "endpoint", "status"], registry=registry),
        http_latency=Histogram("pontoon_http_request_duration_seconds", "Time to answer an HTTP request",
                               ["method", "endpoint"], buckets=LATENCY_BUCKETS, registry=registry),
        rounds_completed=Counter("pontoon_rounds_completed", "Rounds completed (committed), by table and outcome",
                                 ["table", "outcome"], registry=registry),
        rounds_settled=Counter("pontoon_rounds_settled", "Rounds settled into the ledger", ["table"],
                               registry=registry),
        money_staked=Counter("pontoon_money_staked_cents", "Cents staked, from the ledger as rounds settle",
                             ["table", "kind"], registry=registry),
        money_returned=Counter("pontoon_money_returned_cents", "Cents returned to players, from the ledger "
                               "as rounds settle", ["table", "kind"], registry=registry),
        settlement_lag=Histogram("pontoon_settlement_lag_seconds", "Seconds from a round's completion to its "
                                 "settlement", buckets=SETTLEMENT_LAG_BUCKETS, registry=registry),
        pool_connections=Gauge("pontoon_db_pool_connections", "Database pool connections by state, summed over "
                               "the live API processes", ["state"], multiprocess_mode="livesum", registry=registry),
        pool_requests_waiting=Gauge("pontoon_db_pool_requests_waiting", "Checkouts waiting for a pool connection",
                                    multiprocess_mode="livesum", registry=registry),
        access_refused=Counter("pontoon_access_refused", "Requests refused before a valid key was known (no key, "
                               "a malformed or unknown one)", ["status", "reason"], registry=registry),
    )
