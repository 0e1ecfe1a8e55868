"""`make demo` (ops/demo.sh) on a fresh database: it plays its rounds, writes no secret to its
stack's output, and leaves no admin key it made live behind it."""
from __future__ import annotations

import os
import re
import subprocess

import psycopg
import pytest

from bench.processes import RedisServer

from .conftest import ROOT, free_port, fresh_database

pytestmark = pytest.mark.integration

SECRET = re.compile(r"pnt_[A-Za-z0-9_-]{20,}")


def test_the_demo_hides_and_revokes_the_first_admin_key(processes, tmp_path):
    redis = RedisServer(processes).start()
    with fresh_database("demo") as database_url:
        env = {**os.environ, "DATABASE_URL": database_url, "BROKER_URL": redis.url, "PORT": str(free_port()),
               "PONTOON_RUN_DIR": str(tmp_path / "demo"), "DEMO_ROUNDS": "4", "DEMO_PHYSICAL_ROUNDS": "2",
               "WEB_CONCURRENCY": "1", "CELERY_CONCURRENCY": "1"}
        ran = subprocess.run(["bash", "ops/demo.sh"], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                             capture_output=True, text=True, timeout=300)
        assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
        stack_out = (tmp_path / "demo" / "stack.out").read_text()
        assert "First start: an admin key" in stack_out and "pnt_<not shown>" in stack_out
        assert not SECRET.search(stack_out), stack_out
        assert "first start for this demo is revoked" in ran.stdout
        with psycopg.connect(database_url) as conn:
            live = conn.execute("SELECT name FROM api_keys WHERE role = 'admin' AND revoked_at IS NULL").fetchall()
            first = conn.execute("SELECT count(*) FROM api_keys WHERE name = 'first-admin'").fetchone()[0]
    assert live == [] and first == 1
    redis.stop()
