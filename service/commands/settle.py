"""`pontoon settle relay|sweep|queue`: the outbox relay process (rounds, verifications and paytable
evaluations to the workers; its sweep and daily verification), a one-off sweep of stale rounds,
the queue's name."""
from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
import time
from datetime import UTC, date, datetime
from typing import Any
from zoneinfo import ZoneInfo

import psycopg

from ..audit.checkpoints import CheckpointSchedule, checkpoint_database, load_or_create_key
from ..audit.jobs import request_daily_verification
from ..command_runner import run_command
from ..config import Settings
from ..reports.gaming_day import day_starts_at, gaming_day_of, parse_day_start
from ..settlement.connection import connect
from ..settlement.relay import run_relay
from ..settlement.startup import record_service_start
from ..settlement.sweep import sweep_stale_rounds
from ..store.uow import UnitOfWork
from ..worker.celery_app import (
    PUBLISH_ERRORS,
    celery_evaluation_sender,
    celery_publisher,
    celery_verification_sender,
    make_celery,
    queue_for,
)


def _relay(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    app = make_celery(settings)
    stopping: list[bool] = []
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stopping.append(True))

    def sweep(conn: psycopg.Connection[Any]) -> None:
        # Kept running after a refusal: one bad round must not stop every other round's settlement.
        outcome = sweep_stale_rounds(conn, args.sweep_after)
        outcome.log(logging.getLogger("pontoon.sweep"), "settled by the sweep")
        if outcome.settled:
            logging.info("sweep settled %d stale rounds", len(outcome.settled))

    starts, zone = parse_day_start(settings.gaming_day_starts), ZoneInfo(settings.timezone)
    days_seen: set[date] = set()

    def verify_daily(conn: psycopg.Connection[Any]) -> None:
        day = gaming_day_of(datetime.now(UTC), starts, zone)
        uow = UnitOfWork(conn)
        asked = run_command(uow, lambda: request_daily_verification(uow, day_starts_at(day, starts, zone)))
        if asked is not None:
            logging.info("the verification of gaming day %s is asked for: %s", day, asked.verification.verification_id)
        elif day not in days_seen:
            # Said once a day per relay: a relay restarted in the day shows it found the day covered.
            logging.info("the verification of gaming day %s was asked for already, or one is under way", day)
        days_seen.add(day)

    schedule = CheckpointSchedule(settings.checkpoint_every)

    def checkpoint(conn: psycopg.Connection[Any]) -> None:
        # The key is read where it lies, outside the database, each time: a rotated key is used at once.
        day, now = gaming_day_of(datetime.now(UTC), starts, zone), time.monotonic()
        if schedule.due(now, day):
            signed = checkpoint_database(conn, load_or_create_key(settings.checkpoint_key), settings.checkpoint_dir)
            schedule.done(now, day)
            logging.info("signed the heads of %d chains into %s", len(signed), settings.checkpoint_dir)

    housekeeping = ([sweep] if args.sweep_after > 0 else []) + ([verify_daily] if args.verify_daily else [])
    if settings.checkpoint_key and settings.checkpoint_dir:
        housekeeping.append(checkpoint)

    record_service_start(settings.database_url, "settle-relay")
    run_relay(lambda: connect(settings.database_url, "pontoon-relay"), celery_publisher(app), interval=args.interval,
              send_verification=celery_verification_sender(app), send_evaluation=celery_evaluation_sender(app),
              housekeeping=housekeeping, every=args.sweep_every,
              publish_errors=PUBLISH_ERRORS, should_stop=lambda: bool(stopping))
    return 0


def _sweep(args: argparse.Namespace) -> int:
    with connect(Settings.from_env().database_url, "pontoon-sweep") as conn:
        outcome = sweep_stale_rounds(conn, args.older_than)
    print(json.dumps(outcome.summary()))
    for refused in outcome.refused:
        print(f"round {refused.round_id} refused: {refused.reason}", file=sys.stderr)
    return 1 if outcome.refused else 0


def _queue(args: argparse.Namespace) -> int:
    print(queue_for(Settings.from_env()))
    return 0


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return args.action(args)


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("settle", help="the settlement outbox relay and sweep")
    actions = parser.add_subparsers(dest="settle_command", metavar="ACTION", required=True)
    relay = actions.add_parser("relay", help="publish completed rounds from the outbox to the Celery workers, forever")
    relay.add_argument("--interval", type=float, default=1.0, help="seconds between outbox passes (default 1)")
    relay.add_argument("--sweep-after", type=float, default=60.0,
                       help="settle directly rounds complete for longer than this many seconds "
                            "(0: no sweep; default 60)")
    relay.add_argument("--sweep-every", type=float, default=10.0, help="seconds between sweeps (default 10)")
    relay.add_argument("--verify-daily", action="store_true",
                       help="with each sweep, ask for the gaming day's verification of the whole audit log "
                            "when nobody has since the day began (a worker runs it)")
    relay.set_defaults(action=_relay)
    sweep = actions.add_parser("sweep", help="settle stale complete rounds once, here, and print a summary")
    sweep.add_argument("--older-than", type=float, default=60.0, help="age in seconds (default 60)")
    sweep.set_defaults(action=_sweep)
    queue = actions.add_parser("queue", help="print the broker queue this database's settlement messages travel on "
                                             "(a worker's -Q)")
    queue.set_defaults(action=_queue)
    parser.set_defaults(run=run)
