"""Liveness on a listener of its own, served by the API's master process: it answers GET /healthz
at once whatever the workers are waiting on (the database, the broker), so a supervisor or a load
balancer never restarts a healthy replica in the middle of an outage. The master is what a
supervisor restarts; it replaces its own workers when they die or hang (gunicorn's timeout)."""
from __future__ import annotations

import json
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PATH = "/healthz"
_BODY = json.dumps({"status": "ok"}).encode()


class LivenessHandler(BaseHTTPRequestHandler):
    """GET /healthz: 200 {"status": "ok"}; anything else: 404. Nothing is read or logged."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name for the GET handler)
        status, body = (HTTPStatus.OK, _BODY) if self.path.split("?", 1)[0] == PATH else (HTTPStatus.NOT_FOUND, b"")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (http.server's signature)
        """Probes come every few seconds: the access log is gunicorn's, for the API's own requests."""


class LivenessListener:
    """The listener and the thread serving it; `close()` stops both."""

    def __init__(self, host: str, port: int) -> None:
        self.server = ThreadingHTTPServer((host, port), LivenessHandler)
        self.thread = threading.Thread(target=self.server.serve_forever, name="liveness", daemon=True)

    @property
    def port(self) -> int:
        return int(self.server.server_address[1])

    def start(self) -> LivenessListener:
        self.thread.start()
        return self

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def close_in_child(self) -> None:
        """A forked worker's copy of the listening socket, closed: only the master answers on it."""
        self.server.server_close()
