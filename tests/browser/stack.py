"""The live stack the browser tests drive: a private Redis, the API under gunicorn, a Celery
settlement worker and the outbox relay, as ops/stack.sh runs them, over one scratch database."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Collection
from pathlib import Path

import requests

from bench.processes import Processes, RedisServer, wait_for

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
# The ports this suite may take (the API's and its Redis's), so that it never meets another stack.
PORTS = range(8640, 8650)


def port_in_range(taken: Collection[int] = ()) -> int:
    """The first port of PORTS nobody is listening on (and not already handed out here)."""
    for port in PORTS:
        if port in taken:
            continue
        with socket.socket() as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"every port in {PORTS.start}-{PORTS.stop - 1} is in use")


class LiveStack:
    """The service as `make run` starts it, on a port of PORTS, over `database_url`."""

    def __init__(self, database_url: str, processes: Processes, run_dir: Path) -> None:
        self.database_url = database_url
        self.processes = processes
        self.redis_port = port_in_range()
        self.port = port_in_range({self.redis_port})
        self.url = f"http://127.0.0.1:{self.port}"
        metrics = run_dir / "metrics"
        metrics.mkdir(parents=True, exist_ok=True)
        self.env = {**os.environ, "DATABASE_URL": database_url, "PORT": str(self.port),
                    "BROKER_URL": f"redis://127.0.0.1:{self.redis_port}/0",
                    "PROMETHEUS_MULTIPROC_DIR": str(metrics), "PYTHONUNBUFFERED": "1"}

    def start(self, api_workers: int = 2) -> None:
        RedisServer(self.processes, self.redis_port).start()
        api = self.processes.spawn("api", [
            str(BIN / "gunicorn"), "-c", "ops/gunicorn.conf.py", "service.app:create_app()"],
            {**self.env, "WEB_CONCURRENCY": str(api_workers)})
        worker = self.processes.spawn("worker", [
            str(BIN / "celery"), "-A", "service.observability.celery_worker", "worker", "--loglevel=INFO",
            "--concurrency=2", "--without-gossip", "--without-mingle", "--without-heartbeat",
            "-n", f"browser-{self.port}@%h"], self.env)
        self.processes.spawn("relay", [sys.executable, "-m", "service.observability.relay", "--interval", "0.1"],
                             self.env)
        wait_for(lambda: self._alive(api, "api") and self._ready(), 60, f"the API on {self.url}", every=0.2)
        wait_for(lambda: self._alive(worker, "worker") and "ready." in self.processes.log("worker"), 60,
                 "the settlement worker", every=0.2)


    def _alive(self, process: subprocess.Popen, name: str) -> bool:
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited at start:\n{self.processes.log(name)[-3000:]}")
        return True

    def _ready(self) -> bool:
        try:
            return requests.get(self.url + "/readyz", timeout=2).status_code == 200
        except requests.RequestException:
            return False
