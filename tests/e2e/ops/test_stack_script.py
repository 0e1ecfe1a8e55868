"""ops/stack.sh (`make run`): the API, a worker and the relay come up, the first start shows an admin
key, the URL is printed, and Ctrl-C stops every process it started."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import psycopg
import requests

from bench.processes import RedisServer
from tests.support.terminal import ctrl_c_reaches_it

from .conftest import ROOT, free_port, fresh_database, make_key, sample, wait_for


def descendants(pid: int) -> set[int]:
    """Every process below `pid`, whatever process group it is in."""
    parent_of: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent_of[int(stat.parent.name)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        children = {child for child, parent in parent_of.items() if parent in frontier} - found
        found |= children
        frontier = children
    return found


def command_of(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text(errors="replace")
    except OSError:
        return ""


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def serves(base: str) -> bool:
    """Whether the stack's API answers at all (while it stops, it refuses connections)."""
    try:
        requests.get(f"{base}/healthz", timeout=1)
    except requests.RequestException:
        return False
    return True


def start_stack(database_url: str, broker_url: str, port: int, run_dir: Path,
                extra_env: dict[str, str] | None = None) -> tuple[subprocess.Popen, list[str]]:
    """ops/stack.sh in its own session, and what it printed up to "API on" (the list goes on
    growing with what it prints later)."""
    env = {**os.environ, "DATABASE_URL": database_url, "BROKER_URL": broker_url, "PORT": str(port),
           "WEB_CONCURRENCY": "2", "CELERY_CONCURRENCY": "1", "PONTOON_RUN_DIR": str(run_dir),
           "PONTOON_HEALTH_PORT": str(free_port()), **(extra_env or {})}
    script = subprocess.Popen(["bash", "ops/stack.sh"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, start_new_session=True,
                              preexec_fn=ctrl_c_reaches_it)
    printed: list[str] = []
    output = script.stdout
    assert output is not None

    def read() -> None:
        for line in output:
            printed.append(line.rstrip("\n"))

    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + 90
    try:
        while not any(line.startswith("API on") for line in printed):
            assert time.monotonic() < deadline and script.poll() is None, printed
            time.sleep(0.1)
    except BaseException:
        os.killpg(script.pid, signal.SIGKILL)
        script.wait()
        raise
    return script, printed


def test_stack_starts_everything_and_ctrl_c_stops_everything(processes, tmp_path):
    """Ctrl-C stops every process of the stack, and the services `make run` had to start for it
    (listed by ops/ensure-services.sh): here the stack's own Redis, named as started for it."""
    with fresh_database("stack") as database_url:
        redis = RedisServer(processes).start()
        port = free_port()
        started: set[int] = set()
        started_services = tmp_path / "started-services"
        started_services.write_text(f"redis 127.0.0.1:{redis.port}\n")
        script, printed = start_stack(database_url, redis.url, port, tmp_path / "run",
                                      {"PONTOON_STARTED_SERVICES": str(started_services)})
        try:
            assert f"API on http://127.0.0.1:{port}" in "\n".join(printed)
            key = next(line for line in printed if line.startswith("pnt_"))
            base = f"http://127.0.0.1:{port}"
            assert requests.get(f"{base}/v1/tables/none-here", headers={"Authorization": f"Bearer {key}"},
                                timeout=5).status_code == 404, "the printed key is a working admin key"
            assert requests.get(f"{base}/readyz", timeout=5).status_code == 200
            # The console's first admin has a name made up at first start, and the keys are in a
            # file only this user reads.
            username = next(line.split()[1] for line in printed if line.strip().startswith("username"))
            assert username.startswith("admin-") and username != "admin"
            assert (tmp_path / "secrets.env").stat().st_mode & 0o777 == 0o600
            assert "PONTOON_TOTP_KEY=" in (tmp_path / "secrets.env").read_text()
            assert sample(requests.get(f"{base}/metrics", timeout=5).text, "pontoon_http_requests_total") >= 1
            def all_up() -> bool:
                """gunicorn and its 2 workers, celery and its pool child, the relay (some still booting
                when the first worker answers /readyz)."""
                started.update(descendants(script.pid))
                commands = " ".join(command_of(pid) for pid in started if alive(pid))
                return all(name in commands for name in ("gunicorn", "celery", "relay")) and \
                    sum(alive(pid) for pid in started) >= 2 + 1 + 2 + 1

            wait_for(all_up, 60, "every process of the stack")

            os.killpg(script.pid, signal.SIGINT)        # what a terminal does on Ctrl-C
            assert script.wait(timeout=60) == 0
            # The script has exited; the last children are reaped by their parents just after.
            wait_for(lambda: not [pid for pid in started if alive(pid)], 10, "every process to end after Ctrl-C")
            assert redis.process.wait(timeout=10) is not None and not started_services.exists()
            for name in ("api", "worker", "relay"):   # JSON lines only, for any log collector
                for line in (tmp_path / "run" / "log" / f"{name}.log").read_text().splitlines():
                    assert not line.strip() or isinstance(json.loads(line), dict), (name, line)
        finally:
            if script.poll() is None:
                os.killpg(script.pid, signal.SIGKILL)
                script.wait()
            for pid in started:
                if alive(pid):
                    os.kill(pid, signal.SIGKILL)
            redis.stop()


def test_stopping_the_stack_lets_a_settling_batch_finish(processes, tmp_path):
    """SIGTERM while the worker is inside a settlement transaction (held there by a lock): the
    worker is told to stop and finishes the batch; its pool process is not killed under it."""
    with fresh_database("stack_stop") as database_url:
        redis = RedisServer(processes).start()
        port = free_port()
        script, printed = start_stack(database_url, redis.url, port, tmp_path / "run")
        blocker = psycopg.connect(database_url)
        try:
            admin = {"Authorization": f"Bearer {next(line for line in printed if line.startswith('pnt_'))}"}
            base = f"http://127.0.0.1:{port}"
            table = {"table_id": "STOP1", "rules": "canberra", "paytable": "canberra-standard"}
            assert requests.post(f"{base}/v1/tables", json=table, headers=admin, timeout=10).status_code == 201
            terminal = {"Authorization": f"Bearer {make_key(database_url, 'terminal', 'STOP1')}"}
            assert requests.post(f"{base}/v1/tables/STOP1/shoes", json={"mode": "virtual"}, headers=terminal,
                                 timeout=10).status_code == 201
            blocker.execute("LOCK TABLE ledger_entries IN EXCLUSIVE MODE")   # settlement waits inside its batch
            state = requests.post(f"{base}/v1/tables/STOP1/rounds", json={"wagers": [{"seat": 1, "wager": 1000}]},
                                  headers=terminal, timeout=10).json()
            while state["awaiting"] == "decision":
                names = {legal["action"] for legal in state["in_turn"]["legal_actions"]}
                decision = {"seat": 1, "hand": state["in_turn"]["hand"],
                            "action": "stand" if "stand" in names else "hit"}
                state = requests.post(f"{base}/v1/rounds/{state['round_id']}/actions", json=decision,
                                      headers=terminal, timeout=10).json()
            assert state["status"] == "complete", state
            with psycopg.connect(database_url, autocommit=True) as look:
                wait_for(lambda: look.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'pontoon-settlement' "
                    "AND wait_event_type = 'Lock'").fetchone()[0] > 0, 60, "a settler waiting on the ledger")
                os.kill(script.pid, signal.SIGTERM)
                wait_for(lambda: not serves(base), 30, "the stack to stop serving while the batch waits")
                blocker.rollback()          # the batch can finish now
                assert script.wait(timeout=60) == 0
                status, rows = look.execute("SELECT status, (SELECT count(*) FROM ledger_entries l "
                                            "WHERE l.round_id = r.round_id) FROM rounds r").fetchone()
            assert (status, rows > 0) == ("settled", True)
        finally:
            blocker.close()
            if script.poll() is None:
                os.killpg(script.pid, signal.SIGKILL)
                script.wait()
            redis.stop()


