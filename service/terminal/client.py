"""One terminal's HTTP client: a keep-alive session, an Idempotency-Key on every POST (the same
key on a retry), latency kept per endpoint."""
from __future__ import annotations

import itertools
import random
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import requests

RETRIES = 3                      # a POST lost to a dropped connection or a 503 is sent again, same key
RETRY_PAUSE = 0.2                # seconds, doubled each time
RETRY_STATUSES = frozenset({502, 503, 504})


@dataclass
class Reply:
    status: int                  # 0: no answer (the connection failed every time)
    body: Any
    endpoint: str
    base_url: str
    served_by: str | None = None
    elapsed: float = 0.0
    retry_after: float | None = None   # seconds, where the service asked (Retry-After)

    @property
    def code(self) -> str | None:
        return self.body.get("code") if isinstance(self.body, dict) else None

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300


@dataclass
class Latencies:
    """Seconds per request, by endpoint label; one per terminal thread, merged at the end."""

    by_endpoint: dict[str, list[float]] = field(default_factory=dict)

    def add(self, endpoint: str, seconds: float) -> None:
        self.by_endpoint.setdefault(endpoint, []).append(seconds)

    def merge(self, other: Latencies) -> None:
        for endpoint, values in other.by_endpoint.items():
            self.by_endpoint.setdefault(endpoint, []).extend(values)

    def count(self) -> int:
        return sum(len(values) for values in self.by_endpoint.values())


class TerminalClient:
    """Calls the API as one key. With several base URLs it sends each request to the next one in
    turn, as a round-robin load balancer would. `pace` (requests per second) spaces requests out
    to a steady rate, starting `phase` (0 to 1) of an interval late so that terminals paced
    alike do not send in lock-step; None sends each as soon as the last is answered."""

    def __init__(self, base_urls: list[str] | str, key: str, *, timeout: float = 10.0, pace: float | None = None,
                 phase: float = 0.0, on_reply: Callable[[Reply], None] | None = None) -> None:
        urls = [url.rstrip("/") for url in ([base_urls] if isinstance(base_urls, str) else base_urls)]
        self.base_url = urls[0]
        self._urls = itertools.cycle(urls)
        self.session = requests.Session()
        # The terminal talks to the API directly. Left on, requests reads the proxy settings from
        # the whole environment on every request, which cost more CPU than the exchange itself.
        self.session.trust_env = False
        self.session.headers["Authorization"] = f"Bearer {key}"
        self.timeout = timeout
        self.latencies = Latencies()
        self.retries = 0
        self.on_reply = on_reply
        self._interval = 1.0 / pace if pace else None
        self._next_at = time.perf_counter() + (self._interval or 0.0) * phase
        self._jitter = random.Random()

    def get(self, path: str, endpoint: str) -> Reply:
        return self._send("GET", path, None, endpoint)

    def post(self, path: str, body: Any, endpoint: str, *, idempotency_key: str | None = None) -> Reply:
        """A POST under `idempotency_key` (a new one if none): a retry sends the same key."""
        return self._send("POST", path, body, endpoint, {"Idempotency-Key": idempotency_key or str(uuid.uuid4())})

    def close(self) -> None:
        self.session.close()

    def _wait_for_slot(self) -> None:
        if self._interval is None:
            return
        now = time.perf_counter()
        if self._next_at > now:
            time.sleep(self._next_at - now)
        # Behind schedule: send at once and do not try to catch up in a burst. The jitter (mean 1)
        # keeps terminals that share a rate from drifting into step with each other.
        self._next_at = max(self._next_at, now) + self._interval * self._jitter.uniform(0.8, 1.2)

    def _send(self, method: str, path: str, body: Any, endpoint: str, headers: dict | None = None) -> Reply:
        self._wait_for_slot()
        pause = RETRY_PAUSE
        for attempt in range(RETRIES + 1):
            base_url = next(self._urls)
            started = time.perf_counter()
            try:
                response = self.session.request(method, base_url + path, json=body, headers=headers,
                                                timeout=self.timeout)
            except requests.RequestException:
                reply = Reply(0, None, endpoint, base_url, elapsed=time.perf_counter() - started)
            else:
                elapsed = time.perf_counter() - started
                try:
                    payload = response.json()
                except ValueError:
                    payload = None
                reply = Reply(response.status_code, payload, endpoint, base_url, response.headers.get("X-Served-By"),
                              elapsed, _seconds(response.headers.get("Retry-After")))
            if (reply.status == 0 or reply.status in RETRY_STATUSES) and attempt < RETRIES:
                self.retries += 1
                time.sleep(pause)
                pause *= 2
                continue
            break
        self.latencies.add(endpoint, reply.elapsed)
        if self.on_reply is not None:
            self.on_reply(reply)
        return reply


def _seconds(retry_after: str | None) -> float | None:
    """Retry-After in seconds (the service sends whole seconds; a date is not waited for)."""
    try:
        return max(0.0, float(retry_after)) if retry_after is not None else None
    except ValueError:
        return None
