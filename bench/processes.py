"""Processes a test or a benchmark starts (each leading its own process group, its output in a log
file of its name, all reaped at the end), settlement's workers and relay among them; a private
redis-server on a port of its own that may be stopped and started again (the shared Redis on 6379
is never touched); scratch databases, migrated and dropped; free ports and polling with a deadline."""
from __future__ import annotations

import contextlib
import itertools
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo

from service.commands.migrate import prepare_database
from service.config import Settings
from service.worker.celery_app import queue_for

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = Path(sys.executable).parent
BASE_URL = os.environ.get("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/pontoon")


@contextlib.contextmanager
def scratch_database(prefix: str = "pontoon_t") -> Iterator[str]:
    """A new database named `prefix_<random>`, migrated and seeded as `pontoon migrate` does it,
    dropped afterwards whatever happened."""
    name = f"{prefix}_{secrets.token_hex(4)}"
    url = make_conninfo(BASE_URL, dbname=name)
    prepare_database(url)  # creates it
    try:
        yield url
    finally:
        with psycopg.connect(make_conninfo(BASE_URL, dbname="postgres"), autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(condition: Callable[[], object], timeout: float, what: str, every: float = 0.1):
    """Poll until `condition()` is truthy; fail (AssertionError) naming `what` on timeout."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(every)


class Processes:
    """Every process a test or a benchmark starts, each leading its own process group, all stopped at the end."""

    def __init__(self, log_dir: Path) -> None:
        self.log_dir = log_dir
        self.running: list[tuple[str, subprocess.Popen]] = []

    def spawn(self, name: str, argv: list[str], env: dict[str, str]) -> subprocess.Popen:
        """Start `argv` from the project's folder, its output appended to `<name>.log`."""
        with open(self.log_dir / f"{name}.log", "ab") as log:
            process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                       start_new_session=True)
        self.running.append((name, process))
        return process

    def name_of(self, process: subprocess.Popen) -> str:
        """The name a process was spawned under (its log's name)."""
        return next(name for name, running in self.running if running is process)

    def log(self, name: str) -> str:
        path = self.log_dir / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def logs(self) -> str:
        """The end of every log, for a failed test to print."""
        return "\n".join(f"--- {path.name}\n{path.read_text(errors='replace')[-4000:]}"
                         for path in sorted(self.log_dir.glob("*.log")))

    def kill(self, process: subprocess.Popen, sig: int = signal.SIGKILL) -> None:
        """Send `sig` to the process's whole group (a Celery worker and its pool children alike) and
        wait for the leader to end."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
        process.wait(20)
        self._forget(process)

    def stop(self, process: subprocess.Popen, timeout: float = 15) -> None:
        """Stop one process as its operator would: the leader alone is told first, so gunicorn and
        Celery let their children finish; the group is then killed, since children may outlive
        their leader."""
        self._terminate_leader(process)
        self._reap(process, timeout)
        self._forget(process)

    def stop_all(self) -> None:
        """`stop` every process, all told at once and then each waited for."""
        for _, process in reversed(self.running):
            self._terminate_leader(process)
        for _, process in reversed(self.running):
            self._reap(process, 15)
        self.running.clear()

    def kill_all(self) -> None:
        """Kill every process's group at once, with no time to finish anything."""
        for _, process in self.running:
            if process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
        for _, process in self.running:
            self._reap(process, 20)
        self.running.clear()

    @staticmethod
    def _terminate_leader(process: subprocess.Popen) -> None:
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, signal.SIGTERM)

    @staticmethod
    def _reap(process: subprocess.Popen, timeout: float) -> None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout)
        # The group may outlive its leader (gunicorn workers, Celery pool children).
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(5)

    def _forget(self, process: subprocess.Popen) -> None:
        # Once reaped its pid may be reused: never signal that group again.
        self.running = [(name, running) for name, running in self.running if running is not process]


class RedisServer:
    """A private redis-server (no persistence) on `port` or a free one, started and stopped by its user."""

    def __init__(self, processes: Processes, port: int | None = None) -> None:
        self.processes = processes
        self.port = port or free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        self.process = self.processes.spawn(f"redis-{self.port}", [
            "redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            dict(os.environ))
        wait_for(self.answers, 10, f"redis on port {self.port}")
        return self

    def stop(self) -> None:
        if self.process is not None:
            self.processes.stop(self.process)
        self.process = None

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False


class SettlementProcesses(Processes):
    """Celery settlement workers and the outbox relay, started with `env` (a database and a broker;
    a test may set another before it starts the next)."""

    def __init__(self, env: dict[str, str], log_dir: Path) -> None:
        super().__init__(log_dir)
        self.env = env
        self._started = itertools.count()

    def worker(self, concurrency: int = 2, name: str = "worker") -> subprocess.Popen:
        return self.spawn(f"{name}-{next(self._started)}", [
            str(VENV_BIN / "celery"), "-A", "service.worker.celery_app", "worker", "--loglevel=INFO",
            f"--concurrency={concurrency}", "--without-gossip", "--without-mingle", "--without-heartbeat", "-Q",
            queue_for(Settings.from_env(self.env)), "-n", f"{name}-{uuid.uuid4().hex[:6]}@%h"], self.env)

    def relay(self, sweep_after: float = 0, sweep_every: float = 1.0, verify_daily: bool = False) -> subprocess.Popen:
        return self.spawn(f"relay-{next(self._started)}", [
            sys.executable, "-m", "service.cli", "settle", "relay", "--interval", "0.1",
            "--sweep-after", str(sweep_after), "--sweep-every", str(sweep_every),
            *(["--verify-daily"] if verify_daily else [])], self.env)


def process_env(database_url: str, broker_url: str, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update({"DATABASE_URL": database_url, "BROKER_URL": broker_url, "PYTHONUNBUFFERED": "1"}, **extra)
    return env
