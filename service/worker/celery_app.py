"""The Celery application that settles rounds, verifies the audit log and evaluates paytables:
`celery -A service.worker.celery_app worker`."""
from __future__ import annotations

from functools import cache

from celery import Celery
from celery.signals import worker_ready
from kombu.exceptions import OperationalError as KombuOperationalError

from ..config import Settings
from ..settlement.queues import settlement_queue
from ..settlement.startup import record_service_start
from .tasks import EVALUATE_PAYTABLE, SETTLE_ROUNDS, UNKNOWN_ROUNDS_PAUSE, VERIFY_AUDIT, register_tasks

# Seconds a broker may take to answer one command (the worker's own waits for messages are shorter).
BROKER_SOCKET_TIMEOUT = 5
# What publishing raises when the broker is away.
PUBLISH_ERRORS = (KombuOperationalError, OSError)


def queue_for(settings: Settings) -> str:
    """The queue this stack's relay publishes to and its workers consume: the configured one, else
    the one derived from the database (stacks sharing a broker then never meet on a queue)."""
    return settings.settlement_queue or settlement_queue(settings.database_url)


def make_celery(settings: Settings, *, unknown_rounds_pause: float = UNKNOWN_ROUNDS_PAUSE) -> Celery:
    """The app for this database and broker; `unknown_rounds_pause`: seconds a worker holds a batch of
    rounds its database does not know before handing it back."""
    app = Celery("pontoon", broker=settings.broker_url, set_as_current=False)
    queue = queue_for(settings)
    app.conf.update(
        # Publishing and consuming both default to this queue: a worker started without -Q still
        # listens on its own database's queue only.
        task_default_queue=queue,
        task_default_exchange=queue,
        task_default_routing_key=queue,
        # A message is acked only once its batch committed; a worker that dies mid-batch (even
        # the pool process alone) leaves the message to be delivered again.
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,          # a dead worker strands one message, not a prefetch window
        task_ignore_result=True,               # the outcome lives in the database, not a result backend
        task_serializer="json",
        accept_content=["json"],
        broker_connection_retry_on_startup=True,
        broker_connection_max_retries=None,    # a worker waits out a broker outage instead of exiting
        broker_connection_timeout=2,
        # A task still running when the broker connection drops is left to finish: its commit
        # makes the redelivered message a no-op.
        worker_cancel_long_running_tasks_on_connection_loss=False,
        # Look for abandoned messages as often as they can fall due (and at most every 10 s); a
        # broker that stops answering (not just closing) times out rather than holding the relay,
        # and the outbox rows it has locked, for as long as TCP takes to give up.
        # Publishing (the relay's) tries the broker twice at once, without kombu's default pause of
        # 2 s between tries: a connection left broken by a broker restart is replaced by the second
        # try, and while the broker is away the relay hears so at once and keeps the outbox rows.
        broker_transport_options={"visibility_timeout": settings.broker_visibility_timeout,
                                  "unacked_restore_interval": min(10, settings.broker_visibility_timeout),
                                  "unacked_restore_throttle": 1,
                                  "socket_timeout": BROKER_SOCKET_TIMEOUT,
                                  "socket_connect_timeout": 2,
                                  "max_retries": 1, "interval_start": 0, "interval_step": 0, "interval_max": 0},
        pontoon_database_url=settings.database_url,
        pontoon_unknown_rounds_pause=unknown_rounds_pause,
    )
    register_tasks(app)

    def record_start(sender, **_) -> None:
        if sender.app is app:   # the signal is process-wide; other apps' workers are not ours
            record_service_start(settings.database_url, "settlement-worker", worker=sender.hostname)

    worker_ready.connect(record_start, weak=False)
    return app


def celery_publisher(app: Celery):
    """publish(round_ids): one settle_rounds message; raises at once when the broker is away
    (no retries of its own: the relay keeps the outbox rows and tries again)."""
    def publish(round_ids: list[str]) -> None:
        app.send_task(SETTLE_ROUNDS, args=[round_ids], retry=False)
    return publish


def celery_verification_sender(app: Celery):
    """send(verification_id): one verify_audit message, raising at once when the broker is away."""
    def send(verification_id: str) -> None:
        app.send_task(VERIFY_AUDIT, args=[verification_id], retry=False)
    return send


def celery_evaluation_sender(app: Celery):
    """send(paytable, version): one evaluate_paytable message, raising at once when the broker is away."""
    def send(paytable: str, version: int) -> None:
        app.send_task(EVALUATE_PAYTABLE, args=[paytable, version], retry=False)
    return send


@cache
def default_app() -> Celery:
    """The app for this process's environment (DATABASE_URL, BROKER_URL), built on first use."""
    return make_celery(Settings.from_env())


def __getattr__(name: str):
    # `celery -A service.worker.celery_app` looks up `app`: build it then, not at import.
    if name == "app":
        return default_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
