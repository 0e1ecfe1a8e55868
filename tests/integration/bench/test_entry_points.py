"""Every benchmark `make bench` runs, run the same way on a tiny size: a benchmark that no longer
runs fails here rather than in the next `make bench`. Figures are written to a temporary folder,
never over bench/results/, and only their presence is checked: what they measure is make bench's."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import psycopg
import pytest
from werkzeug.serving import make_server

from bench.floor_app import create_app
from bench.processes import free_port, scratch_database
from service.config import Settings
from tests.support.app_fixtures import chained_key

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[3]


def run_bench(script: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """`python bench/<script> args`, from the project's folder, as ops/bench.sh runs it."""
    done = subprocess.run([sys.executable, f"bench/{script}", *args], cwd=ROOT, env=dict(os.environ),
                          capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, \
        f"bench/{script} exited {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def floor_stack():
    """(the URL of the benchmark's app served in this process, an admin key), on a scratch database."""
    with scratch_database("pontoon_test_bench") as database_url:
        app = create_app(Settings.from_env({**os.environ, "DATABASE_URL": database_url}))
        server = make_server("127.0.0.1", free_port(), app, threaded=True)
        serving = threading.Thread(target=server.serve_forever, daemon=True)
        serving.start()
        with psycopg.connect(database_url) as conn:
            admin_key = chained_key(conn, "admin", None, "bench test")   # an admin's key is a person's
        try:
            yield f"http://127.0.0.1:{server.server_port}", admin_key
        finally:
            server.shutdown()
            serving.join()
            app.extensions["pontoon.pool"].close()


@pytest.fixture(scope="module")
def replay_results(tmp_path_factory) -> Path:
    results = tmp_path_factory.mktemp("bench-results")
    run_bench("replay_bench.py", "--rounds", "20", "--runs", "1", "--instruction-rounds", "0",
              "--out", str(results / "replay.json"))
    return results


def test_the_terminal_benchmark_measures_the_terminal_and_the_floor(floor_stack, tmp_path):
    url, admin_key = floor_stack
    out = tmp_path / "terminal.json"
    run_bench("terminal_bench.py", "--url", url, "--admin-key", admin_key, "--concurrency", "1",
              "--seconds", "0.4", "--repeats", "1", "--pairs", "1", "--half-pairs", "2", "--warm-up", "0.2",
              "--out", str(out))
    figures = json.loads(out.read_text())
    assert figures["errors"] == 0
    assert figures["peak"]["decisions_per_s"] > 0 and figures["floor_peak"]["requests_per_s"] > 0
    assert len(figures["half_load"]["decisions_p99_ms_of_each_window"]) == 2
    assert len(figures["floor_half_load"]["p99_ms_of_each_window"]) == 2


def test_the_replay_benchmark_times_the_engine_and_the_naive_replayer(replay_results):
    figures = json.loads((replay_results / "replay.json").read_text())
    assert figures["rounds"] == 20
    assert figures["engine_rounds_per_s"] > 0 and figures["floor_naive_rounds_per_s"] > 0


def test_the_settlement_benchmark_drains_a_backlog_and_copies_the_same_rows(tmp_path):
    out = tmp_path / "settlement.json"
    run_bench("settlement_bench.py", "--rounds", "10", "--tables", "1", "--concurrency", "1",
              "--log-dir", str(tmp_path / "logs"), "--out", str(out))
    figures = json.loads(out.read_text())
    assert figures["rounds"] == 10 and figures["ledger_rows"] > 0
    assert figures["settlement_seconds"] > 0 and figures["copy_floor_seconds"] > 0


def test_the_house_edge_benchmark_plays_the_same_shoes_to_the_same_money(tmp_path):
    out = tmp_path / "house_edge.json"
    run_bench("house_edge_bench.py", "--reference-rounds", "10", "--fast-rounds", "200", "--out", str(out))
    rows = json.loads(out.read_text())["results"]
    assert rows and all(row["identical_money"] for row in rows)


def test_the_report_tables_what_the_benchmarks_wrote(replay_results):
    done = run_bench("report.py", "--results", str(replay_results))
    assert "replay" in done.stdout
    table = json.loads((replay_results / "bench.json").read_text())["table"]
    assert any(row["figure"] == json.loads((replay_results / "replay.json").read_text())["engine_rounds_per_s"]
               for row in table)
