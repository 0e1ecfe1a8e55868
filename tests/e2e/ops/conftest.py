"""Fixtures for the operations tests: fresh databases, a private Redis, and real gunicorn, Celery and
relay processes (multiprocess metrics, JSON logs), each started here and killed here."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
import pytest
import requests

from bench.processes import Processes, RedisServer, free_port, scratch_database, wait_for  # noqa: F401  (the ops tests import them from here)
from service.config import Settings
from service.worker.celery_app import queue_for
from tests.support.app_fixtures import chained_key

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[3]
BIN = Path(sys.executable).parent


def fresh_database(purpose: str):
    """A new, migrated database with a unique name, dropped afterwards whatever happened."""
    return scratch_database(f"pontoon_test_ops_{purpose}")


def make_key(database_url: str, role: str, table: str | None = None) -> str:
    with psycopg.connect(database_url) as conn:
        return chained_key(conn, role, table, f"ops test {role}")


class Stack:
    """The service's processes as ops/stack.sh runs them, started one by one so a test can run
    several API instances or workers against the same database and broker."""

    def __init__(self, database_url: str, broker_url: str, processes: Processes, metrics_dir: Path) -> None:
        self.database_url = database_url
        self.processes = processes
        metrics_dir.mkdir(parents=True, exist_ok=True)
        self.metrics_dir = metrics_dir
        self.env = {**os.environ, "DATABASE_URL": database_url, "BROKER_URL": broker_url,
                    "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir), "PYTHONUNBUFFERED": "1"}
        self.apis: list[Api] = []

    def api(self, workers: int = 2) -> Api:
        port, health_port = free_port(), free_port()
        name = f"api-{port}"
        process = self.processes.spawn(name, [
            str(BIN / "gunicorn"), "-c", "ops/gunicorn.conf.py",
            "--logger-class", "service.observability.gunicorn_logger.JsonLogger",
            "service.app:create_app()"], {**self.env, "PORT": str(port), "WEB_CONCURRENCY": str(workers),
                                          "PONTOON_HEALTH_PORT": str(health_port)})
        api = Api(port, process, name, self.processes, health_port)
        wait_for(api.ready, 60, f"gunicorn on port {port}: {self.processes.log(name)[-2000:]}", every=0.2)
        self.apis.append(api)
        return api

    def worker(self, concurrency: int = 1) -> subprocess.Popen:
        name = f"worker-{uuid.uuid4().hex[:6]}"
        process = self.processes.spawn(name, [
            str(BIN / "celery"), "-A", "service.observability.celery_worker", "worker", "--loglevel=INFO",
            f"--concurrency={concurrency}", "--without-gossip", "--without-mingle", "--without-heartbeat",
            "-Q", queue_for(Settings.from_env(self.env)), "-n", f"{name}@%h"], self.env)
        wait_for(lambda: "ready." in self.processes.log(name) or process.poll() is not None, 60,
                 f"celery worker {name}", every=0.2)
        assert process.poll() is None, self.processes.log(name)
        return process

    def relay(self) -> subprocess.Popen:
        return self.processes.spawn("relay", [sys.executable, "-m", "service.observability.relay", "--interval", "0.1",
                                              "--sweep-after", "5", "--sweep-every", "1"], self.env)

    def awaiting_settlement(self) -> int:
        with psycopg.connect(self.database_url) as conn:
            (waiting,) = conn.execute("SELECT count(*) FROM rounds WHERE status = 'complete'").fetchone() or (0,)
            return waiting


class Api:
    def __init__(self, port: int, process: subprocess.Popen, name: str, processes: Processes,
                 health_port: int) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.liveness_url = f"http://127.0.0.1:{health_port}/healthz"   # the master's own listener
        self.process = process
        self.name = name
        self.processes = processes

    def ready(self) -> bool:
        assert self.process.poll() is None, self.processes.log(self.name)
        try:
            return requests.get(self.url + "/readyz", timeout=2).status_code == 200
        except requests.RequestException:
            return False

    def worker_pids(self) -> set[int]:
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split()
        return {int(pid) for pid in children}

    def worker_names(self) -> set[str]:
        """The names (X-Served-By) the live workers answer under, from the line each logged as it
        started serving: the header never carries a pid."""
        live = self.worker_pids()
        return {line["served_by"] for line in self.log_lines()
                if line.get("event") == "serving" and line.get("pid") in live}

    def metrics(self) -> str:
        reply = requests.get(self.url + "/metrics", timeout=10)
        assert reply.status_code == 200, reply.text
        return reply.text

    def log_lines(self) -> list[dict]:
        """The instance's log, parsed: every line must be a JSON object."""
        lines = []
        for line in self.processes.log(self.name).splitlines():
            if line.strip():
                lines.append(json.loads(line))
        return lines


def sample(metrics_text: str, name: str, **labels: str) -> float:
    """The sum of `name`'s samples whose labels include `labels` (0 when there are none)."""
    from prometheus_client.parser import text_string_to_metric_families

    total = 0.0
    for family in text_string_to_metric_families(metrics_text):
        for s in family.samples:
            if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()):
                total += s.value
    return total


@pytest.fixture(scope="session")
def processes(tmp_path_factory):
    running = Processes(tmp_path_factory.mktemp("ops-processes"))
    yield running
    running.stop_all()


@pytest.fixture(scope="session")
def redis_server(processes):
    return RedisServer(processes).start()


@pytest.fixture(scope="session")
def ops_database():
    with fresh_database("shared") as url:
        yield url


@pytest.fixture(scope="session")
def stack(ops_database, redis_server, processes, tmp_path_factory):
    """One API instance (two gunicorn workers), one Celery worker and the relay, sharing one
    metrics directory as ops/stack.sh arranges."""
    running = Stack(ops_database, redis_server.url, processes, tmp_path_factory.mktemp("metrics"))
    running.api(workers=2)
    running.worker(concurrency=1)
    running.relay()
    return running


@pytest.fixture(scope="session")
def admin_key(ops_database) -> str:
    return make_key(ops_database, "admin")


@pytest.fixture
def dump_logs_on_failure(processes, request):
    yield
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        print(processes.logs())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)
