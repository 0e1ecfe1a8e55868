"""Outages under terminal load, caused without touching the shared servers: the service's role
locked out of its own database (its connections ended), and a private Redis killed and started
again. Liveness answers within 100 ms throughout; readiness fails only for the database; the first
request after the database returns succeeds within 2 s; the terminals finish every round they
opened; every round settles once, the ledger holds the terminals' money, and the audit log
verifies."""
from __future__ import annotations

import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field

import psycopg
import pytest
import requests
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict

from bench.processes import RedisServer
from service.audit.verify import verify_database
from service.terminal.simulator import SimulatorConfig
from service.terminal.simulator import run as simulate
from service.terminal.stats import Stats

from .conftest import Api, Stack, fresh_database, make_key, wait_for

pytestmark = pytest.mark.integration

LIVENESS_BOUND = 0.1     # seconds
RECOVERY_BOUND = 2.0     # seconds from the return to the first success
OUTAGE = 6.0             # seconds: long enough for every kind of request to meet it


class LivenessProbe:
    """GET on the liveness listener every 50 ms from a process of its own (the terminals' threads
    in this one would add their own waits for the interpreter to the figures): seconds taken and
    the status of each, read when it stops."""

    SCRIPT = (
        "import http.client, sys, time\n"
        "host, port = sys.argv[1], int(sys.argv[2])\n"
        "while True:\n"
        "    started = time.monotonic()\n"
        "    try:\n"
        "        conn = http.client.HTTPConnection(host, port, timeout=5)\n"
        "        conn.request('GET', '/healthz')\n"
        "        status = conn.getresponse().status\n"
        "        conn.close()\n"
        "    except OSError:\n"
        "        status = 0\n"
        "    print(status, time.monotonic() - started, flush=True)\n"
        "    time.sleep(0.05)\n")

    def __init__(self, api: Api) -> None:
        host_port = api.liveness_url.split("//", 1)[1].split("/", 1)[0]
        host, port = host_port.rsplit(":", 1)
        self.process = subprocess.Popen([sys.executable, "-c", self.SCRIPT, host, port], stdout=subprocess.PIPE,
                                        text=True)

    def stop(self) -> list[tuple[int, float]]:
        self.process.terminate()
        out, _ = self.process.communicate(timeout=10)
        return [(int(status), float(took)) for status, took in (line.split() for line in out.splitlines())]


@dataclass
class Probe:
    """Polls a URL every `every` seconds in a thread, keeping (time, status, seconds taken)."""

    url: str
    every: float
    headers: dict = field(default_factory=dict)
    seen: list[tuple[float, int, float]] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def start(self) -> Probe:
        threading.Thread(target=self._run, daemon=True).start()
        return self

    def _run(self) -> None:
        session = requests.Session()
        session.trust_env = False
        while not self.stop.is_set():
            started = time.monotonic()
            try:
                status = session.get(self.url, headers=self.headers, timeout=5).status_code
            except requests.RequestException:
                status = 0
            self.seen.append((started, status, time.monotonic() - started))
            self.stop.wait(self.every)

    def between(self, start: float, end: float) -> list[tuple[float, int, float]]:
        return [entry for entry in self.seen if start <= entry[0] <= end]


class Load:
    """Terminals playing for `seconds` in a thread; their merged Stats once done."""

    def __init__(self, api: Api, admin_key: str, seconds: float, terminals: int = 2) -> None:
        self.config = SimulatorConfig(base_urls=(api.url,), table=f"OUT{uuid.uuid4().hex[:5]}", rounds=None,
                                      duration=seconds, seats=3, concurrency=terminals, seed=5,
                                      admin_key=admin_key, progress_every=0)
        self.stats: Stats | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        self.stats = simulate(self.config)

    def start(self) -> Load:
        self.thread.start()
        return self

    def join(self, timeout: float) -> Stats:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "the terminals did not finish"
        assert self.stats is not None
        return self.stats


@pytest.fixture
def outage_stack(processes, tmp_path):
    with fresh_database("outage") as database_url:
        redis = RedisServer(processes).start()
        stack = Stack(database_url, redis.url, processes, tmp_path / "metrics")
        # A worker for each client the tests run at once (two terminals, two probes that need the
        # database): during the outage a request's wait is its own, not a queue behind the others'.
        api = stack.api(workers=4)
        worker = stack.worker(concurrency=1)
        relay = stack.relay()
        try:
            yield stack, api, redis
        finally:
            for process in (api.process, worker, relay):
                processes.stop(process)
            redis.stop()


def owner(database_url: str) -> psycopg.Connection:
    return psycopg.connect(database_url, autocommit=True)


def lock_out_the_service(database_url: str) -> None:
    """The application's role can no longer connect to its database, and its sessions end: as a
    database server that stops answering looks to the service. The database alone (not the role,
    which the other tests' databases share) is closed to it; the owner, a superuser, still gets in."""
    name = conninfo_to_dict(database_url)["dbname"]
    with owner(database_url) as conn:
        conn.execute(sql.SQL("ALTER DATABASE {} CONNECTION LIMIT 0").format(sql.Identifier(name)))
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                     "WHERE datname = current_database() AND usename = 'pontoon_app'")


def let_the_service_in(database_url: str) -> None:
    name = conninfo_to_dict(database_url)["dbname"]
    with owner(database_url) as conn:
        conn.execute(sql.SQL("ALTER DATABASE {} CONNECTION LIMIT -1").format(sql.Identifier(name)))


