"""The benchmark's CPU accounting: which process is which part of the stack, and the arithmetic
of CPU per request between two snapshots."""
from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from cpu_use import part_of, per_request_ms, snapshot  # noqa: E402


@pytest.mark.parametrize("command_line, part", [
    ("postgres: 15/main: postgres pontoon 127.0.0.1(5432) idle", "database"),
    ("/usr/lib/postgresql/15/bin/postgres -D /var/lib/postgresql/15/main", "database"),
    ("postgres -D /data", "database"),
    ("/srv/.venv/bin/python3 .venv/bin/gunicorn -c ops/gunicorn.conf.py service.app:create_app()", "api"),
    ("/srv/.venv/bin/python3 .venv/bin/celery -A service.observability.celery_worker worker", "settlement"),
    ("/srv/.venv/bin/python -m service.observability.relay", "settlement"),
    ("redis-server 127.0.0.1:6379", "broker"),
    ("bash ops/bench.sh", None),
])
def test_each_process_is_counted_against_its_part(command_line, part):
    assert part_of(command_line) == part


def test_cpu_per_request_counts_each_process_from_where_it_was():
    before = {"processes": {"1": ("api", 10.0), "2": ("database", 4.0), "3": ("api", 7.0)}, "machine": 100.0}
    # Process 3 ended in between; process 4 started in between; process 1 and 2 went on.
    after = {"processes": {"1": ("api", 10.5), "2": ("database", 4.2), "4": ("settlement", 0.1)}, "machine": 101.0}
    assert per_request_ms(before, after, 100) == {
        "api": 5.0, "database": 2.0, "settlement": 1.0, "other": 2.0, "machine": 10.0}


def test_no_snapshot_means_no_figures():
    assert per_request_ms({}, {}, 100) == {}
    assert per_request_ms(snapshot(), snapshot(), 0) == {}


def test_this_process_is_the_load_generator():
    taken = snapshot()
    if not taken:
        pytest.skip("no /proc here")
    # The kernel counts CPU time in clock ticks, the process's and the machine's each on its own:
    # work until both have been charged some.
    deadline = time.monotonic() + 5
    figures = per_request_ms(taken, snapshot(), 1)
    while (figures["load generator"] == 0 or figures["machine"] == 0) and time.monotonic() < deadline:
        sum(i * i for i in range(100_000))
        figures = per_request_ms(taken, snapshot(), 1)
    assert figures["load generator"] > 0
    assert figures["machine"] > 0
