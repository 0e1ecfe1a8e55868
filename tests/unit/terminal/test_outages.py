"""The simulated terminal through refusals and outages, against a scripted API: it finishes the
round its table has open before opening another, waits while the service does not answer, sends a
POST again under the same Idempotency-Key, and names the rounds whose money it could not read."""
from __future__ import annotations

from collections import defaultdict
from typing import Any

from service.terminal.client import Latencies, Reply
from service.terminal.stats import summary, summary_text
from service.terminal.terminal import Terminal, TerminalPlan

TABLE = {"table_id": "T1", "rules": "canberra@1", "paytable": None, "open_round_id": None}
COMPLETE = {"round_id": "R2", "status": "complete", "awaiting": None, "shoe_past_cut_card": False}
TRANSCRIPT = {"rules": "canberra", "paytable": "canberra-standard", "wagers": [], "events": []}


class ScriptedApi:
    """Answers each (method, path) with the next reply scripted for it (the last one repeats);
    keeps every request with its Idempotency-Key."""

    def __init__(self, script: dict[tuple[str, str], list[tuple[int, Any]]]) -> None:
        self.script = {route: list(replies) for route, replies in script.items()}
        self.sent: list[tuple[str, str, str | None]] = []
        self.retries = 0
        self.latencies = Latencies()
        self.calls: dict[tuple[str, str], int] = defaultdict(int)

    def _answer(self, method: str, path: str, endpoint: str) -> Reply:
        replies = self.script[(method, path)]
        status, body = replies.pop(0) if len(replies) > 1 else replies[0]
        return Reply(status, body, endpoint, "http://api", retry_after=0.0 if status == 503 else None)

    def get(self, path: str, endpoint: str) -> Reply:
        self.sent.append(("GET", path, None))
        return self._answer("GET", path, endpoint)

    def post(self, path: str, body: Any, endpoint: str, *, idempotency_key: str | None = None) -> Reply:
        self.sent.append(("POST", path, idempotency_key))
        return self._answer("POST", path, endpoint)


def terminal(api: ScriptedApi, **plan: Any) -> Terminal:
    return Terminal(api, TerminalPlan("T1", **{"rounds": 1, **plan}), sleep=lambda _seconds: None)


UNAVAILABLE = (503, {"code": "database_unavailable"})


def test_a_round_the_table_has_open_is_finished_and_counted_before_a_new_one():
    api = ScriptedApi({
        ("GET", "/v1/tables/T1"): [(200, TABLE), (200, {**TABLE, "open_round_id": "R1"})],
        ("POST", "/v1/tables/T1/shoes"): [(201, {})],
        ("POST", "/v1/tables/T1/rounds"): [(409, {"code": "round_open"}), (201, COMPLETE)],
        ("GET", "/v1/rounds/R1"): [(200, {**COMPLETE, "round_id": "R1"})],
        ("GET", "/v1/rounds/R1/transcript"): [(404, {"code": "not_found"})],
        ("GET", "/v1/rounds/R2/transcript"): [(404, {"code": "not_found"})],
    })
    stats = terminal(api, rounds=2, money=True).run()
    assert stats.round_ids == ["R1", "R2"]
    # Neither transcript could be read: both rounds are named, none silently left out of the money.
    assert stats.money_unread == ["R1", "R2"]
    figures = summary(stats)
    assert figures["rounds_money_unread"] == ["R1", "R2"]
    assert "whose transcript could not be read: R1, R2" in summary_text(figures)
    assert not any(error.startswith("gave up") for error in stats.errors)


def test_the_terminal_waits_an_outage_out_and_sends_the_same_request_again():
    api = ScriptedApi({
        ("GET", "/v1/tables/T1"): [UNAVAILABLE, (0, None), (200, TABLE)],
        ("POST", "/v1/tables/T1/shoes"): [(201, {})],
        ("POST", "/v1/tables/T1/rounds"): [UNAVAILABLE, UNAVAILABLE, UNAVAILABLE, (201, COMPLETE)],
    })
    stats = terminal(api, money=False).run()
    assert stats.rounds == 1 and stats.round_ids == ["R2"]
    assert stats.errors == {"503 database_unavailable": 4, "0 no answer": 1}
    # The opening was sent four times, always under one Idempotency-Key: had the first taken
    # effect before its answer was lost, the others would have been answered as it was.
    keys = {key for method, path, key in api.sent if path == "/v1/tables/T1/rounds"}
    assert len([1 for _, path, _ in api.sent if path == "/v1/tables/T1/rounds"]) == 4 and len(keys) == 1
    assert None not in keys


def test_a_service_that_does_not_answer_for_longer_than_the_plan_allows_is_given_up():
    api = ScriptedApi({("GET", "/v1/tables/T1"): [(0, None)]})
    stats = terminal(api, max_outage=0.0).run()
    assert stats.rounds == 0
    assert stats.errors["gave up: the service did not answer for 0 s"] == 1


def test_refusals_round_after_round_from_a_service_that_answers_end_the_run():
    api = ScriptedApi({
        ("GET", "/v1/tables/T1"): [(200, TABLE)],
        ("POST", "/v1/tables/T1/shoes"): [(201, {})],
        ("POST", "/v1/tables/T1/rounds"): [(422, {"code": "invalid_request"})],
    })
    stats = terminal(api, rounds=10).run()
    assert stats.rounds == 0
    assert stats.errors == {"422 invalid_request": 5, "gave up: rounds kept being refused": 1}
