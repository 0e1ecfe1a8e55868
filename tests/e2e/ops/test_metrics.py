"""/metrics under real gunicorn in multiprocess mode: requests, rounds and money counted across
workers and the settlement worker; live gauges dropped with a dead worker; nothing counted twice."""
from __future__ import annotations

import os
import signal
import sys
import uuid

import requests
from flask import Flask

from service.app import create_app
from service.config import Settings
from service.games import family_named
from service.metrics.flask_hooks import defer_until_committed, install
from service.terminal.simulator import SimulatorConfig
from service.terminal.simulator import run as simulate

from .conftest import free_port, sample, wait_for

ROUNDS_ROUTE = "/v1/tables/<table_id:table_id>/rounds"
ACTIONS_ROUTE = "/v1/rounds/<uuid:round_id>/actions"


def test_metrics_count_requests_rounds_and_money_across_processes(stack, admin_key, dump_logs_on_failure):
    api = stack.apis[0]
    wait_for(lambda: stack.awaiting_settlement() == 0, 60, "earlier tests' rounds to settle")
    before = api.metrics()
    served_by: set[str] = set()
    table = f"MET{uuid.uuid4().hex[:5]}"
    config = SimulatorConfig(base_urls=(api.url,), table=table, rounds=12, concurrency=2, seed=7,
                             admin_key=admin_key, progress_every=0)
    stats = simulate(config)
    assert stats.error_count == 0, stats.errors
    wait_for(lambda: stack.awaiting_settlement() == 0, 60, "the rounds to settle")
    after = api.metrics()

    def delta(name: str, **labels: str) -> float:
        return sample(after, name, **labels) - sample(before, name, **labels)

    # Every request made is counted once, whichever worker answered it.
    assert delta("pontoon_http_requests_total", endpoint=ROUNDS_ROUTE, method="POST", status="201") == 12
    assert delta("pontoon_http_requests_total", endpoint=ACTIONS_ROUTE, method="POST", status="200") == \
        sum(stats.decisions.values())
    assert delta("pontoon_http_request_duration_seconds_count", endpoint=ACTIONS_ROUTE, method="POST") == \
        sum(stats.decisions.values())
    # Rounds by table and outcome (from the API), settled rounds and money by kind (from the worker).
    tables = [f"{table}-1", f"{table}-2"]
    assert sum(sample(after, "pontoon_rounds_completed_total", table=t) for t in tables) == 12
    assert sum(sample(after, "pontoon_rounds_settled_total", table=t) for t in tables) == 12
    staked = sum(sample(after, "pontoon_money_staked_cents_total", table=t) for t in tables)
    returned = sum(sample(after, "pontoon_money_returned_cents_total", table=t) for t in tables)
    assert (staked, returned) == (stats.staked, stats.returned), "the ledger's money is what the terminals replayed"
    assert sample(after, "pontoon_money_staked_cents_total", table=tables[0], kind="main") > 0
    assert delta("pontoon_settlement_lag_seconds_count") == 12
    assert sample(after, "pontoon_rounds_awaiting_settlement") == 0
    assert sample(after, "pontoon_outbox_depth") == 0
    assert sample(after, "pontoon_metrics_database_up") == 1
    assert sample(after, "pontoon_db_pool_connections", state="max") >= 2 * 4, "both workers' pools, summed"

    for _ in range(40):
        served_by.add(requests.get(api.url + "/healthz", timeout=5).headers["X-Served-By"])
    assert served_by <= api.worker_names()


def test_a_dead_workers_live_gauges_go_and_its_counts_stay(stack, dump_logs_on_failure):
    api = stack.apis[0]
    for _ in range(10):
        requests.get(api.url + "/healthz", timeout=5)
    counted = sample(api.metrics(), "pontoon_http_requests_total", endpoint="/healthz")
    victim = max(api.worker_pids())
    live_gauges = stack.metrics_dir / f"gauge_livesum_{victim}.db"
    wait_for(live_gauges.exists, 10, "the victim's live gauges")   # written after its requests
    os.kill(victim, signal.SIGKILL)
    wait_for(lambda: victim not in api.worker_pids() and len(api.worker_pids()) == 2, 30, "a replacement worker")
    wait_for(lambda: not live_gauges.exists(), 10, "child_exit to drop the dead worker's live gauges")
    assert sample(api.metrics(), "pontoon_http_requests_total", endpoint="/healthz") >= counted


def test_metrics_token_when_one_is_set(ops_database):
    app = create_app(Settings.from_env({**os.environ, "DATABASE_URL": ops_database,
                                        "PONTOON_METRICS_TOKEN": "scrape-me"}))
    try:
        client = app.test_client()
        assert client.get("/metrics").status_code == 401
        assert client.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 401
        reply = client.get("/metrics", headers={"Authorization": "Bearer scrape-me"})
        assert reply.status_code == 200 and b"pontoon_http_requests_total" in reply.data
    finally:
        app.extensions["pontoon.pool"].close()


def test_an_observation_held_for_a_failed_request_is_dropped():
    app = Flask("held")
    install(app)
    counted = []

    @app.post("/ok")
    def fine():
        assert defer_until_committed(lambda: counted.append("ok"))
        return {}, 200

    @app.post("/refused")
    def refused():
        assert defer_until_committed(lambda: counted.append("refused"))
        return {}, 409

    client = app.test_client()
    client.post("/ok")
    client.post("/refused")
    assert counted == ["ok"]
    assert not defer_until_committed(lambda: None), "outside a request there is nothing to wait for"


def test_worker_host_exposition_reads_the_same_files(stack, processes):
    port = free_port()
    server = processes.spawn(f"metrics-serve-{port}",
                             [sys.executable, "-m", "service.metrics.serve", "--port", str(port)], stack.env)
    try:
        def scraped():
            try:
                reply = requests.get(f"http://127.0.0.1:{port}/metrics", timeout=2)
            except requests.RequestException:
                return None
            return reply.text if reply.status_code == 200 else None

        text = wait_for(scraped, 20, "the worker-host exposition")
        assert sample(text, "pontoon_http_requests_total") > 0, "the API workers' files, read from the same directory"
    finally:
        processes.stop(server)


def test_round_outcomes_for_both_kinds_of_game():
    round_outcome = family_named("canberra").outcome

    def seats(*nets: int) -> dict:
        return {"seats": [{"seat": n, "net": net} for n, net in enumerate(nets, 1)]}

    assert round_outcome(seats(-500, 200)) == "house_won"
    assert round_outcome(seats(500, -200)) == "players_won"
    assert round_outcome(seats(500, -500)) == "push"

    def banked(net: int) -> dict:
        return {"banker": {"net": net}, "players": [{"seat": 1, "net": -net}]}

    banked_outcome = family_named("traditional").outcome
    assert [banked_outcome(banked(n)) for n in (300, -300, 0)] == ["banker_won", "players_won", "push"]
