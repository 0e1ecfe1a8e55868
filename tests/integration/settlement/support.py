"""Test plumbing: throwaway databases, a private Redis, and worker/relay processes that are always reaped."""
from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import uuid
from pathlib import Path

from service.config import Settings
from service.worker.celery_app import queue_for
from tests.support.database import scratch_database
from tests.support.waiting import free_port, wait_for  # noqa: F401  (used by the tests importing them from here)

ROOT = Path(__file__).resolve().parents[3]
VENV_BIN = Path(sys.executable).parent


def fresh_database(purpose: str):
    """A new, migrated database for one test, dropped afterwards whatever happened."""
    return scratch_database(f"pontoon_test_{purpose}")


class RedisServer:
    """A private redis-server on its own port that a test may stop and start (never the shared one)."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--daemonize", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(self._answers, 10, f"redis on port {self.port}")

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        self.process = None


class Processes:
    """Worker and relay subprocesses, each in its own process group so a kill takes its children."""

    def __init__(self, env: dict[str, str], log_dir: Path) -> None:
        self.env = env
        self.log_dir = log_dir
        self.running: list[subprocess.Popen] = []

    def _spawn(self, name: str, argv: list[str]) -> subprocess.Popen:
        log = open(self.log_dir / f"{name}-{len(self.running)}.log", "wb")
        process = subprocess.Popen(argv, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        log.close()
        self.running.append(process)
        return process

    def worker(self, concurrency: int = 2, name: str = "worker") -> subprocess.Popen:
        return self._spawn(name, [str(VENV_BIN / "celery"), "-A", "service.worker.celery_app", "worker",
                                  "--loglevel=INFO", f"--concurrency={concurrency}", "--without-gossip",
                                  "--without-mingle", "--without-heartbeat", "-Q",
                                  queue_for(Settings.from_env(self.env)), "-n", f"{name}-{uuid.uuid4().hex[:6]}@%h"])

    def relay(self, sweep_after: float = 0, sweep_every: float = 1.0, verify_daily: bool = False) -> subprocess.Popen:
        return self._spawn("relay", [sys.executable, "-m", "service.cli", "settle", "relay", "--interval", "0.1",
                                     "--sweep-after", str(sweep_after), "--sweep-every", str(sweep_every),
                                     *(["--verify-daily"] if verify_daily else [])])

    def kill(self, process: subprocess.Popen, sig: int = signal.SIGKILL) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
        process.wait(20)

    def kill_all(self) -> None:
        for process in self.running:
            if process.poll() is None:
                self.kill(process, signal.SIGKILL)
            # The group may outlive its leader (pool children): reap it too.
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
        self.running.clear()

    def logs(self) -> str:
        return "\n".join(f"--- {path.name}\n{path.read_text(errors='replace')[-4000:]}"
                         for path in sorted(self.log_dir.glob("*.log")))


def process_env(database_url: str, broker_url: str, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update({"DATABASE_URL": database_url, "BROKER_URL": broker_url, "PYTHONUNBUFFERED": "1"}, **extra)
    return env
