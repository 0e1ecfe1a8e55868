"""One dealer terminal at one table: opens shoes, takes wagers, reports cards (physical shoe),
posts the players' decisions, and reads each finished round's money from its transcript."""
from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass

from ..replay import replay_data
from ..rules import load_rules
from .client import Reply, TerminalClient
from .shoe import LocalShoe
from .stats import Stats
from .strategy import choose

WAGERS = (500, 1000, 1000, 2000, 2500, 5000)      # cents
SIDE_BET_RATE = 0.2                               # of the seats dealt in, for each side bet the table takes
CARDS_PER_SEAT = 8                                # room a physical shoe must keep for one round, per seat
MAX_FAILURES_PER_ROUND = 3
MAX_FAILED_ROUNDS = 5                             # in a row: the terminal gives up
MAX_REFUSED_WHEN_RESUMING = 60                    # cards a resumed round may refuse (already out)

# Endpoint labels for latencies (the API's own routes, ids taken out).
OPEN_SHOE, OPEN_ROUND, POST_CARD, POST_ACTION = ("POST /tables/{id}/shoes", "POST /tables/{id}/rounds",
                                                 "POST /rounds/{id}/cards", "POST /rounds/{id}/actions")
GET_TABLE, GET_ROUND, GET_TRANSCRIPT = "GET /tables/{id}", "GET /rounds/{id}", "GET /rounds/{id}/transcript"
# Refusals a terminal expects in ordinary play and answers by opening a new shoe.
NEW_SHOE_CODES = frozenset({"shoe_past_cut_card", "no_shoe"})


@dataclass(frozen=True)
class TerminalPlan:
    table_id: str
    rounds: int | None               # None: until `deadline`
    seats: int = 3
    physical: bool = False
    seed: int | None = None
    deadline: float | None = None    # time.monotonic() to stop at
    money: bool = True               # read each round's transcript and replay it for its money


class Terminal:
    def __init__(self, client: TerminalClient, plan: TerminalPlan, stats: Stats | None = None) -> None:
        self.client = client
        self.plan = plan
        self.stats = stats or Stats()
        self.rng = random.Random(plan.seed)
        self.local_shoe: LocalShoe | None = None
        self.side_bets: dict[str, int] = {}   # the side bets the table takes, at their minimum stakes
        self.shoe_due = False            # the last round took the virtual shoe past its cut card
        self.table = f"/v1/tables/{plan.table_id}"

    # ----- the loop -----------------------------------------------------------------------------
    def run(self, stop: threading.Event | None = None) -> Stats:
        started = time.monotonic()
        try:
            self._prepare()
            failed_in_a_row = 0
            while not self._done(stop):
                if self.play_round():
                    failed_in_a_row = 0
                else:
                    failed_in_a_row += 1
                    if failed_in_a_row >= MAX_FAILED_ROUNDS:
                        self.stats.errors["gave up: rounds kept failing"] += 1
                        break
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
        table = self._expect(self.client.get(self.table, GET_TABLE))
        if table is None:
            raise RuntimeError(f"table {self.plan.table_id} cannot be read")
        self.side_bets = {name: limits["min"] for name, limits in (table.get("side_bets") or {}).items()}
        if self.plan.physical:
            spec = load_rules(table["rules"].split("@", 1)[0]).shoe
            self.local_shoe = LocalShoe(spec, self.rng, CARDS_PER_SEAT * (self.plan.seats + 1))
        if table.get("open_round_id"):
            reply = self.client.get(f"/v1/rounds/{table['open_round_id']}", GET_ROUND)
            if self._expect(reply) is not None:
                self._play_out(reply.body, resuming=True)
        self.open_shoe()

    def open_shoe(self) -> bool:
        mode = "physical" if self.plan.physical else "virtual"
        if self._expect(self.client.post(f"{self.table}/shoes", {"mode": mode}, OPEN_SHOE)) is None:
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
        reply = self.client.post(f"{self.table}/rounds", {"wagers": wagers}, OPEN_ROUND)
        if reply.status == 409 and reply.code in NEW_SHOE_CODES:
            if not self.open_shoe():
                return False
            reply = self.client.post(f"{self.table}/rounds", {"wagers": wagers}, OPEN_ROUND)
        state = self._expect(reply)
        if state is None:
            return False
        state = self._play_out(state)
        if state is None or state["status"] not in ("complete", "settled"):
            return False
        self.shoe_due = bool(state.get("shoe_past_cut_card"))
        self.stats.rounds += 1
        self.stats.round_ids.append(str(state["round_id"]))
        if self.plan.money:
            self._count_money(state["round_id"])
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
                reply = self.client.post(f"{round_path}/cards", {"card": self.local_shoe.deal()}, POST_CARD)
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
                reply = self.client.post(f"{round_path}/actions", decision, POST_ACTION)
                if reply.ok:
                    self.stats.decisions[decision["action"]] += 1
            if reply.ok:
                state = reply.body
                continue
            self._record_error(reply)
            failures += 1
            if failures > MAX_FAILURES_PER_ROUND:
                return None
            again = self._expect(self.client.get(round_path, GET_ROUND))   # read it again and go on from there
            if again is None:
                return None
            state = again
        return state

    def _count_money(self, round_id: str) -> None:
        transcript = self._expect(self.client.get(f"/v1/rounds/{round_id}/transcript", GET_TRANSCRIPT))
        if transcript is None:
            return
        result = replay_data(transcript)
        for seat in result["seats"]:
            self.stats.staked += seat["staked"]
            self.stats.returned += seat["returned"]

    def _expect(self, reply: Reply) -> dict | None:
        if reply.ok:
            return reply.body
        self._record_error(reply)
        return None

    def _record_error(self, reply: Reply) -> None:
        self.stats.errors[f"{reply.status} {reply.code or ('no answer' if reply.status == 0 else 'error')}"] += 1

