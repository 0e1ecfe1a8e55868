"""The live stack the browser tests drive: a private Redis, the API under gunicorn, a Celery
settlement worker and the outbox relay, as ops/stack.sh runs them, over one scratch database."""
from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Collection
from pathlib import Path

import requests

from tests.support.waiting import wait_for

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


class Processes:
    """Every process the suite starts, each leading its own process group, all stopped at the end."""

    def __init__(self, log_dir: Path) -> None:
        self.log_dir = log_dir
        self.running: list[tuple[str, subprocess.Popen]] = []

    def spawn(self, name: str, argv: list[str], env: dict[str, str]) -> subprocess.Popen:
        with open(self.log_dir / f"{name}.log", "ab") as log:
            process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                       start_new_session=True)
        self.running.append((name, process))
        return process

    def log(self, name: str) -> str:
        path = self.log_dir / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def logs(self) -> str:
        return "\n".join(f"--- {path.name}\n{path.read_text(errors='replace')[-4000:]}"
                         for path in sorted(self.log_dir.glob("*.log")))

    def stop_all(self) -> None:
        # The leader alone is told first, so gunicorn and Celery let their children finish; the
        # group is then killed, since children may outlive their leader.
        for _, process in reversed(self.running):
            if process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(process.pid, signal.SIGTERM)
        for _, process in reversed(self.running):
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(15)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(5)
        self.running.clear()


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
        self._redis()
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

    def _redis(self) -> None:
        self.processes.spawn("redis", ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1",
                                       "--save", "", "--appendonly", "no"], dict(os.environ))

        def answers() -> bool:
            try:
                with socket.create_connection(("127.0.0.1", self.redis_port), timeout=0.5) as sock:
                    sock.sendall(b"PING\r\n")
                    return sock.recv(16).startswith(b"+PONG")
            except OSError:
                return False
        wait_for(answers, 10, f"redis on port {self.redis_port}")

    def _alive(self, process: subprocess.Popen, name: str) -> bool:
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited at start:\n{self.processes.log(name)[-3000:]}")
        return True

    def _ready(self) -> bool:
        try:
            return requests.get(self.url + "/readyz", timeout=2).status_code == 200
        except requests.RequestException:
            return False
