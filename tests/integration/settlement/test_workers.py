"""Real worker processes: killed mid-batch, a broker outage, a message delivered twice, a verification
of the audit log relayed and run."""
from __future__ import annotations

import os
import signal
from pathlib import Path

import psycopg
import pytest
import redis as redis_client

from bench.processes import process_env, wait_for
from service.audit.jobs import request_verification
from service.config import Settings
from service.ledger.transcripts import bet_totals
from service.settlement.connection import connect
from service.settlement.queues import settlement_queue
from service.store.uow import UnitOfWork
from service.worker.celery_app import celery_publisher, make_celery

pytestmark = pytest.mark.integration


def count(admin, query: str, *params) -> int:
    return admin.execute(query, params).fetchone()[0]


def queue_drained(server, database_url: str) -> bool:
    """Nothing waiting in the database's settlement queue and nothing delivered but unacked."""
    client = redis_client.Redis(port=server.port)
    try:
        return client.llen(settlement_queue(database_url)) == 0 and client.hlen("unacked") == 0
    finally:
        client.close()


def settled(admin) -> int:
    return count(admin, "SELECT count(*) FROM rounds WHERE status = 'settled'")


def assert_settled_once_and_replayed(admin, rounds) -> None:
    """Every round settled; per round and seat the ledger equals the engine's replay; one
    payout record per seat (a second settlement would have added more)."""
    assert settled(admin) == len(rounds)
    booked: dict[tuple[str, int], tuple[int, int]] = {}
    for round_id, seat, staked, returned in admin.execute(
            "SELECT round_id::text, seat, sum(stake), sum(returned) FROM ledger_entries GROUP BY round_id, seat"):
        booked[(round_id, seat)] = (staked, returned)
    expected = {(r.round_id, seat): totals for r in rounds for seat, totals in bet_totals(r.bets).items()}
    assert booked == expected
    payouts = count(admin, "SELECT count(*) FROM audit_log WHERE kind = 'payout'")
    assert payouts == sum(len(r.transcript["seats"]) for r in rounds)
    assert count(admin, "SELECT count(DISTINCT (round_id, payload->>'seat')) FROM audit_log "
                        "WHERE kind = 'payout'") == payouts


