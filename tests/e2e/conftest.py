"""Fixtures for the end-to-end tests: a scratch database and the real service under gunicorn."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
import requests

from bench.processes import free_port, scratch_database, wait_for
from tests.conftest import ROOT
from tests.support.api_client import Api, http_sender
from tests.support.app_fixtures import chained_key

pytestmark = pytest.mark.integration

GUNICORN = str(Path(sys.executable).with_name("gunicorn"))


class Service:
    """The API as production runs it: gunicorn, its config, N workers, on a free local port."""

    def __init__(self, database_url: str, log_dir: Path, workers: int = 3) -> None:
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "DATABASE_URL": database_url, "PORT": str(self.port),
                    "WEB_CONCURRENCY": str(workers)}
        self.log_dir = log_dir
        self.process: subprocess.Popen | None = None
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        log = open(self.log_dir / f"gunicorn-{self.starts}.log", "wb")
        self.process = subprocess.Popen(
            [GUNICORN, "-c", "ops/gunicorn.conf.py", "service.app:create_app()"],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        wait_for(self._ready, 30, "gunicorn to become ready")

    def _ready(self) -> bool:
        if self.process is None or self.process.poll() is not None:
            raise RuntimeError(f"gunicorn exited: {self.logs()}")
        try:
            return requests.get(self.base_url + "/readyz", timeout=5).status_code == 200
        except requests.RequestException:
            return False

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def worker_pids(self) -> set[int]:
        if self.process is None:
            raise RuntimeError("gunicorn is not running")
        pid = self.process.pid
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        return {int(pid) for pid in children}

    def serving_as(self) -> dict[str, int]:
        """Each name a worker answered under (X-Served-By) -> its pid, from the line it logged as it
        started serving: the header itself never carries the pid."""
        names: dict[str, int] = {}
        for path in sorted(self.log_dir.glob("gunicorn-*.log")):
            for line in path.read_text(errors="replace").splitlines():
                if line.startswith("{") and '"event":"serving"' in line:
                    entry = json.loads(line)
                    names[entry["served_by"]] = entry["pid"]
        return names

    def pid_serving_as(self, name: str | None) -> int:
        return self.serving_as()[str(name)]

    def worker_names(self) -> set[str]:
        """The names the live workers answer under."""
        live = self.worker_pids()
        return {name for name, pid in self.serving_as().items() if pid in live}

    def logs(self) -> str:
        return "\n".join(p.read_text(errors="replace")[-3000:] for p in sorted(self.log_dir.glob("gunicorn-*.log")))


@pytest.fixture(scope="session")
def database_url():
    with scratch_database("pontoon_e2e") as url:
        yield url


@pytest.fixture
def service(database_url, tmp_path):
    running = Service(database_url, tmp_path)
    running.start()
    yield running
    running.stop()


@pytest.fixture
def make_key(database_url):
    def make(role: str, table: str | None = None) -> str:
        with psycopg.connect(database_url) as conn:
            return chained_key(conn, role, table, f"e2e {role}")
    return make


@pytest.fixture
def as_key(service):
    return lambda secret: Api(http_sender(service.base_url), secret)
