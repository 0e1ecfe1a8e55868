"""One dealer terminal at one table: opens shoes, takes wagers, reports cards (physical shoe),
posts the players' decisions, and reads each finished round's money from its transcript."""
from __future__ import annotations

import random
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from ..replay import replay_data
from ..rules import Ref, load_rules
from .client import Reply, TerminalClient
from .shoe import LocalShoe
from .stats import Stats
from .strategy import choose

WAGERS = (500, 1000, 1000, 2000, 2500, 5000)      # cents
SIDE_BET_RATE = 0.2                               # of the seats dealt in, for each side bet the table takes
CARDS_PER_SEAT = 8                                # room a physical shoe must keep for one round, per seat
MAX_FAILURES_PER_ROUND = 3                        # refusals a round may meet before it is left for later
MAX_FAILED_ROUNDS = 5                             # in a row, refused by a service that answers: a defect; give up
MAX_REFUSED_WHEN_RESUMING = 60                    # cards a resumed round may refuse (already out)
MAX_OUTAGE = 300.0                                # seconds the service may not answer before the terminal gives up

# Endpoint labels for latencies (the API's own routes, ids taken out).
OPEN_SHOE, OPEN_ROUND, POST_CARD, POST_ACTION = ("POST /tables/{id}/shoes", "POST /tables/{id}/rounds",
                                                 "POST /rounds/{id}/cards", "POST /rounds/{id}/actions")
GET_TABLE, GET_ROUND, GET_TRANSCRIPT = "GET /tables/{id}", "GET /rounds/{id}", "GET /rounds/{id}/transcript"
# Refusals a terminal expects in ordinary play and answers by opening a new shoe.
NEW_SHOE_CODES = frozenset({"shoe_past_cut_card", "no_shoe"})
ROUND_OPEN = "round_open"          # the table has a round in play: the terminal finishes it first
UNANSWERED = frozenset({0, 503})   # no answer, or "unavailable: retry shortly"
OUTAGE_PAUSE = 1.0                 # seconds between tries while the service does not answer (no Retry-After)


class ServiceUnavailable(RuntimeError):
    """The service did not answer (or answered 503) for longer than the plan allows."""


@dataclass(frozen=True)
class TerminalPlan:
    table_id: str
    rounds: int | None               # None: until `deadline`
    seats: int = 3
    physical: bool = False
    seed: int | None = None
    deadline: float | None = None    # time.monotonic() to stop at
    money: bool = True               # read each round's transcript and replay it for its money
    max_outage: float = MAX_OUTAGE   # seconds without an answer before the terminal gives up