def children_of(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


@pytest.mark.parametrize("victim", ["whole worker", "pool processes"])
def test_a_worker_killed_mid_batch_is_restarted_and_every_round_settles_once(
        victim, admin, db_url, casino, redis, processes):
    rounds = casino.play(120, ["T1", "T2"])
    casino.write(admin)
    processes.env = process_env(db_url, redis.url, PONTOON_BROKER_VISIBILITY_TIMEOUT="3")
    # Hold the ledger so the worker's first batch stops inside its transaction, rounds locked.
    with psycopg.connect(db_url) as blocker:
        blocker.execute("LOCK TABLE ledger_entries IN EXCLUSIVE MODE")
        worker = processes.worker(concurrency=2)
        processes.relay(sweep_after=0)
        mid_batch = "SELECT pid FROM pg_stat_activity WHERE datname = current_database() " \
                    "AND wait_event_type = 'Lock' AND query LIKE 'INSERT INTO ledger_entries%%'"
        killed = wait_for(lambda: [pid for (pid,) in admin.execute(mid_batch)], 30,
                          "a worker to be in the middle of a batch")
        if victim == "whole worker":
            processes.kill(worker)   # main process and pool children: the message sits unacked in Redis
        else:
            # The main process sees its pool processes die and requeues the message (reject_on_worker_lost).
            for child in children_of(worker.pid):
                os.kill(child, signal.SIGKILL)
        # The server notices the dead client (client_connection_check_interval) and rolls back.
        wait_for(lambda: count(admin, "SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(%s)", killed) == 0,
                 15, "the killed worker's database sessions to end")
        assert settled(admin) == 0
        blocker.rollback()
    if victim == "whole worker":
        processes.worker(concurrency=2)
    else:
        assert worker.poll() is None  # the main process lived on and started new pool processes
    wait_for(lambda: settled(admin) == len(rounds), 60, "every round to settle after the restart")
    # A duplicate delivery (the killed batch's message, requeued) must change nothing: wait until the
    # broker holds no message for this database, waiting or delivered, so that every one was handled.
    wait_for(lambda: queue_drained(redis, db_url), 30, "every delivery to be consumed and acked")
    assert_settled_once_and_replayed(admin, rounds)


def test_rounds_completed_while_the_broker_is_down_settle_when_it_is_back(admin, db_url, casino, redis, processes):
    processes.env = process_env(db_url, redis.url)
    processes.worker(concurrency=2)
    processes.relay(sweep_after=0)   # no sweep: the outbox alone must carry these rounds
    first = casino.play(20, ["T1"])
    casino.write(admin)
    wait_for(lambda: settled(admin) == 20, 60, "the first rounds to settle")
    redis.stop()
    during = casino.play(40, ["T1", "T2"])
    casino.write(admin)
    wait_for(lambda: count(admin, "SELECT count(*) FROM outbox WHERE published_at IS NULL AND attempts > 0") > 0,
             30, "the relay to fail to publish")
    # Nothing gets through while the broker is down: a later pass has failed again, and still none settled.
    wait_for(lambda: count(admin, "SELECT count(*) FROM outbox WHERE published_at IS NULL AND attempts > 1") > 0,
             30, "the relay to fail to publish on a later pass too")
    assert settled(admin) == 20
    redis.start()
    wait_for(lambda: settled(admin) == 60, 90, "the rounds completed during the outage to settle")
    assert count(admin, "SELECT count(*) FROM outbox WHERE published_at IS NULL") == 0
    assert_settled_once_and_replayed(admin, first + during)
    started = {s for (s,) in admin.execute("SELECT payload->>'service' FROM audit_log "
                                           "WHERE kind = 'service_started' AND chain = 'system'")}
    assert started == {"settlement-worker", "settle-relay"}


def test_the_same_settlement_message_delivered_twice_leaves_the_ledger_unchanged(admin, db_url, casino, redis,
                                                                                 processes):
    rounds = casino.play(30, ["T1"])
    casino.write(admin)
    admin.execute("UPDATE outbox SET published_at = now()")   # no relay here: the test publishes
    processes.env = process_env(db_url, redis.url)
    processes.worker(concurrency=2)
    app = make_celery(Settings.from_env({"BROKER_URL": redis.url, "DATABASE_URL": db_url}))
    publish = celery_publisher(app)
    ids = [r.round_id for r in rounds]
    publish(ids)
    publish(ids)
    wait_for(lambda: settled(admin) == 30, 60, "the rounds to settle")
    def snapshot():
        return (admin.execute("SELECT * FROM ledger_entries ORDER BY id").fetchall(),
                count(admin, "SELECT count(*) FROM audit_log"))
    before = snapshot()
    publish(ids)   # and once more, after the fact
    wait_for(lambda: queue_drained(redis, db_url), 30, "the third message to be consumed and acked")
    assert snapshot() == before
    assert_settled_once_and_replayed(admin, rounds)


def test_a_verification_of_the_audit_log_is_relayed_to_a_worker_and_run_once(admin, db_url, casino, redis,
                                                                               processes):
    rounds = casino.play(20, ["T1", "T2"])
    casino.write(admin)
    processes.env = process_env(db_url, redis.url)
    processes.worker(concurrency=2)
    processes.relay(sweep_after=0)
    wait_for(lambda: settled(admin) == len(rounds), 60, "the rounds to settle")
    with connect(db_url) as conn:
        uow = UnitOfWork(conn)
        with uow.transaction():
            asked = request_verification(uow, "staff:auditor")
    verification_id = asked.verification.verification_id
    status = "SELECT status, rounds, attempts FROM audit_verifications WHERE verification_id = %s"
    wait_for(lambda: admin.execute(status, (verification_id,)).fetchone()[0] not in ("queued", "running"), 60,
             "the worker's verdict")
    assert admin.execute(status, (verification_id,)).fetchone() == ("intact", len(rounds), 1)
    assert count(admin, "SELECT count(*) FROM audit_log WHERE kind = 'audit_verified' AND actor = 'staff:auditor' "
                        "AND payload->>'verification_id' = %s", str(verification_id)) == 1
    assert count(admin, "SELECT count(*) FROM outbox WHERE published_at IS NULL") == 0


def test_a_verification_whose_worker_process_is_killed_mid_check_is_taken_over(admin, db_url, casino, redis,
                                                                                processes):
    rounds = casino.play(10, ["T1"])
    casino.write(admin)
    processes.env = process_env(db_url, redis.url)
    worker = processes.worker(concurrency=2)
    processes.relay(sweep_after=0)
    wait_for(lambda: settled(admin) == len(rounds), 60, "the rounds to settle")
    status = "SELECT status, attempts FROM audit_verifications WHERE verification_id = %s"
    # Hold the chain heads so the check stops at its first read, its row claimed and running.
    with psycopg.connect(db_url) as blocker:
        blocker.execute("LOCK TABLE audit_chain_heads IN ACCESS EXCLUSIVE MODE")
        with connect(db_url) as conn:
            uow = UnitOfWork(conn)
            with uow.transaction():
                verification_id = request_verification(uow, "staff:auditor").verification.verification_id
        waiting = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() " \
                  "AND wait_event_type = 'Lock' AND query LIKE '%%audit_chain_heads%%'"
        wait_for(lambda: count(admin, waiting) > 0, 30, "the verification to wait inside its check")
        assert admin.execute(status, (verification_id,)).fetchone() == ("running", 1)
        for child in children_of(worker.pid):   # the pool process dies mid-check
            os.kill(child, signal.SIGKILL)
        blocker.rollback()
    # The message comes back at once, finds the row running with a fresh heartbeat, and looks
    # again once that heartbeat would have gone stale: then it takes the verification over.
    wait_for(lambda: admin.execute(status, (verification_id,)).fetchone()[0] == "intact", 120,
             "another worker process to take the verification over")
    assert admin.execute(status, (verification_id,)).fetchone() == ("intact", 2)
    assert count(admin, "SELECT count(*) FROM audit_log WHERE kind = 'audit_verified' "
                        "AND payload->>'verification_id' = %s", str(verification_id)) == 1


def test_the_relay_asks_for_the_gaming_days_verification_once(admin, db_url, casino, redis, processes):
    casino.play(10, ["T1"])
    casino.write(admin)
    processes.env = process_env(db_url, redis.url)
    processes.worker(concurrency=2)
    relay = processes.relay(sweep_after=0, sweep_every=0.2, verify_daily=True)
    asked = "SELECT requested_by, status FROM audit_verifications"
    wait_for(lambda: [row[1] for row in admin.execute(asked)] == ["intact"], 60, "the day's verification's verdict")
    assert admin.execute(asked).fetchall() == [("system", "intact")]
    assert count(admin, "SELECT count(*) FROM audit_log WHERE kind = 'audit_verified' AND actor = 'system'") == 1
    processes.kill(relay, signal.SIGTERM)
    restarted = processes.relay(sweep_after=0, sweep_every=0.2, verify_daily=True)   # later the same day
    wait_for(lambda: "was asked for already" in processes.log(processes.name_of(restarted)), 30,
             "the restarted relay to find the day's verification asked for")
    assert count(admin, "SELECT count(*) FROM audit_verifications") == 1, "one a gaming day"
