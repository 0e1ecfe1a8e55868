"""Simulated play for tests and benchmarks: random legal rounds played by the engine, stored with
SQL only, as the API would store them."""
from __future__ import annotations

import json
import random
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import psycopg

from service.engine.actions import Action, CardDealt
from service.engine.games.canberra import CanberraRound
from service.engine.shoe import VirtualShoe
from service.rules import Ref, load_paytable, load_rules
from service.store.repositories.audit import AuditRecord, AuditRepository, chain_for

RULES_REF = "canberra@1"
PAYTABLE_REF = "canberra-standard@1"
WAGERS = (500, 1000, 1500, 2500, 5000, 12345)


class SeededSource:
    """The engine's random source from a seeded random.Random: reproducible shoes."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def randbelow(self, n: int) -> int:
        return self.rng.randrange(n)


@dataclass
class StoredRound:
    round_id: str
    table_id: str
    shoe_id: str | None
    transcript: dict
    bets: list[Any]
    result: dict
    events: list[tuple[str, dict]]   # round_events rows in seq order, as play produced them


@dataclass
class _Shoe:
    shoe_id: str
    table_id: str
    shoe: VirtualShoe
    closed: bool = False


@dataclass
class Casino:
    """Rounds played so far and the rows that store them; `write` puts them in a database."""

    rng: random.Random
    rounds: list[StoredRound] = field(default_factory=list)
    tables: set[str] = field(default_factory=set)
    shoes: list[_Shoe] = field(default_factory=list)
    audit: dict[str, list[AuditRecord]] = field(default_factory=lambda: defaultdict(list))
    _open_shoes: dict[str, _Shoe] = field(default_factory=dict)

    @property
    def rules(self):
        return load_rules(Ref.parse(RULES_REF).name)

    @property
    def paytable(self):
        return load_paytable(Ref.parse(PAYTABLE_REF).name)

    # ----- playing ---------------------------------------------------------------------------
    def play(self, count: int, tables: list[str]) -> list[StoredRound]:
        """`count` random legal rounds, dealt round-robin over `tables` from virtual shoes."""
        return [self.play_one(tables[i % len(tables)]) for i in range(count)]

    def play_one(self, table_id: str) -> StoredRound:
        self.tables.add(table_id)
        shoe = self._shoe_for(table_id)
        seats = sorted(self.rng.sample(range(1, 8), self.rng.randint(1, 4)))
        wagers = []
        for seat in seats:
            entry = {"seat": seat, "wager": self.rng.choice(WAGERS)}
            if self.rng.random() < 0.3:
                entry["pair_bet"] = self.rng.choice((500, 1000))
            wagers.append(entry)
        round_ = CanberraRound(self.rules, self.paytable, wagers)
        while round_.awaiting:
            if round_.awaiting == "card":
                round_.deal_card(shoe.shoe.deal())
            else:
                legal = round_.legal_actions()
                choice = self.rng.choice(legal)
                amount = None if choice.min_amount is None else self.rng.randint(choice.min_amount, choice.max_amount)
                round_.act(Action(choice.seat, choice.action, choice.hand, amount))
        stored = self._store(table_id, shoe.shoe_id, round_)
        if shoe.shoe.past_cut_card:
            self._close_shoe(table_id, shoe)
        return stored

    def play_transcript(self, table_id: str, transcript: dict) -> StoredRound:
        """A fixed round (a physical shoe's cards), e.g. a super bonus."""
        from service.ledger.transcripts import play_stored
        self.tables.add(table_id)
        round_ = play_stored(transcript)
        return self._store(table_id, None, round_)

    def _shoe_for(self, table_id: str) -> _Shoe:
        shoe = self._open_shoes.get(table_id)
        if shoe is None:
            salt = f"{self.rng.getrandbits(128):032x}"
            shoe = _Shoe(self._uuid(), table_id, VirtualShoe(self.rules.shoe, SeededSource(self.rng), salt=salt))
            self._open_shoes[table_id] = shoe
            self.shoes.append(shoe)
            self.audit[chain_for(table_id)].append(AuditRecord(
                "shoe_started", {"shoe_id": shoe.shoe_id, "mode": "virtual", "commitment": shoe.shoe.commitment},
                "terminal", table_id))
        return shoe

    def _close_shoe(self, table_id: str, shoe: _Shoe) -> None:
        order, salt = shoe.shoe.reveal()
        shoe.closed = True
        del self._open_shoes[table_id]
        self.audit[chain_for(table_id)].append(AuditRecord(
            "shoe_closed", {"shoe_id": shoe.shoe_id, "card_order": order, "salt": salt,
                            "commitment": shoe.shoe.commitment}, "terminal", table_id))

    def close_all_shoes(self) -> None:
        for table_id, shoe in list(self._open_shoes.items()):
            self._close_shoe(table_id, shoe)

    def _uuid(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def _store(self, table_id: str, shoe_id: str | None, round_: Any) -> StoredRound:
        round_id = self._uuid()
        transcript = round_.transcript(RULES_REF, PAYTABLE_REF)
        stored = StoredRound(round_id, table_id, shoe_id, transcript, list(round_.bets), round_.result(),
                             _events(round_.log, transcript))
        self.rounds.append(stored)
        # The records the API chains for a round: opened, its wagers, its cards and decisions in
        # the order they happened, completed with its result.
        records = self.audit[chain_for(table_id)]
        records.append(AuditRecord("round_opened", {"shoe_id": shoe_id, "rules": RULES_REF, "paytable": PAYTABLE_REF},
                                   "terminal", table_id, round_id))
        for seat in transcript["seats"]:
            records.append(AuditRecord("wager", seat, "terminal", table_id, round_id))
        for kind, payload in stored.events:
            if kind == "card":
                records.append(AuditRecord("card_dealt", {**payload, "shoe_id": shoe_id}, "terminal", table_id,
                                           round_id))
            else:
                records.append(AuditRecord("decision", payload, "terminal", table_id, round_id))
        records.append(AuditRecord("round_completed", stored.result, "terminal", table_id, round_id))
        return stored

    # ----- storing ---------------------------------------------------------------------------
    def write(self, conn: psycopg.Connection, *, completed_seconds_ago: float = 0.0) -> list[StoredRound]:
        """Store everything played since the last write: tables, shoes, rounds ('complete', with
        result and an outbox row), events and audit records, with COPY, in one transaction."""
        written = list(self.rounds)
        with conn.transaction():
            completed_at = conn.execute("SELECT now() - make_interval(secs => %s)",
                                        (completed_seconds_ago,)).fetchone()[0]
            with conn.cursor() as cur:
                cur.executemany("INSERT INTO tables (table_id, game, rules, paytable, paytable_version) "
                                "VALUES (%s, 'canberra', 'canberra', 'canberra-standard', 1) "
                                "ON CONFLICT DO NOTHING", [(t,) for t in sorted(self.tables)])
                for shoe in self.shoes:
                    order, salt = shoe.shoe.reveal()
                    cur.execute(
                        "INSERT INTO shoes (shoe_id, table_id, mode, commitment, card_order, salt, position, "
                        "closed_at) VALUES (%s, %s, 'virtual', %s, %s, %s, %s, CASE WHEN %s THEN now() END) "
                        "ON CONFLICT (shoe_id) DO UPDATE SET position = EXCLUDED.position, "
                        "closed_at = EXCLUDED.closed_at",
                        (shoe.shoe_id, shoe.table_id, shoe.shoe.commitment, json.dumps(order), salt,
                         shoe.shoe.position, shoe.closed))
                with cur.copy("COPY rounds (round_id, table_id, shoe_id, status, rules_ref, paytable_ref, wagers, "
                              "result, completed_at) FROM STDIN") as copy:
                    for r in written:
                        copy.write_row((r.round_id, r.table_id, r.shoe_id, "complete", RULES_REF, PAYTABLE_REF,
                                        json.dumps(r.transcript["seats"]), json.dumps(r.result), completed_at))
                with cur.copy("COPY round_events (round_id, seq, kind, payload) FROM STDIN") as copy:
                    for r in written:
                        for seq, (kind, payload) in enumerate(r.events, 1):
                            copy.write_row((r.round_id, seq, kind, json.dumps(payload)))
                with cur.copy("COPY outbox (topic, round_id) FROM STDIN") as copy:
                    for r in written:
                        copy.write_row(("settle_round", r.round_id))
            AuditRepository(conn).append_by_chain(self.audit)
        self.rounds.clear()
        self.audit.clear()
        self.shoes = [s for s in self.shoes if not s.closed]
        return written


def _events(log: list[Any], transcript: dict) -> list[tuple[str, dict]]:
    """The round's cards and decisions interleaved in the order they happened."""
    actions = iter(transcript["actions"])
    return [("card", {"card": entry.card}) if isinstance(entry, CardDealt) else ("action", next(actions))
            for entry in log]
