"""Settlement benchmark: a backlog of completed rounds settled by Celery workers, beside a plain COPY floor."""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

from bench.casino import PAYTABLE_REF, RULES_REF, Casino  # noqa: E402
from bench.processes import RedisServer, SettlementProcesses, process_env, scratch_database, wait_for  # noqa: E402
from service.ledger.bets import rows_for_bets  # noqa: E402
from service.settlement.batches import BATCH_SIZE  # noqa: E402
from service.store.repositories.ledger import LEDGER_COLUMNS  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "settlement.json"


def ledger_rows(rounds) -> list[tuple]:
    """The rows settlement writes for these rounds, in LEDGER_COLUMNS order."""
    return [row.as_tuple() for r in rounds
            for row in rows_for_bets(r.round_id, r.table_id, r.shoe_id, RULES_REF, PAYTABLE_REF, r.bets)]


def copy_floor(db_url: str, rows: list[tuple]) -> float:
    """Seconds to COPY the same rows into a copy of the ledger table (its indexes included), committed."""
    columns = ", ".join(LEDGER_COLUMNS)
    with psycopg.connect(db_url) as conn:
        conn.execute("CREATE TABLE ledger_floor (LIKE ledger_entries INCLUDING ALL)")
        conn.commit()
        started = time.perf_counter()
        with conn.cursor() as cur, cur.copy(f"COPY ledger_floor ({columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        conn.commit()
        return time.perf_counter() - started


def settle_backlog(db_url: str, redis: RedisServer, processes: SettlementProcesses, count: int, workers: int,
                   concurrency: int | None) -> float:
    """Seconds from the backlog appearing in the outbox to its last round settled."""
    processes.env = process_env(db_url, redis.url)
    for n in range(workers):
        processes.worker(concurrency=concurrency or os.cpu_count() or 1, name=f"bench{n}")
    wait_for(lambda: sum("ready." in p.read_text(errors="replace") for p in processes.log_dir.glob("bench*.log"))
             >= workers, 60, "the workers to be ready")
    processes.relay(sweep_after=0)
    time.sleep(1.0)  # the relay's start-up is not settlement time
    with psycopg.connect(db_url, autocommit=True) as conn:
        def settled() -> int:
            (count_settled,) = conn.execute("SELECT count(*) FROM rounds WHERE status = 'settled'").fetchone() or (0,)
            return count_settled

        conn.execute("UPDATE outbox SET published_at = NULL")   # the whole backlog falls due at once
        started = time.perf_counter()
        wait_for(lambda: settled() == count, 600, "the backlog to settle", every=0.05)
        return time.perf_counter() - started


def run(args) -> dict:
    casino = Casino(random.Random(args.seed))
    rounds = casino.play(args.rounds, [f"T{n}" for n in range(1, args.tables + 1)])
    rows = ledger_rows(rounds)
    Path(args.log_dir).mkdir(parents=True, exist_ok=True)
    processes = SettlementProcesses({}, Path(args.log_dir))
    with scratch_database("pontoon_bench_settlement") as db_url:
        with psycopg.connect(db_url, autocommit=True) as conn:
            casino.write(conn)
            # Hidden from the relay until the clock starts.
            conn.execute("UPDATE outbox SET published_at = now()")
        try:
            redis = RedisServer(processes).start()
            settle_seconds = settle_backlog(db_url, redis, processes, len(rounds), args.workers, args.concurrency)
        finally:
            processes.kill_all()
        with psycopg.connect(db_url) as conn:
            (booked,) = conn.execute("SELECT count(*) FROM ledger_entries").fetchone() or (0,)
        if booked != len(rows):
            raise SystemExit(f"the ledger holds {booked} rows, the replay {len(rows)}")
        floor_seconds = copy_floor(db_url, rows)
    concurrency = args.concurrency or os.cpu_count() or 1
    return {
        "rounds": len(rounds), "ledger_rows": len(rows), "tables": args.tables,
        "workers": args.workers, "concurrency_per_worker": concurrency, "batch_size": BATCH_SIZE,
        "settlement_seconds": round(settle_seconds, 3),
        "settlement_rounds_per_second": round(len(rounds) / settle_seconds, 1),
        "settlement_ledger_rows_per_second": round(len(rows) / settle_seconds, 1),
        "copy_floor_seconds": round(floor_seconds, 3),
        "copy_floor_ledger_rows_per_second": round(len(rows) / floor_seconds, 1),
        "copy_floor_rounds_per_second": round(len(rounds) / floor_seconds, 1),
        "settlement_over_floor": round(settle_seconds / floor_seconds, 1),
        "cpus": os.cpu_count(), "python": platform.python_version(),
        "measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def print_table(result: dict) -> None:
    print(f"settlement backlog: {result['rounds']} rounds, {result['ledger_rows']} ledger rows, "
          f"{result['tables']} tables, {result['workers']} worker x concurrency {result['concurrency_per_worker']}, "
          f"batches of {result['batch_size']}")
    print(f"{'':24}{'seconds':>10}{'rounds/s':>12}{'ledger rows/s':>16}")
    print(f"{'celery settlement':24}{result['settlement_seconds']:>10.2f}"
          f"{result['settlement_rounds_per_second']:>12.0f}{result['settlement_ledger_rows_per_second']:>16.0f}")
    print(f"{'plain COPY (floor)':24}{result['copy_floor_seconds']:>10.2f}"
          f"{result['copy_floor_rounds_per_second']:>12.0f}{result['copy_floor_ledger_rows_per_second']:>16.0f}")
    print(f"settlement takes {result['settlement_over_floor']}x the floor's time "
          "(it also replays every round, writes payout audit records and updates the rounds)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--concurrency", type=int, default=None,
                        help="pool processes per worker (default: Celery's, the CPU count)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log-dir", default=None, help="where the workers' and relay's logs go (default: a temp dir)")
    parser.add_argument("--out", type=Path, default=RESULTS, help="where the figures are written (JSON)")
    args = parser.parse_args(argv)
    args.log_dir = args.log_dir or tempfile.mkdtemp(prefix="settlement-bench-")
    result = run(args)
    print_table(result)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
