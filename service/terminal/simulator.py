"""Runs C simulated terminals on C tables side by side: sets the tables up, plays, reports progress,
and merges what each terminal did into one summary."""
from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from ..rules import RulesError, load_house_banked_rules
from .client import Reply, TerminalClient
from .stats import Stats
from .terminal import Terminal, TerminalPlan


class SetupError(RuntimeError):
    """The tables or keys the run needs could not be made."""


@dataclass(frozen=True)
class SimulatorConfig:
    base_urls: tuple[str, ...]
    table: str
    rounds: int | None = 200               # in all, shared out between the terminals; None: until `duration`
    seats: int = 3
    concurrency: int = 1
    physical: bool = False
    seed: int | None = None
    admin_key: str | None = None           # to create the tables and issue their terminal keys
    terminal_key: str | None = None        # one terminal on one existing table
    rules: str = "canberra"
    paytable: str | None = "canberra-standard"
    rate: float | None = None              # requests per second in all; None: as fast as answered
    duration: float | None = None          # seconds
    money: bool = True
    progress_every: float = 2.0            # seconds; 0: quiet
    on_reply: Callable[[Reply], None] | None = None   # sees every reply the terminals get (tests, tracing)


def table_ids(config: SimulatorConfig) -> list[str]:
    if config.concurrency == 1:
        return [config.table]
    return [f"{config.table}-{n}" for n in range(1, config.concurrency + 1)]


@dataclass(frozen=True)
class IssuedKey:
    """A key issued for a run: its id, to revoke it when the run is over, and its secret."""

    key_id: str
    secret: str


def prepare_tables(config: SimulatorConfig, client: Callable[[list[str], str], TerminalClient] = TerminalClient
                   ) -> list[tuple[str, str, IssuedKey | None]]:
    """(table id, terminal key's secret, the key if this run issued it) for each terminal: with the
    admin key, tables are created (one already there is used as it is) and a terminal key is
    issued for each (POST /v1/keys) through `client(base_urls, admin_key)`, to be revoked when the
    run ends."""
    tables = table_ids(config)
    if config.terminal_key:
        if len(tables) != 1:
            raise SetupError("a terminal key belongs to one table: --concurrency above 1 needs --admin-key instead")
        return [(tables[0], config.terminal_key, None)]
    if not config.admin_key:
        raise SetupError("give a terminal key (--key, PONTOON_TERMINAL_KEY) or an admin key (--admin-key, "
                         "PONTOON_ADMIN_KEY) to create the tables")
    check_dealt_here(config.rules)
    admin = client(list(config.base_urls), config.admin_key)
    prepared: list[tuple[str, str, IssuedKey | None]] = []
    try:
        for table_id in tables:
            body = {"table_id": table_id, "rules": config.rules}
            if config.paytable:
                body["paytable"] = config.paytable
            reply = admin.post("/v1/tables", body, "POST /tables")
            if not (reply.status == 201 or (reply.status == 409 and reply.code == "table_exists")):
                raise SetupError(f"table {table_id} could not be created: {reply.status} {reply.body}")
            key = issue_key(admin, "terminal", table_id)
            prepared.append((table_id, key.secret, key))
        return prepared
    except BaseException:
        revoke_keys(admin, [key for _, _, key in prepared if key is not None])
        raise
    finally:
        admin.close()


def check_dealt_here(rules: str) -> None:
    """Refuse, before any table is made, rules the simulated terminal cannot deal: it plays the
    house-banked game (a dealer against seats), not the player-banked one, whose banker and
    players take turns of their own."""
    try:
        load_house_banked_rules(rules)
    except RulesError as exc:
        reason = "; ".join(f"{field}: {message}" for field, message in exc.errors.items())
        raise SetupError(f"the simulated terminal deals house-banked rules only (canberra, blackjack-enhc); "
                         f"{rules!r} cannot be played here ({reason})") from None


def issue_key(admin: TerminalClient, role: str, table_id: str | None = None) -> IssuedKey:
    """A new key, issued through the API by an admin."""
    reply = admin.post("/v1/keys", {"role": role, "table_id": table_id, "name": f"simulated {role}"}, "POST /keys")
    if reply.status != 201:
        raise SetupError(f"a {role} key could not be issued: {reply.status} {reply.body}")
    return IssuedKey(reply.body["key_id"], reply.body["secret"])


