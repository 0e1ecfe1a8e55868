"""ops/run.sh: migrates, prints an admin key on the first start only, serves on $PORT in the
foreground, and stops cleanly on Ctrl-C."""
from __future__ import annotations

import os
import queue
import signal
import subprocess
import threading

import requests

from bench.processes import scratch_database
from tests.conftest import ROOT
from tests.support.terminal import ctrl_c_reaches_it

from .conftest import free_port, wait_for


class RunScript:
    def __init__(self, database_url: str, port: int, run_dir: str) -> None:
        env = {**os.environ, "DATABASE_URL": database_url, "PORT": str(port), "WEB_CONCURRENCY": "1",
               "PONTOON_RUN_DIR": run_dir}
        self.base_url = f"http://127.0.0.1:{port}"
        self.process = subprocess.Popen(["bash", "ops/run.sh"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True, start_new_session=True,
                                        preexec_fn=ctrl_c_reaches_it)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_until_serving(self, timeout: float = 30) -> list[str]:
        """Lines printed until the API answers."""
        seen: list[str] = []

        def serving() -> bool:
            while not self.lines.empty():
                seen.append(self.lines.get())
            assert self.process.poll() is None, seen
            try:
                return requests.get(self.base_url + "/healthz", timeout=1).status_code == 200
            except requests.RequestException:
                return False

        wait_for(serving, timeout, "run.sh to serve")
        return seen

    def ctrl_c(self) -> int:
        os.killpg(self.process.pid, signal.SIGINT)   # what a terminal does to its foreground job
        return self.process.wait(timeout=30)


def test_run_script_first_start_then_second_start(tmp_path):
    with scratch_database("pontoon_run") as database_url:
        port = free_port()
        first = RunScript(database_url, port, str(tmp_path / "run"))
        try:
            printed = first.wait_until_serving()
            keys = [line for line in printed if line.startswith("pnt_")]
            assert len(keys) == 1, printed
            reply = requests.get(first.base_url + "/v1/tables/nothing-here",
                                 headers={"Authorization": f"Bearer {keys[0]}"}, timeout=5)
            assert reply.status_code == 404, "the printed key is a working admin key"
        finally:
            status = first.ctrl_c()
        assert status == 0
        try:
            requests.get(first.base_url + "/healthz", timeout=1)
            raise AssertionError("still serving after Ctrl-C")
        except requests.ConnectionError:
            pass

        second = RunScript(database_url, port, str(tmp_path / "run"))
        try:
            printed = second.wait_until_serving()
            assert not any(line.startswith("pnt_") for line in printed), printed
        finally:
            assert second.ctrl_c() == 0
