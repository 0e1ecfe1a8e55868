"""`celery -A service.observability.celery_worker worker`: the settlement app, logging JSON lines
and keeping the metrics directory tidy as pool processes exit."""
from __future__ import annotations

import os
from functools import cache

from celery import signals

from ..metrics import worker_exited
from ..worker.celery_app import default_app
from .logs import configure_logging, level_named


@cache
def instrumented_app():
    """The settlement Celery app with the logging and metrics signals connected (first use only)."""
    # Celery leaves logging alone when setup_logging has a receiver: it gets ours instead of its own.
    signals.setup_logging.connect(_json_logging, weak=False)
    # The worker checks its privileges (and warns when run as root) before it sets up logging:
    # JSON from its first line on.
    signals.celeryd_init.connect(_json_logging_at_start, weak=False)
    signals.worker_process_shutdown.connect(_pool_process_exited, weak=False)
    return default_app()


def _json_logging(loglevel=None, **_kwargs) -> None:
    configure_logging(loglevel if isinstance(loglevel, int) else level_named(loglevel))


def _json_logging_at_start(options=None, **_kwargs) -> None:
    _json_logging((options or {}).get("loglevel"))


def _pool_process_exited(pid=None, **_kwargs) -> None:
    worker_exited(pid or os.getpid())


def __getattr__(name: str):
    # `celery -A` looks up `app`: build it then, not at import.
    if name == "app":
        return instrumented_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
