"""The liveness listener answers GET /healthz by itself, and nothing else."""
from __future__ import annotations

import requests

from service.observability.liveness import LivenessListener


def test_the_listener_answers_healthz_and_nothing_else():
    listener = LivenessListener("127.0.0.1", 0).start()
    try:
        url = f"http://127.0.0.1:{listener.port}"
        live = requests.get(url + "/healthz", timeout=2)
        assert live.status_code == 200 and live.json() == {"status": "ok"}
        assert live.headers["Cache-Control"] == "no-store"
        assert requests.get(url + "/healthz?probe=1", timeout=2).status_code == 200
        assert requests.get(url + "/readyz", timeout=2).status_code == 404
    finally:
        listener.close()
