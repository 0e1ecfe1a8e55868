"""The service under real gunicorn with three workers: a round's requests land on different
processes, survive a worker killed between two of them and a restart of the whole service, and
two conflicting decisions sent at once leave exactly one applied."""
from __future__ import annotations

import json
import os
import signal
import socket
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import psycopg
import requests

from bench.processes import wait_for
from service.replay import replay_data
from tests.conftest import TRANSCRIPTS
from tests.support.api_client import Api, drive_round, ok
from tests.support.locks import waiting_for_locks


def _worked(name: str) -> tuple[dict, dict]:
    return (json.loads((TRANSCRIPTS / f"{name}.json").read_text()),
            json.loads((TRANSCRIPTS / f"{name}.expected.json").read_text()))


def _money(result: dict) -> dict:
    return {s["seat"]: (s["staked"], s["returned"], s["net"]) for s in result["seats"]}


def _table(as_key, make_key) -> tuple[str, Api]:
    table_id = f"E2E-{uuid.uuid4().hex[:8]}"
    ok(as_key(make_key("admin")).post("/v1/tables", {"table_id": table_id, "rules": "canberra",
                                                     "paytable": "canberra-standard"}), 201)
    terminal = as_key(make_key("terminal", table_id))
    ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": "physical"}), 201)
    return table_id, terminal


def _play(terminal: Api, table_id: str, name: str, between=None):
    transcript, expected = _worked(name)
    round_id = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": transcript["seats"]}), 201)["round_id"]
    played = drive_round(terminal, round_id, transcript["cards"], transcript["actions"], between=between)
    assert played.state["status"] == "complete", played.state
    back = ok(terminal.get(f"/v1/rounds/{round_id}/transcript"), 200)
    assert _money(replay_data(back)) == _money(expected)
    return played


def test_a_rounds_requests_land_on_different_workers(service, as_key, make_key):
    table_id, terminal = _table(as_key, make_key)
    pinned: list[socket.socket] = []
    posts: list[str] = []

    def elsewhere_next(step, reply):
        posts.append(reply.served_by)
        _release(pinned)
        pinned.extend(_steer_away_from(service, reply.served_by))

    try:
        played = _play(terminal, table_id, "three-seats-dealer-bust", between=elsewhere_next)
    finally:
        _release(pinned)
    assert len(posts) >= 10
    assert all(a != b for a, b in zip(posts, posts[1:])), posts
    assert {r.served_by for r in played.replies} <= service.worker_names()


def _steer_away_from(service, name: str, workers: int = 3) -> list[socket.socket]:
    """Leave exactly one worker free, and not the one answering as `name`, so the next request must go to another
    process. A sync worker that has accepted a half-sent request serves nothing else; the
    listen queue is first in, first out, so the pins are taken before the probe."""
    for _ in range(50):
        pins = [_hold_a_worker(service.port) for _ in range(workers - 1)]
        free = requests.get(service.base_url + "/healthz", timeout=5).headers["X-Served-By"]
        if free != name:
            return pins
        _release(pins)
        time.sleep(0.02)
    raise AssertionError(f"could not steer requests away from worker {name}")


def _hold_a_worker(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: pin\r\n")   # no blank line: the worker waits for more
    return sock


def _release(pins: list[socket.socket]) -> None:
    for sock in pins:
        sock.close()
    pins.clear()


def test_a_worker_killed_between_two_requests(service, as_key, make_key):
    table_id, terminal = _table(as_key, make_key)
    killed: list[int] = []

    def kill_once(step, reply):
        if step == 4:
            pid = service.pid_serving_as(reply.served_by)
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    played = _play(terminal, table_id, "split-double-dealer-pontoon-obo-pair", between=kill_once)
    assert killed and killed[0] not in {service.pid_serving_as(r.served_by) for r in played.replies[-3:]}
    wait_for(lambda: len(service.worker_pids()) == 3, 10, "the arbiter to replace the killed worker")
    assert killed[0] not in service.worker_pids()


def test_the_whole_service_restarted_mid_round(service, as_key, make_key):
    table_id, terminal = _table(as_key, make_key)
    before: set[str] = set()

    def restart_once(step, reply):
        if step == 5:
            before.update(service.worker_names())
            service.restart()

    played = _play(terminal, table_id, "five-card-21", between=restart_once)
    after = {r.served_by for r in played.replies[-2:]}
    assert before and not (after & before), "the round finished on the new processes"


def test_two_conflicting_decisions_at_once_on_two_processes(service, as_key, make_key, database_url):
    table_id, terminal = _table(as_key, make_key)
    round_id = ok(terminal.post(f"/v1/tables/{table_id}/rounds",
                                {"wagers": [{"seat": 1, "wager": 1000}]}), 201)["round_id"]
    for card in ("9H", "3D", "5D"):   # seat 1: 14 against a 3
        ok(terminal.post(f"/v1/rounds/{round_id}/cards", {"card": card}), 200)
    path = f"/v1/rounds/{round_id}/actions"
    with psycopg.connect(database_url) as lock, psycopg.connect(database_url, autocommit=True) as watch:
        lock.execute("SELECT 1 FROM rounds WHERE round_id = %s FOR UPDATE", (round_id,))
        barrier = threading.Barrier(2)

        def send(body):
            barrier.wait()
            return terminal.post(path, body)

        with ThreadPoolExecutor(2) as pool:
            futures = [pool.submit(send, {"seat": 1, "action": a}) for a in ("stand", "hit")]
            wait_for(lambda: waiting_for_locks(watch) >= 2, 30, "both decisions to wait at the round's lock")
            lock.commit()
            replies = [f.result(timeout=30) for f in futures]
    assert sorted(r.status for r in replies) == [200, 409], [(r.status, r.body) for r in replies]
    assert len({r.served_by for r in replies}) == 2, "sync workers: one request each"


def _chunks(total: int, size: int = 1 << 16):
    """A body of `total` bytes sent chunked: requests gives a generator no Content-Length."""
    for start in range(0, total, size):
        yield b"x" * min(size, total - start)


def test_a_chunked_body_over_the_limit_is_413_under_gunicorn(service, make_key):
    """gunicorn hands the app a chunked body as a stream with no length; 3 MiB of it is refused with
    the service's own answer, the API's error body and the console's page, not cut short at the limit."""
    admin = {"Authorization": f"Bearer {make_key('admin')}", "Content-Type": "application/json"}
    reply = requests.post(service.base_url + "/v1/tables", data=_chunks(3 << 20), headers=admin, timeout=30)
    assert reply.status_code == 413, reply.text[:300]
    assert reply.json()["code"] == "request_entity_too_large"
    page = requests.post(service.base_url + "/console/login", data=_chunks(3 << 20), timeout=30,
                         headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert page.status_code == 413 and "Too much sent" in page.text, page.text[:300]
    # A chunked body within the limit is read whole.
    table_id = f"E2E-{uuid.uuid4().hex[:8]}"
    body = json.dumps({"table_id": table_id, "rules": "canberra", "paytable": "canberra-standard"}).encode()
    created = requests.post(service.base_url + "/v1/tables", data=iter([body[:20], body[20:]]), headers=admin,
                            timeout=30)
    assert created.status_code == 201, created.text
