"""House-edge benchmark: rounds a second of the fast path beside the reference engine on the same shoes."""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import cast

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from bench import reference_player  # noqa: E402
from service.analysis.fastsim import FastGame, card_names  # noqa: E402
from service.analysis.strategy import derive  # noqa: E402
from service.engine.games.canberra.rules import CanberraRules  # noqa: E402
from service.rules import load_paytable, load_rules  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "house_edge.json"
GAMES = (("canberra", "canberra-standard"), ("blackjack-enhc", "blackjack"))


# The machine is shared: every timing is the best of a few runs, the least disturbed one.
REPEATS = 3


def same_shoes(game: FastGame, rounds: int, seed: int) -> dict:
    """Both paths on one set of shoes: the fast path replays the recorded shoes in order."""
    block = game.run(np.random.default_rng(seed), rounds, record=True)
    shoes, round_shoe, round_net = block.orders, block.round_shoe, block.round_net
    if shoes is None or round_shoe is None or round_net is None:
        raise RuntimeError("a recorded run keeps its shoes and each round's net")
    fast_seconds = float("inf")
    for _ in range(20):
        started = time.perf_counter()
        again = game.run(np.random.default_rng(0), rounds, record=True, shoes=shoes)
        fast_seconds = min(fast_seconds, time.perf_counter() - started)
    identical = again.round_net is not None and bool(np.array_equal(again.round_net, round_net))
    reference_seconds = float("inf")
    last = len(shoes) - 1
    for _ in range(REPEATS):
        started = time.perf_counter()
        nets: list[int] = []
        for k, order in enumerate(shoes):
            count = int(np.count_nonzero(round_shoe == k))
            nets += reference_player.play_shoe(game.strategy, game.seats, game.model.wager, card_names(order), game.cut,
                                        rounds=None if k < last else count)
        reference_seconds = min(reference_seconds, time.perf_counter() - started)
        identical = identical and nets == round_net.tolist()
    return {"rounds": rounds, "shoes": len(shoes), "fast_rounds_per_s": rounds / fast_seconds,
            "reference_rounds_per_s": rounds / reference_seconds, "identical_money": identical}


def throughput(game: FastGame, rounds: int, threads: int, seed: int) -> tuple[float, float]:
    """Rounds a second of the fast path with its own shuffling on `threads` threads: by the wall
    clock, and per second of CPU a thread got (which a busy machine disturbs less)."""
    def one(child) -> tuple[int, float]:
        cpu = time.thread_time()
        block = game.run(np.random.Generator(np.random.PCG64(child)), rounds // threads)
        return block.rounds, time.thread_time() - cpu

    best_wall = best_cpu = 0.0
    with ThreadPoolExecutor(threads) as pool:
        for children in (np.random.SeedSequence(seed).spawn(threads) for _ in range(REPEATS)):
            started = time.perf_counter()
            done = list(pool.map(one, children))
            wall = time.perf_counter() - started
            played = sum(n for n, _ in done)
            best_wall = max(best_wall, played / wall)
            best_cpu = max(best_cpu, played / sum(c for _, c in done))
    return best_wall, best_cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reference-rounds", type=int, default=5000)
    parser.add_argument("--fast-rounds", type=int, default=10_000_000)
    parser.add_argument("--seats", type=int, default=1)
    parser.add_argument("--out", type=Path, default=RESULTS, help="where the figures are written (JSON)")
    args = parser.parse_args(argv)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    rows = []
    for rules_name, paytable_name in GAMES:
        # GAMES names house-banked rules only: the kernel plays no other family.
        rules, paytable = cast(CanberraRules, load_rules(rules_name)), load_paytable(paytable_name)
        strategy = derive(rules, paytable)
        game = FastGame(strategy, seats=args.seats)
        started = time.perf_counter()
        game.run(np.random.default_rng(0), 10)          # compiles the kernel, or loads it from the cache
        warm_up = time.perf_counter() - started
        row = {"rules": rules_name, "paytable": paytable_name, "seats": args.seats,
               "kernel_warm_up_s": warm_up, **same_shoes(game, args.reference_rounds, seed=1)}
        row["fast_1_thread_rounds_per_s"], row["fast_rounds_per_cpu_s"] = \
            throughput(game, args.fast_rounds // 2, 1, seed=2)
        row[f"fast_{cores}_threads_rounds_per_s"], _ = throughput(game, args.fast_rounds, cores, seed=3)
        row["speed_up_same_shoes"] = row["fast_rounds_per_s"] / row["reference_rounds_per_s"]
        rows.append(row)
    print(f"{'rounds/s':<16}{'reference':>11}{'fast, same shoes':>18}{'fast 1 thread':>15}{'per CPU s':>12}"
          f"{f'fast {cores} threads':>16}{'same money':>12}")
    for row in rows:
        print(f"{row['rules']:<16}{row['reference_rounds_per_s']:>11,.0f}{row['fast_rounds_per_s']:>18,.0f}"
              f"{row['fast_1_thread_rounds_per_s']:>15,.0f}{row['fast_rounds_per_cpu_s']:>12,.0f}"
              f"{row[f'fast_{cores}_threads_rounds_per_s']:>16,.0f}{'yes' if row['identical_money'] else 'NO':>12}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({
        "benchmark": "house_edge",
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"cores": cores, "python": platform.python_version(), "platform": platform.platform(),
                    "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None},
        "note": "the reference engine is CanberraRound driven by bench/reference_player.py; the fast path is "
                "service.analysis.fastsim; 'same shoes' times both on the shoes the fast path recorded; "
                "each figure is the best of a few runs (the machine is shared)",
        "results": rows,
    }, indent=2) + "\n")
    print(f"written {args.out}")
    return 0 if all(row["identical_money"] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