def revoke_keys(admin: TerminalClient, keys: list[IssuedKey], reason: str = "the simulated run is over") -> list[str]:
    """Revoke keys a run issued for itself; the ids of any that could not be revoked."""
    left = []
    for key in keys:
        reply = admin.post(f"/v1/keys/{key.key_id}/revoke", {"reason": reason}, "POST /keys/{id}/revoke")
        if not reply.ok:
            left.append(key.key_id)
    return left


def _share(total: int | None, parts: int) -> list[int | None]:
    if total is None:
        return [None] * parts
    return [total // parts + (1 if n < total % parts else 0) for n in range(parts)]


def run(config: SimulatorConfig, progress: TextIO = sys.stderr) -> Stats:
    """Play the configured rounds; the merged Stats of every terminal. The terminal keys the run
    issued are revoked when it ends: a simulated terminal's key outlives it in no casino's API."""
    prepared = prepare_tables(config)
    issued = [key for _, _, key in prepared if key is not None]
    left: list[str] = []
    try:
        merged = _play(config, [(table_id, secret) for table_id, secret, _ in prepared], progress)
    finally:
        if issued and config.admin_key:    # keys are issued only with the admin key
            admin = TerminalClient(list(config.base_urls), config.admin_key)
            try:
                left = revoke_keys(admin, issued)
            finally:
                admin.close()
    if left:
        merged.errors[f"keys issued for the run could not be revoked: {', '.join(left)}"] += 1
    return merged


def _play(config: SimulatorConfig, prepared: list[tuple[str, str]], progress: TextIO) -> Stats:
    deadline = time.monotonic() + config.duration if config.duration else None
    pace = config.rate / len(prepared) if config.rate else None
    terminals = []
    for n, ((table_id, key), rounds) in enumerate(zip(prepared, _share(config.rounds, len(prepared)))):
        plan = TerminalPlan(table_id, rounds, seats=config.seats, physical=config.physical,
                            seed=None if config.seed is None else config.seed + n, deadline=deadline,
                            money=config.money)
        client = TerminalClient(list(config.base_urls), key, pace=pace, phase=n / len(prepared),
                                on_reply=config.on_reply)
        terminals.append(Terminal(client, plan))
    stop = threading.Event()

    def play(terminal: Terminal) -> None:
        try:
            terminal.run(stop)
        except Exception as exc:  # counted as an error (summary, exit status) rather than lost with the thread
            terminal.stats.errors[f"crashed: {type(exc).__name__}: {exc}"] += 1

    threads = [threading.Thread(target=play, args=(t,), name=f"terminal-{t.plan.table_id}", daemon=True)
               for t in terminals]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    try:
        _report_progress(threads, terminals, config, started, progress)
    except KeyboardInterrupt:
        stop.set()
        for thread in threads:
            thread.join()
    merged = Stats()
    for terminal in terminals:
        merged.merge(terminal.stats)
        terminal.client.close()
    merged.elapsed = time.monotonic() - started
    return merged


def _report_progress(threads, terminals, config: SimulatorConfig, started: float, progress: TextIO) -> None:
    """Wait for the terminals, printing a progress line every `progress_every` seconds."""
    every = config.progress_every if config.progress_every > 0 else None
    while True:
        alive = [thread for thread in threads if thread.is_alive()]
        if not alive:
            return
        alive[0].join(timeout=every)
        if every is not None and alive[0].is_alive():
            rounds = sum(t.stats.rounds for t in terminals)
            errors = sum(t.stats.error_count for t in terminals)
            decisions = sum(sum(t.stats.decisions.values()) for t in terminals)
            seconds = time.monotonic() - started
            target = f"/{config.rounds}" if config.rounds is not None else ""
            print(f"[terminal] {rounds}{target} rounds, {decisions} decisions, {rounds / seconds:.1f} rounds/s, "
                  f"{errors} errors", file=progress, flush=True)