def settled_once_and_verified(stack: Stack, stats: Stats) -> None:
    """Every round the terminals played settled once; the ledger's money is the money the
    terminals read from the rounds' transcripts; the audit log verifies."""
    with owner(stack.database_url) as conn:
        wait_for(lambda: conn.execute("SELECT count(*) FROM rounds WHERE status <> 'settled'").fetchone()[0] == 0,
                 60, "every round to settle")
        (rounds,) = conn.execute("SELECT count(*) FROM rounds").fetchone()
        assert rounds == stats.rounds == len(set(stats.round_ids))
        staked, returned = conn.execute("SELECT coalesce(sum(stake), 0), coalesce(sum(returned), 0) "
                                        "FROM ledger_entries").fetchone()
        assert (staked, returned) == (stats.staked, stats.returned)
        payouts, paid_seats = conn.execute(
            "SELECT count(*), count(DISTINCT (round_id, payload->>'seat')) FROM audit_log WHERE kind = 'payout'"
        ).fetchone()
        assert payouts == paid_seats
        report = verify_database(conn)
        assert report.intact, report.problems


def test_a_database_outage_under_load(outage_stack, dump_logs_on_failure):
    stack, api, _redis = outage_stack
    admin_key = make_key(stack.database_url, "admin")
    liveness = LivenessProbe(api)
    readiness = Probe(api.url + "/readyz", 0.2).start()
    # A request that needs the database, every 50 ms: when did it fail, when did it first succeed.
    reads = Probe(api.url + "/v1/paytables", 0.05, {"Authorization": f"Bearer {admin_key}"}).start()
    load = Load(api, admin_key, seconds=OUTAGE + 10).start()
    try:
        wait_for(lambda: load.stats is not None or len(reads.seen) > 40, 30, "the terminals to be playing")
        time.sleep(2)
        went = time.monotonic()
        lock_out_the_service(stack.database_url)
        time.sleep(OUTAGE)
        let_the_service_in(stack.database_url)
        back = time.monotonic()
        stats = load.join(120)
        time.sleep(0.5)
    finally:
        let_the_service_in(stack.database_url)
        for probe in (readiness, reads):
            probe.stop.set()
        live = liveness.stop()

    # Liveness: always 200, always within 100 ms, before, during and after.
    assert len(live) > 100 and all(status == 200 for status, _ in live), live
    assert max(took for _, took in live) < LIVENESS_BOUND
    # Readiness and the API fail during the outage, within about a second and with a 503 ...
    during = [(status, took) for started, status, took in reads.between(went + 0.5, back) if started + took < back]
    assert during and all(status == 503 for status, _ in during), during
    assert max(took for _, took in during) < 1.5
    assert {status for started, status, took in readiness.between(went + 1.5, back) if started + took < back} == {503}
    # ... and the first request after the return succeeds within 2 s.
    first_success = next(started for started, status, _ in reads.seen if started >= back and status == 200)
    assert first_success - back < RECOVERY_BOUND
    print(f"database outage: liveness max {max(t for _, t in live) * 1000:.1f} ms; "
          f"503 after at most {max(t for _, t in during):.2f} s; first success {first_success - back:.2f} s "
          f"after the return; {stats.rounds} rounds, {stats.retries} retries")
    assert all(status == 200 for _, status, _ in readiness.between(back + RECOVERY_BOUND + 1, time.monotonic()))

    # The terminals waited the outage out and finished every round they opened, money read.
    assert not [error for error in stats.errors if error.startswith("gave up")], stats.errors
    assert stats.rounds > 0 and stats.money_unread == []
    settled_once_and_verified(stack, stats)


def test_a_broker_outage_under_load(outage_stack, dump_logs_on_failure):
    stack, api, redis = outage_stack
    admin_key = make_key(stack.database_url, "admin")
    liveness = LivenessProbe(api)
    readiness = Probe(api.url + "/readyz", 0.2).start()
    load = Load(api, admin_key, seconds=OUTAGE + 8).start()
    try:
        time.sleep(3)
        went = time.monotonic()
        redis.stop()
        time.sleep(OUTAGE)
        redis.start()
        back = time.monotonic()
        with owner(stack.database_url) as conn:
            (back_at,) = conn.execute("SELECT clock_timestamp()").fetchone()
            # What waited in the outbox goes out within 2 s of the broker's return.
            wait_for(lambda: conn.execute("SELECT count(*) FROM outbox WHERE published_at IS NULL AND created_at < %s",
                                          (back_at,)).fetchone()[0] == 0, 30, "the relay to publish the outbox")
            published = time.monotonic() - back
        stats = load.join(120)
    finally:
        readiness.stop.set()
        live = liveness.stop()

    assert len(live) > 100 and all(status == 200 for status, _ in live), live
    assert max(took for _, took in live) < LIVENESS_BOUND
    # The replica stays ready: rounds are dealt, and their settlement waits in the outbox.
    assert all(status == 200 for _, status, _ in readiness.seen), readiness.seen
    # The terminals never noticed: the API does not need the broker.
    assert stats.error_count == 0, stats.errors
    assert stats.rounds > 0 and stats.money_unread == []
    with owner(stack.database_url) as conn:
        wait_for(lambda: conn.execute("SELECT count(*) FROM rounds WHERE status <> 'settled'").fetchone()[0] == 0,
                 60, "every round to settle")
        settled = time.monotonic() - back
    assert published < RECOVERY_BOUND
    print(f"broker outage of {back - went:.1f} s: liveness max {max(t for _, t in live) * 1000:.1f} ms; "
          f"outbox published {published:.2f} s and every round settled {settled:.2f} s after the return")
    settled_once_and_verified(stack, stats)
