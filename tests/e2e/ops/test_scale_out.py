"""Scale-out on one machine: two API instances on two ports and two Celery worker processes
against one database and one broker. A round's requests alternate between the instances (a
round-robin balancer), and every round settles."""
from __future__ import annotations

import re
import uuid

import psycopg
import pytest

from bench.processes import RedisServer
from service.terminal.client import Reply
from service.terminal.simulator import SimulatorConfig
from service.terminal.simulator import run as simulate

from .conftest import Stack, fresh_database, make_key, wait_for


@pytest.fixture
def scaled_out(processes, tmp_path):
    with fresh_database("scale") as database_url:
        redis = RedisServer(processes).start()
        stack = Stack(database_url, redis.url, processes, tmp_path / "metrics")
        first, second = stack.api(workers=2), stack.api(workers=2)
        workers = [stack.worker(concurrency=1), stack.worker(concurrency=1)]
        stack.relay()
        try:
            yield stack, first, second, workers
        finally:
            for api in (first, second):
                processes.stop(api.process)
            for worker in workers:
                processes.stop(worker)
            redis.stop()


def test_two_instances_two_workers_one_database(scaled_out, dump_logs_on_failure):
    stack, first, second, workers = scaled_out
    admin_key = make_key(stack.database_url, "admin")
    replies: list[Reply] = []
    table = f"SCALE{uuid.uuid4().hex[:5]}"
    stats = simulate(SimulatorConfig(base_urls=(first.url, second.url), table=table, rounds=16, seats=3, seed=21,
                                     admin_key=admin_key, progress_every=0, on_reply=replies.append))
    assert stats.error_count == 0, stats.errors
    assert stats.rounds == 16

    # The terminal's requests alternate between the instances, each answered by one of that
    # instance's own worker processes ...
    urls = [reply.base_url for reply in replies]
    assert all(a != b for a, b in zip(urls, urls[1:])), urls
    names = {first.url: first.worker_names(), second.url: second.worker_names()}
    assert all(reply.served_by in names[reply.base_url] for reply in replies)
    # ... so every round was played on both: opened on one, its decisions split between them.
    instances_of: dict[str, set[str]] = {}
    for reply in replies:
        if reply.ok and isinstance(reply.body, dict) and reply.body.get("round_id") and "status" in reply.body:
            instances_of.setdefault(str(reply.body["round_id"]), set()).add(reply.base_url)
    multi_request = [round_id for round_id in stats.round_ids if len(instances_of.get(round_id, ())) == 2]
    assert len(multi_request) >= 8, instances_of

    # Both workers take settlement work from the one broker; every round ends settled exactly once.
    wait_for(lambda: stack.awaiting_settlement() == 0, 90, "every round to be settled")
    with psycopg.connect(stack.database_url) as conn:
        settled = conn.execute("SELECT count(*) FROM rounds WHERE status = 'settled' AND table_id = %s",
                               (table,)).fetchone()[0]
        payouts = conn.execute("SELECT count(*) FROM audit_log WHERE kind = 'payout' AND table_id = %s",
                               (table,)).fetchone()[0]
    assert settled == 16 and payouts == 16 * 3
    for worker in workers:
        assert worker.poll() is None
        # A task received, not the task's name in the start-up banner every worker prints.
        log = stack.processes.log(stack.processes.name_of(worker))
        assert re.search(r"pontoon\.settle_rounds\[[0-9a-f-]+\] received", log), "each worker settled some"
