"""Prometheus metrics for the API and the settlement workers, in multiprocess mode when
PROMETHEUS_MULTIPROC_DIR is set: definitions, the Flask hook and /metrics, observation calls."""
from __future__ import annotations

from .definitions import Metrics, metrics
from .flask_hooks import install
from .multiproc import multiprocess_dir, worker_exited
from .observe import observe_access_refused, observe_round_completed, observe_settled

__all__ = ["Metrics", "metrics", "install", "multiprocess_dir", "worker_exited", "observe_access_refused",
           "observe_round_completed", "observe_settled"]