class Terminal:
    def __init__(self, client: TerminalClient, plan: TerminalPlan, stats: Stats | None = None, *,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.client = client
        self.sleep = sleep
        self.stop: threading.Event | None = None
        self.plan = plan
        self.stats = stats or Stats()
        self.rng = random.Random(plan.seed)
        self.local_shoe: LocalShoe | None = None
        self.side_bets: dict[str, int] = {}   # the side bets the table takes, at their minimum stakes
        self.shoe_due = False            # the last round took the virtual shoe past its cut card
        self.table = f"/v1/tables/{plan.table_id}"

    # ----- the loop -----------------------------------------------------------------------------
    def run(self, stop: threading.Event | None = None) -> Stats:
        """Play until the plan is done. A round the table has open is finished before a new one
        opens; while the service does not answer, the terminal waits for it (up to the plan's
        `max_outage`) and goes on where the table stands; it gives up only on a service that
        answers with refusals round after round."""
        started = time.monotonic()
        self.stop = stop
        try:
            self._prepare()
            failed_in_a_row = 0
            while not self._done(stop):
                if self.play_round():
                    failed_in_a_row = 0
                else:
                    failed_in_a_row += 1
                    if failed_in_a_row >= MAX_FAILED_ROUNDS:
                        self.stats.errors["gave up: rounds kept being refused"] += 1
                        break
        except ServiceUnavailable as exc:
            self.stats.errors[f"gave up: {exc}"] += 1
        finally:
            self.stats.elapsed = time.monotonic() - started
            self.stats.retries = self.client.retries
            self.stats.latencies = self.client.latencies
        return self.stats

    def _done(self, stop: threading.Event | None) -> bool:
        if stop is not None and stop.is_set():
            return True
        if self.plan.deadline is not None and time.monotonic() >= self.plan.deadline:
            return True
        return self.plan.rounds is not None and self.stats.rounds >= self.plan.rounds

    def _prepare(self) -> None:
        """Learn the table's shoe size, finish a round a previous run left open, open a fresh shoe."""
        table = self._expect(self._get(self.table, GET_TABLE))
        if table is None:
            raise RuntimeError(f"table {self.plan.table_id} cannot be read")
        self.side_bets = {name: limits["min"] for name, limits in (table.get("side_bets") or {}).items()}
        if self.plan.physical:
            spec = load_rules(Ref.parse(table["rules"]).name).shoe
            self.local_shoe = LocalShoe(spec, self.rng, CARDS_PER_SEAT * (self.plan.seats + 1))
        if table.get("open_round_id"):
            self._finish_round(str(table["open_round_id"]))
        self.open_shoe()

    def _finish_open_round(self) -> bool:
        """The round the table has open, played out and counted; False when it could not be."""
        table = self._expect(self._get(self.table, GET_TABLE))
        if table is None:
            return False
        if not table.get("open_round_id"):
            return True      # finished meanwhile (a retried decision completed it)
        return self._finish_round(str(table["open_round_id"]))

    def _finish_round(self, round_id: str) -> bool:
        state = self._expect(self._get(f"/v1/rounds/{round_id}", GET_ROUND))
        if state is None:
            return False
        return self._completed(self._play_out(state, resuming=True))

    def open_shoe(self) -> bool:
        mode = "physical" if self.plan.physical else "virtual"
        if self._expect(self._post(f"{self.table}/shoes", {"mode": mode}, OPEN_SHOE)) is None:
            return False
        self.stats.shoes += 1
        self.shoe_due = False
        if self.local_shoe is not None:
            self.local_shoe.change()
        return True

    def play_round(self) -> bool:
        """One round from wagers to money; False when it could not be played through."""
        # A dealer changes the shoe once the cut card is out: the API says so in the round's answers
        # (virtual shoe), or the terminal's own shoe does (physical).
        due = self.shoe_due or (self.local_shoe is not None and self.local_shoe.needs_changing())
        if due and not self.open_shoe():
            return False
        wagers = self._wagers()
        reply = self._post(f"{self.table}/rounds", {"wagers": wagers}, OPEN_ROUND)
        if reply.status == 409 and reply.code == ROUND_OPEN:
            # A round this terminal (or another run) left open, after an outage or a refusal:
            # the table finishes it before anything else.
            return self._finish_open_round()
        if reply.status == 409 and reply.code in NEW_SHOE_CODES:
            if not self.open_shoe():
                return False
            reply = self._post(f"{self.table}/rounds", {"wagers": wagers}, OPEN_ROUND)
        state = self._expect(reply)
        if state is None:
            return False
        return self._completed(self._play_out(state))

    def _completed(self, state: dict | None) -> bool:
        """Count a round played through (its money too); False for one left open."""
        if state is None or state["status"] not in ("complete", "settled"):
            return False
        self.shoe_due = bool(state.get("shoe_past_cut_card"))
        self.stats.rounds += 1
        self.stats.round_ids.append(str(state["round_id"]))
        if self.plan.money:
            self._count_money(str(state["round_id"]))
        return True

    # ----- a round ------------------------------------------------------------------------------
    def _wagers(self) -> list[dict]:
        wagers = []
        for seat in range(1, self.plan.seats + 1):
            wager: dict = {"seat": seat, "wager": self.rng.choice(WAGERS)}
            side_bets = {name: stake for name, stake in self.side_bets.items() if self.rng.random() < SIDE_BET_RATE}
            if side_bets:
                wager["side_bets"] = side_bets
            wagers.append(wager)
        return wagers

    def _play_out(self, state: dict, resuming: bool = False) -> dict | None:
        """Cards and decisions until the round awaits nothing; None when it cannot go on."""
        insurance_asked: set[int] = set()
        failures = refused_cards = 0
        round_path = f"/v1/rounds/{state['round_id']}"
        while state["status"] == "open" and state["awaiting"]:
            if state["awaiting"] == "card":
                if self.local_shoe is None:
                    self.stats.errors["round awaits a card from a virtual shoe"] += 1
                    return None
                reply = self._post(f"{round_path}/cards", {"card": self.local_shoe.deal()}, POST_CARD)
                if reply.ok:
                    self.stats.cards += 1
                elif resuming and reply.code == "card_refused" and refused_cards < MAX_REFUSED_WHEN_RESUMING:
                    refused_cards += 1
                    continue        # a round left by another run: its cards came from another shoe
            else:
                decision = choose(state, self.rng, insurance_asked)
                if decision is None:
                    self.stats.errors["no legal decision to choose"] += 1
                    return None
                reply = self._post(f"{round_path}/actions", decision, POST_ACTION)
                if reply.ok:
                    self.stats.decisions[decision["action"]] += 1
            if reply.ok:
                state = reply.body
                continue
            self._record_error(reply)
            failures += 1
            if failures > MAX_FAILURES_PER_ROUND:
                return None
            again = self._expect(self._get(round_path, GET_ROUND))   # read it again and go on from there
            if again is None:
                return None
            state = again
        return state

    def _count_money(self, round_id: str) -> None:
        """The round's money from its transcript, replayed; a round whose transcript cannot be
        read is named in the summary rather than left out of it silently."""
        transcript = self._expect(self._get(f"/v1/rounds/{round_id}/transcript", GET_TRANSCRIPT))
        if transcript is None:
            self.stats.money_unread.append(round_id)
            return
        result = replay_data(transcript)
        for seat in result["seats"]:
            self.stats.staked += seat["staked"]
            self.stats.returned += seat["returned"]

    # ----- the service's answers ---------------------------------------------------------------
    def _post(self, path: str, body: dict, endpoint: str) -> Reply:
        """A POST, under one Idempotency-Key however often it is sent: one that took effect
        before its answer was lost is answered again, never applied twice."""
        key = str(uuid.uuid4())
        return self._when_answered(lambda: self.client.post(path, body, endpoint, idempotency_key=key))

    def _get(self, path: str, endpoint: str) -> Reply:
        return self._when_answered(lambda: self.client.get(path, endpoint))

    def _when_answered(self, send: Callable[[], Reply]) -> Reply:
        """`send()`'s reply once the service answers: while it does not (no answer, or 503 after
        the client's own retries), the terminal waits as Retry-After asks and sends again, up to
        the plan's `max_outage`, then gives up (ServiceUnavailable)."""
        waited_since: float | None = None
        while True:
            reply = send()
            if reply.status not in UNANSWERED:
                return reply
            self._record_error(reply)
            now = time.monotonic()
            waited_since = now if waited_since is None else waited_since
            if now - waited_since >= self.plan.max_outage:
                raise ServiceUnavailable(f"the service did not answer for {self.plan.max_outage:.0f} s")
            if self.stop is not None and self.stop.is_set():
                return reply
            self.sleep(OUTAGE_PAUSE if reply.retry_after is None else reply.retry_after)

    def _expect(self, reply: Reply) -> dict | None:
        if reply.ok:
            return reply.body
        self._record_error(reply)
        return None

    def _record_error(self, reply: Reply) -> None:
        self.stats.errors[f"{reply.status} {reply.code or ('no answer' if reply.status == 0 else 'error')}"] += 1

