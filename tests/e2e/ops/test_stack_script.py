"""ops/stack.sh (`make run`): the API, a worker and the relay come up, the first start shows an admin
key, the URL is printed, and Ctrl-C stops every process it started."""
from __future__ import annotations

import os
import queue
import signal
import subprocess
import threading
import time
from pathlib import Path

import requests

from .conftest import ROOT, RedisServer, fresh_database, free_port, sample, wait_for


def descendants(pid: int) -> set[int]:
    """Every process below `pid`, whatever process group it is in."""
    parent_of: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent_of[int(stat.parent.name)] = int(fields[1])
    found, frontier = set(), {pid}
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


def test_stack_starts_everything_and_ctrl_c_stops_everything(processes, tmp_path):
    with fresh_database("stack") as database_url:
        redis = RedisServer(processes)
        port = free_port()
        env = {**os.environ, "DATABASE_URL": database_url, "BROKER_URL": redis.url, "PORT": str(port),
               "WEB_CONCURRENCY": "2", "CELERY_CONCURRENCY": "1", "PONTOON_RUN_DIR": str(tmp_path / "run")}
        script = subprocess.Popen(["bash", "ops/stack.sh"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, start_new_session=True)
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: [lines.put(line.rstrip("\n")) for line in script.stdout], daemon=True).start()
        printed: list[str] = []
        started: set[int] = set()
        try:
            deadline = time.monotonic() + 90
            while not any(line.startswith("API on") for line in printed):
                assert time.monotonic() < deadline and script.poll() is None, printed
                try:
                    printed.append(lines.get(timeout=0.5))
                except queue.Empty:
                    pass
            assert f"API on http://127.0.0.1:{port}" in "\n".join(printed)
            key = next(line for line in printed if line.startswith("pnt_"))
            base = f"http://127.0.0.1:{port}"
            assert requests.get(f"{base}/v1/tables/none-here", headers={"Authorization": f"Bearer {key}"},
                                timeout=5).status_code == 404, "the printed key is a working admin key"
            assert requests.get(f"{base}/readyz", timeout=5).status_code == 200
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
            time.sleep(0.5)   # the last children are reaped by their parents
            left = [pid for pid in started if alive(pid)]
            assert not left, f"still running after Ctrl-C: {left}"
        finally:
            if script.poll() is None:
                os.killpg(script.pid, signal.SIGKILL)
                script.wait()
            for pid in started:
                if alive(pid):
                    os.kill(pid, signal.SIGKILL)
            processes.stop(redis.process)
