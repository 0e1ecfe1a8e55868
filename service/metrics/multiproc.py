"""Multiprocess mode bookkeeping: where the per-process metric files live, and a dead process's cleanup."""
from __future__ import annotations

import os

from prometheus_client import multiprocess

ENV = "PROMETHEUS_MULTIPROC_DIR"


def multiprocess_dir() -> str | None:
    """The shared directory of metric files, when this process runs in multiprocess mode. The
    launcher sets (and wipes) it before any process starts: prometheus_client reads it once, at
    import, so setting it later from Python would leave half the processes in the other mode."""
    return os.environ.get(ENV) or None


def worker_exited(pid: int) -> None:
    """Drop a dead process's live gauges (gunicorn's child_exit hook calls this); its counters
    and histograms stay, as Prometheus expects of counters."""
    directory = multiprocess_dir()
    if directory is None:
        return
    multiprocess.mark_process_dead(pid, directory)
