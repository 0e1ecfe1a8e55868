"""The API's logs under gunicorn: JSON lines, a request id on each request (the caller's, echoed,
or a new one), the round id where there is one, and never a key or a body; the settlement
worker's lines name the rounds they settle."""
from __future__ import annotations

import json
import uuid

import requests

from service.terminal.simulator import SimulatorConfig
from service.terminal.simulator import run as simulate

from .conftest import make_key, wait_for


def test_json_lines_with_request_and_round_ids(stack, admin_key, dump_logs_on_failure):
    api = stack.apis[0]
    table = f"LOG{uuid.uuid4().hex[:5]}"
    stats = simulate(SimulatorConfig(base_urls=(api.url,), table=table, rounds=3, admin_key=admin_key, seed=5,
                                     progress_every=0))
    assert stats.error_count == 0, stats.errors
    round_id = stats.round_ids[-1]
    mine = f"test-{uuid.uuid4().hex}"
    reply = requests.get(f"{api.url}/v1/rounds/{round_id}", headers={"Authorization": f"Bearer {admin_key}",
                                                                    "X-Request-Id": mine}, timeout=5)
    assert reply.status_code == 200 and reply.headers["X-Request-Id"] == mine
    streamed = f"test-{uuid.uuid4().hex}"   # an answer streamed in chunks is still one request
    compliance = make_key(stack.database_url, "compliance")
    exported = requests.get(f"{api.url}/v1/audit/export", headers={"Authorization": f"Bearer {compliance}",
                                                                   "X-Request-Id": streamed}, timeout=10)
    assert exported.status_code == 200 and exported.text
    generated = requests.get(f"{api.url}/healthz", timeout=5).headers["X-Request-Id"]
    assert len(generated) == 32
    for odd in ("has spaces; and=more", "x" * 200):
        echoed = requests.get(f"{api.url}/healthz", headers={"X-Request-Id": odd}, timeout=5).headers["X-Request-Id"]
        assert echoed != odd and len(echoed) == 32, "an odd id is replaced, not echoed into logs"

    def logged():
        lines = api.log_lines()      # every line parses as JSON, or this raises
        return lines if any(line.get("request_id") == mine for line in lines) else None

    lines = wait_for(logged, 10, "the request's log line")
    requests_logged = [line for line in lines if line.get("event") == "request"]
    assert all(line["request_id"] and line["pid"] and "status" in line for line in requests_logged)
    read = next(line for line in requests_logged if line["request_id"] == mine)
    assert read["round_id"] == round_id and read["status"] == 200
    assert read["route"] == "/v1/rounds/<uuid:round_id>" and read["method"] == "GET"
    # Every request of that round names it: its opening (the id is only in the answer) and its decisions.
    of_round = [line for line in requests_logged if line.get("round_id") == round_id]
    assert any(line["route"].endswith("/rounds") and line["status"] == 201 for line in of_round)
    assert any(line["route"].endswith("/actions") for line in of_round)
    assert len({line["request_id"] for line in requests_logged}) == len(requests_logged), "one id per request"
    assert [line["route"] for line in requests_logged if line["request_id"] == streamed] == ["/v1/audit/export"]
    # gunicorn's own lines are JSON too; no secret and no body is ever written.
    text = stack.processes.log(api.name)
    assert any(line.get("logger") == "gunicorn.error" for line in lines)
    assert admin_key not in text and "pnt_" not in text and '"wagers"' not in text

    # The settlement worker's lines name the rounds they settle, in the same field.
    wait_for(lambda: stack.awaiting_settlement() == 0, 60, "the rounds to settle")
    workers = [name for name, _ in stack.processes.running if name.startswith("worker-")]

    def settled():
        lines = [json.loads(line) for name in workers for line in stack.processes.log(name).splitlines()
                 if line.startswith("{")]
        return [line for line in lines if line.get("round_id") == round_id] or None

    assert any(line["message"] == "round settled" for line in wait_for(settled, 30, "the worker's line"))