def parent_of(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except OSError:
        return 0


def started_by(script: subprocess.Popen, name: str) -> int | None:
    """The process the stack runs as `name` (its command line names it), started by the script itself."""
    found = [pid for pid in descendants(script.pid)
             if parent_of(pid) == script.pid and name in command_of(pid) and alive(pid)]
    return found[0] if len(found) == 1 else None


def play_a_round(base: str, terminal: dict, table: str) -> str:
    """One round at `table`, one seat standing as soon as it may: its id, once complete."""
    state = requests.post(f"{base}/v1/tables/{table}/rounds", json={"wagers": [{"seat": 1, "wager": 1000}]},
                          headers=terminal, timeout=10).json()
    while state["awaiting"] == "decision":
        names = {legal["action"] for legal in state["in_turn"]["legal_actions"]}
        decision = {"seat": 1, "hand": state["in_turn"]["hand"], "action": "stand" if "stand" in names else "hit"}
        state = requests.post(f"{base}/v1/rounds/{state['round_id']}/actions", json=decision,
                              headers=terminal, timeout=10).json()
    assert state["status"] == "complete", state
    return state["round_id"]


def test_a_worker_or_relay_that_dies_is_started_again_and_the_api_keeps_answering(processes, tmp_path):
    """kill -9 the Celery worker's main process (twice: the second restart waits longer), then the
    relay: the stack starts each again (the API answering throughout, liveness and an
    authenticated request alike), and the new pair settles a round; Ctrl-C still stops everything."""
    with fresh_database("stack_restart") as database_url:
        redis = RedisServer(processes).start()
        port, health_port = free_port(), free_port()
        script, printed = start_stack(database_url, redis.url, port, tmp_path / "run",
                                      {"PONTOON_HEALTH_PORT": str(health_port)})
        try:
            base = f"http://127.0.0.1:{port}"
            admin = {"Authorization": f"Bearer {next(line for line in printed if line.startswith('pnt_'))}"}
            table = {"table_id": "LIVE1", "rules": "canberra", "paytable": "canberra-standard"}
            assert requests.post(f"{base}/v1/tables", json=table, headers=admin, timeout=10).status_code == 201
            terminal = {"Authorization": f"Bearer {make_key(database_url, 'terminal', 'LIVE1')}"}
            assert requests.post(f"{base}/v1/tables/LIVE1/shoes", json={"mode": "virtual"}, headers=terminal,
                                 timeout=10).status_code == 201

            def answering() -> None:
                assert requests.get(f"http://127.0.0.1:{health_port}/healthz", timeout=5).status_code == 200
                assert requests.get(f"{base}/v1/tables/LIVE1", headers=admin, timeout=5).status_code == 200

            for name in ("celery", "celery", "service.observability.relay"):
                victim = wait_for(lambda name=name: started_by(script, name), 60, f"the stack's {name}")
                children = [pid for pid in descendants(script.pid) if parent_of(pid) == victim]
                os.kill(victim, signal.SIGKILL)
                # The API answers while the process is away and as it comes back.
                successor = None
                deadline = time.monotonic() + 60
                while successor is None:
                    answering()
                    assert time.monotonic() < deadline, f"no new {name} process"
                    found = started_by(script, name)
                    successor = found if found not in (None, victim) else None
                    time.sleep(0.2)
                assert script.poll() is None
                # The dead worker's pool process went with it (a Celery worker's only).
                wait_for(lambda children=children: not [pid for pid in children if alive(pid)], 10,
                         f"the dead {name}'s children to end")
                answering()

            round_id = play_a_round(base, terminal, "LIVE1")
            # Well before the sweep would settle it in the relay (a round complete for 60 s): the
            # message goes through the new relay to the new worker.
            with psycopg.connect(database_url, autocommit=True) as look:
                wait_for(lambda: look.execute("SELECT status FROM rounds WHERE round_id = %s",
                                              (round_id,)).fetchone()[0] == "settled", 30,
                         "the new worker and relay to settle the round")
            # Each death and restart was said where the operator sees it.
            said = [line.split(" (see ")[0] for line in printed if "stopped unexpectedly" in line]
            assert said == ["worker stopped unexpectedly (status 137); starting it again in 0.50 s",
                            "worker stopped unexpectedly (status 137); starting it again in 1.00 s",
                            "relay stopped unexpectedly (status 137); starting it again in 0.50 s"], printed
            assert [line for line in printed if line.endswith("started again")] == \
                ["worker started again", "worker started again", "relay started again"], printed
            started = descendants(script.pid)
            os.killpg(script.pid, signal.SIGINT)
            assert script.wait(timeout=60) == 0
            wait_for(lambda: not [pid for pid in started if alive(pid)], 10, "every process to end after Ctrl-C")
        finally:
            if script.poll() is None:
                os.killpg(script.pid, signal.SIGKILL)
                script.wait()
            redis.stop()
