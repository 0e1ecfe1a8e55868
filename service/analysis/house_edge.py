"""House edge and RTP of the main game by fast simulation under the derived strategy, plus side bets.

`compute` is the one entry point the service and the command call. The main game is simulated
in blocks of rounds, each block on its own numpy Generator spawned from one SeedSequence, so a
seed names a result whatever the number of threads: blocks are merged in order and the run stops
at the first block after which the standard error is within the requested precision.
"""
from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from ..engine.games.canberra.paytable import Paytable
from ..engine.games.canberra.rules import CanberraRules
from .fastsim import Block, FastGame
from .side_bets import side_bets
from .strategy import Strategy, derive

MIN_ROUNDS = 1_000_000          # the standard error of fewer rounds is itself too rough to stop on
BLOCK_ROUNDS = 1_000_000


@dataclass(frozen=True)
class Progress:
    """Where a running computation stands, for a progress display."""

    rounds: int
    house_edge: float       # fraction, positive when the house wins
    standard_error: float   # fraction
    elapsed: float          # seconds, set-up included
    target: float           # the precision asked for
    rounds_per_second: float


class _Totals:
    """Blocks merged in order."""

    def __init__(self, n_lines: int) -> None:
        self.rounds = self.aborted = self.shoes = self.net = self.staked = self.wagered = 0
        self.sum_x = self.sum_x2 = 0.0
        self.hits = np.zeros(n_lines, dtype=np.int64)
        self.extra = np.zeros(n_lines, dtype=np.int64)

    def add(self, block: Block) -> None:
        self.rounds += block.rounds
        self.aborted += block.aborted
        self.shoes += block.shoes
        self.net += block.net
        self.staked += block.staked
        self.wagered += block.wagered
        self.sum_x += block.sum_x
        self.sum_x2 += block.sum_x2
        self.hits += block.line_hits
        self.extra += block.line_extra

    @property
    def house_edge(self) -> float:
        return -self.net / self.wagered if self.wagered else float("nan")

    @property
    def standard_error(self) -> float:
        if self.rounds < 2:
            return float("inf")
        mean = self.sum_x / self.rounds
        variance = max(self.sum_x2 / self.rounds - mean * mean, 0.0) * self.rounds / (self.rounds - 1)
        return math.sqrt(variance / self.rounds)


def _default_threads() -> int:
    return max(1, min(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1, 8))


def compute(rules: CanberraRules, paytable: Paytable, precision: float = 0.0002, seed: int | None = None, *,
            seats: int = 1, wager: int | None = None, fresh_shoe: bool = False,
            max_rounds: int = 2_000_000_000, max_seconds: float = 600.0, threads: int | None = None,
            block_rounds: int = BLOCK_ROUNDS, progress: Callable[[Progress], None] | None = None,
            strategy: Strategy | None = None) -> dict:
    """House edge and RTP of the main game (with standard error), bonus lines and side bets.

    precision: the standard error to reach, as a fraction of the initial wager (0.0002 is 0.02
    percentage points). seed: names the run; None draws one and reports it. wager: cents per
    seat (default the table minimum; the super bonus is a fixed prize, so the edge depends on
    it). fresh_shoe: shuffle before every round (off the top, as combinatorial analyses assume)
    instead of dealing to the rules' cut card.
    """
    wager = _checked_wager(rules, paytable, precision, wager)
    started = time.perf_counter()
    # The chart to play: the derived one unless given (the exact analysis's chart, for instance).
    strategy = strategy or derive(rules, paytable, wager)
    game = FastGame(strategy, seats=seats, fresh_shoe=fresh_shoe)
    # The kernel compiles (or loads from numba's cache) on its first call: time that apart.
    game.run(np.random.default_rng(0), 1)
    warmed_up = time.perf_counter()
    seed_seq = np.random.SeedSequence(seed)
    totals = _Totals(len(strategy.model.line_names))
    clock = _Clock(started, warmed_up, max_seconds)
    reached, next_block = _play(game, totals, seed_seq, threads or _default_threads(), block_rounds, precision,
                                max_rounds, clock, progress)
    elapsed = time.perf_counter() - started
    edge, se = totals.house_edge, totals.standard_error
    return {
        "rules": rules.name,
        "paytable": paytable.name,
        "seats": seats,
        "wager_cents": wager,
        "shoe": "fresh shoe every round" if fresh_shoe else
                f"cut card after {game.cut} of {len(game.base_shoe)} cards",
        "seed": seed_seq.entropy,
        "precision": precision,
        "precision_reached": reached,
        "rounds": totals.rounds,
        "voided_rounds": totals.aborted,
        "blocks": next_block,
        "elapsed_seconds": elapsed,
        "set_up_seconds": warmed_up - started,
        "rounds_per_second": totals.rounds / (elapsed - (warmed_up - started)),
        "house_edge": edge,
        "standard_error": se,
        "house_edge_percent": edge * 100,
        "house_edge_se_percent": se * 100,
        "rtp_percent": 100 - edge * 100,
        "rtp_se_percent": se * 100,
        "house_edge_per_total_stake_percent": -totals.net / totals.staked * 100 if totals.staked else 0.0,
        "strategy_estimate_percent": -strategy.estimate * 100,
        "net_cents": totals.net,
        "wagered_cents": totals.wagered,
        "bonus_lines": _bonus_lines(strategy.model.line_names, totals),
        "side_bets": side_bets(rules, paytable),
    }


