"""The terminal simulator against real gunicorn: virtual and physical shoes, zero errors, the
rounds in the database and settled; a refused request is an error and fails the run."""
from __future__ import annotations

import os
import subprocess
import sys
import uuid

import psycopg
import pytest

from service.terminal.simulator import SimulatorConfig
from service.terminal.simulator import run as simulate

from .conftest import ROOT, make_key, wait_for


def rounds_in_database(database_url: str, tables: list[str]) -> dict[str, int]:
    with psycopg.connect(database_url) as conn:
        rows = conn.execute("SELECT status, count(*) FROM rounds WHERE table_id = ANY(%s) GROUP BY status",
                            (tables,)).fetchall()
    return dict(rows)


def test_pontoon_terminal_plays_rounds_with_no_errors(stack, admin_key, dump_logs_on_failure):
    api = stack.apis[0]
    table = f"SIM{uuid.uuid4().hex[:5]}"
    env = {**os.environ, "PONTOON_ADMIN_KEY": admin_key}
    done = subprocess.run([sys.executable, "-m", "service.cli", "terminal", "--url", api.url, "--table", table,
                           "--rounds", "20", "--seats", "3", "--seed", "11", "--quiet"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "rounds        20" in done.stdout and "errors        0" in done.stdout, done.stdout
    # Twenty rounds of three seats go past a shoe's cut card: the terminal changed the shoe when the
    # round's answer said so, and no opening was refused for it.
    assert int(done.stdout.split("shoes opened ")[1].split()[0]) >= 2, done.stdout
    refused = [line for line in api.log_lines() if line.get("event") == "request"
               and line.get("status") == 409 and table in (line.get("path") or "")]
    assert refused == []
    wait_for(lambda: rounds_in_database(stack.database_url, [table]) == {"settled": 20}, 60,
             "the 20 rounds to be settled")


def test_a_physical_shoe_terminal_with_its_own_key(stack, admin_key, dump_logs_on_failure):
    api = stack.apis[0]
    table = f"PHY{uuid.uuid4().hex[:5]}"
    # The table made by an admin run, then played with a terminal key, as a casino would.
    stats = simulate(SimulatorConfig(base_urls=(api.url,), table=table, rounds=1, admin_key=admin_key,
                                     progress_every=0))
    assert stats.error_count == 0, stats.errors
    key = make_key(stack.database_url, "terminal", table)
    stats = simulate(SimulatorConfig(base_urls=(api.url,), table=table, rounds=12, seats=5, physical=True, seed=3,
                                     terminal_key=key, progress_every=0))
    assert stats.error_count == 0, stats.errors
    assert stats.rounds == 12 and stats.cards >= 12 * (2 * 5 + 1)
    assert stats.staked > 0 and sum(stats.decisions.values()) > 0
    wait_for(lambda: rounds_in_database(stack.database_url, [table]) == {"settled": 13}, 60, "the rounds to settle")


def terminal_keys(database_url: str, tables: list[str]) -> list[tuple[str, bool]]:
    """(table, revoked?) of every terminal key issued for these tables, in the order they were issued."""
    with psycopg.connect(database_url) as conn:
        return conn.execute("SELECT table_id, revoked_at IS NOT NULL FROM api_keys WHERE role = 'terminal' "
                            "AND table_id = ANY(%s) ORDER BY table_id, created_at", (tables,)).fetchall()


def test_the_keys_a_run_issues_are_revoked_when_it_ends(stack, admin_key):
    api = stack.apis[0]
    table = f"KEY{uuid.uuid4().hex[:5]}"
    stats = simulate(SimulatorConfig(base_urls=(api.url,), table=table, rounds=2, concurrency=2, admin_key=admin_key,
                                     progress_every=0))
    assert stats.error_count == 0, stats.errors
    assert terminal_keys(stack.database_url, [f"{table}-1", f"{table}-2"]) == [(f"{table}-1", True),
                                                                                 (f"{table}-2", True)]
    # A run with a terminal key of its own leaves that key as it found it.
    own = make_key(stack.database_url, "terminal", f"{table}-1")
    stats = simulate(SimulatorConfig(base_urls=(api.url,), table=f"{table}-1", rounds=1, terminal_key=own,
                                     progress_every=0))
    assert stats.error_count == 0, stats.errors
    assert terminal_keys(stack.database_url, [f"{table}-1"]) == [(f"{table}-1", True), (f"{table}-1", False)]


def test_errors_are_counted_and_fail_the_run(stack, admin_key):
    api = stack.apis[0]
    table = f"BAD{uuid.uuid4().hex[:5]}"
    # A key for another table: every request on this one is refused.
    stranger = make_key(stack.database_url, "terminal", "SOMEWHERE-ELSE")
    simulate(SimulatorConfig(base_urls=(api.url,), table=table, rounds=1, admin_key=admin_key, progress_every=0))
    env = {**os.environ, "PONTOON_TERMINAL_KEY": stranger}
    done = subprocess.run([sys.executable, "-m", "service.cli", "terminal", "--url", api.url, "--table", table,
                           "--rounds", "2", "--quiet"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "403 wrong_table" in done.stdout


def test_the_terminal_talks_to_the_api_directly_whatever_the_proxy_settings(stack, admin_key):
    """The simulator goes to the URL it is given: a proxy named in the environment (here one that
    is not there) is neither read nor used."""
    api = stack.apis[0]
    table = f"PRX{uuid.uuid4().hex[:5]}"
    env = {name: value for name, value in os.environ.items() if name.lower() != "no_proxy"}
    env.update(PONTOON_ADMIN_KEY=admin_key, HTTP_PROXY="http://127.0.0.1:9", http_proxy="http://127.0.0.1:9")
    done = subprocess.run([sys.executable, "-m", "service.cli", "terminal", "--url", api.url, "--table", table,
                           "--rounds", "2", "--seed", "5", "--quiet"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "rounds        2" in done.stdout and "errors        0" in done.stdout, done.stdout


@pytest.mark.parametrize("concurrency", ["0", "-1", "two"])
def test_a_terminal_count_that_plays_nothing_is_refused(concurrency):
    done = subprocess.run([sys.executable, "-m", "service.cli", "terminal", "--concurrency", concurrency],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--concurrency" in done.stderr, done.stderr
