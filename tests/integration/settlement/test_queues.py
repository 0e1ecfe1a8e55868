"""Stacks sharing one Redis: each settles its own rounds on its own queue, and a worker handed
rounds it does not know returns them to the broker instead of dropping them."""
from __future__ import annotations

import random

import psycopg
import pytest
from celery.exceptions import Reject

from bench.casino import Casino
from bench.processes import SettlementProcesses, process_env, wait_for
from service.config import Settings
from service.worker.celery_app import make_celery
from service.worker.tasks import SETTLE_ROUNDS

from .support import fresh_database

pytestmark = pytest.mark.integration


def settled(database_url: str) -> int:
    with psycopg.connect(database_url) as conn:
        return conn.execute("SELECT count(*) FROM rounds WHERE status = 'settled'").fetchone()[0]


@pytest.fixture
def second_db_url():
    with fresh_database("settle_other") as url:
        yield url


def start_pair(tmp_path, name: str, env: dict[str, str]) -> SettlementProcesses:
    (tmp_path / name).mkdir()
    pair = SettlementProcesses(env, tmp_path / name)
    pair.worker(concurrency=1)
    pair.relay(sweep_after=0)   # no sweep: only the broker can carry these rounds
    wait_for(lambda: "ready." in pair.logs(), 60, f"the {name} worker to start")
    return pair


def play_into(database_url: str, seed: int, count: int) -> int:
    casino = Casino(random.Random(seed))
    casino.play(count, ["T1", "T2"])
    with psycopg.connect(database_url, autocommit=True) as conn:
        casino.write(conn)
    return count


def test_two_stacks_on_one_redis_each_settle_every_round_of_their_own(db_url, second_db_url, redis, tmp_path):
    pairs = [start_pair(tmp_path, "first", process_env(db_url, redis.url)),
             start_pair(tmp_path, "second", process_env(second_db_url, redis.url))]
    try:
        first = play_into(db_url, 1, 40)
        second = play_into(second_db_url, 2, 40)
        # Had either worker taken the other's messages, those rounds would wait for a sweep
        # that never runs here.
        wait_for(lambda: settled(db_url) == first and settled(second_db_url) == second, 5,
                 "every round of both stacks to settle")
    except AssertionError:
        print("\n".join(pair.logs() for pair in pairs))
        raise
    finally:
        for pair in pairs:
            pair.kill_all()


def test_a_worker_handed_another_databases_rounds_returns_them_for_the_worker_that_knows_them(
        db_url, second_db_url, redis, tmp_path):
    # Misconfigured on purpose: both stacks name the same queue, and the second's worker is late.
    shared = {"PONTOON_SETTLEMENT_QUEUE": "pontoon.settle.misconfigured"}
    first_pair = start_pair(tmp_path, "first", process_env(db_url, redis.url, **shared))
    second_env = process_env(second_db_url, redis.url, **shared)
    (tmp_path / "second").mkdir()
    second_pair = SettlementProcesses(second_env, tmp_path / "second")
    pairs = [first_pair, second_pair]
    try:
        second_pair.relay(sweep_after=0)
        second = play_into(second_db_url, 4, 20)
        wait_for(lambda: "message returned to queue pontoon.settle.misconfigured" in first_pair.logs(), 30,
                 "the first stack's worker to hand back the second's rounds")
        assert settled(second_db_url) == 0
        second_pair.worker(concurrency=1)
        wait_for(lambda: settled(second_db_url) == second, 30, "the second stack's worker to settle its rounds")
        first = play_into(db_url, 3, 20)
        wait_for(lambda: settled(db_url) == first, 30, "the first stack's rounds to settle")
    except AssertionError:
        print("\n".join(pair.logs() for pair in pairs))
        raise
    finally:
        for pair in pairs:
            pair.kill_all()


def test_a_batch_of_rounds_this_database_does_not_hold_is_rejected_for_requeue(db_url):
    app = make_celery(Settings.from_env({"DATABASE_URL": db_url, "BROKER_URL": "redis://127.0.0.1:1/0"}),
                      unknown_rounds_pause=0)
    strangers = ["6f1c2a53-0d6e-4c1b-9a57-2f0f6bd1c001", "6f1c2a53-0d6e-4c1b-9a57-2f0f6bd1c002"]
    with pytest.raises(Reject) as rejected:
        app.tasks[SETTLE_ROUNDS](strangers)
    assert rejected.value.requeue is True


def test_a_batch_of_rounds_already_settled_here_is_acknowledged(db_url):
    casino = Casino(random.Random(5))
    rounds = casino.play(3, ["T1"])
    with psycopg.connect(db_url, autocommit=True) as conn:
        casino.write(conn)
    app = make_celery(Settings.from_env({"DATABASE_URL": db_url, "BROKER_URL": "redis://127.0.0.1:1/0"}),
                      unknown_rounds_pause=0)
    ids = [r.round_id for r in rounds]
    assert app.tasks[SETTLE_ROUNDS](ids)["settled"] == 3
    # Delivered again: known here and settled already, so it is done with, not handed on.
    assert app.tasks[SETTLE_ROUNDS](ids) == {"settled": 0, "not_settleable": 3, "refused": []}