def _checked_wager(rules: CanberraRules, paytable: Paytable | None, precision: float, wager: int | None) -> int:
    """The wager each seat stakes (the table minimum unless given), once the arguments hold."""
    # The simulation plays the house-banked game (its rules' type says so): it prices a paytable.
    if paytable is None:
        raise ValueError("the house edge is computed for house-banked rules (game: canberra) with a paytable")
    if not precision > 0:
        raise ValueError("precision must be a positive standard error, such as 0.0002")
    wager = wager or rules.main_limits.minimum
    if not rules.main_limits.contains(wager):
        raise ValueError(f"wager {wager} is outside the table limits {rules.main_limits.minimum} "
                         f"to {rules.main_limits.maximum}")
    return wager


@dataclass(frozen=True)
class _Clock:
    """When the computation started, when the kernel was ready, and how long it may run."""

    started: float
    warmed_up: float
    max_seconds: float


def _play(game: FastGame, totals: _Totals, seed_seq: np.random.SeedSequence, threads: int, block_rounds: int,
          precision: float, max_rounds: int, clock: _Clock, progress: Callable[[Progress], None] | None,
          ) -> tuple[bool, int]:
    """Blocks of rounds on `threads` threads, each from its own child seed, merged in order into
    `totals` until the standard error reaches `precision` (or the rounds or the time run out).
    Returns whether the precision was reached and the number of blocks merged."""
    blocks_merged = 0
    reached = False
    with ThreadPoolExecutor(max_workers=threads) as pool:
        while True:
            children = seed_seq.spawn(threads)
            futures = [pool.submit(game.run, np.random.Generator(np.random.PCG64(child)), block_rounds)
                       for child in children]
            for block in [future.result() for future in futures]:
                totals.add(block)
                blocks_merged += 1
                if totals.rounds >= MIN_ROUNDS and totals.standard_error <= precision:
                    reached = True
                    break
            elapsed = time.perf_counter() - clock.started
            if progress is not None:
                rate = totals.rounds / max(time.perf_counter() - clock.warmed_up, 1e-9)
                progress(Progress(totals.rounds, totals.house_edge, totals.standard_error, elapsed, precision, rate))
            if reached or totals.rounds >= max_rounds or elapsed >= clock.max_seconds:
                return reached, blocks_merged


def _bonus_lines(names: list[str], totals: _Totals) -> list[dict]:
    """Each paid line's hits and its share of the wagers."""
    return [{"line": name, "hits": int(totals.hits[i]),
             "per_million_rounds": totals.hits[i] / totals.rounds * 1e6 if totals.rounds else 0.0,
             "contribution_percent": totals.extra[i] / totals.wagered * 100 if totals.wagered else 0.0}
            for i, name in enumerate(names)]
