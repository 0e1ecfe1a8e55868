"""Test plumbing: throwaway databases, and settlement's worker and relay processes, always reaped."""
from __future__ import annotations

import itertools
import os
import subprocess
import sys
import uuid
from pathlib import Path

from service.config import Settings
from service.worker.celery_app import queue_for
from tests.support.database import scratch_database
from tests.support.processes import Processes
from tests.support.waiting import free_port, wait_for  # noqa: F401  (used by the tests importing them from here)

ROOT = Path(__file__).resolve().parents[3]
VENV_BIN = Path(sys.executable).parent


def fresh_database(purpose: str):
    """A new, migrated database for one test, dropped afterwards whatever happened."""
    return scratch_database(f"pontoon_test_{purpose}")


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
