"""Batch replay speed: `pontoon replay --batch` on two workers against a plain single-pass replayer
and against itself on one, on the same gaming day's file (200,000 rounds unless told)."""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# A large casino's gaming day: at this size the start-up of either command is noise.
GAMING_DAY_ROUNDS = 200_000
# Instructions per round do not depend on the file's length: valgrind counts a short file.
INSTRUCTION_ROUNDS = 4000


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=False, stdout=subprocess.DEVNULL, cwd=ROOT)
    return time.perf_counter() - start


def instructions(command: list[str]) -> int | None:
    """Instructions the command executes, counted by valgrind's callgrind: the same count on any
    machine of the same architecture whatever else it is doing, where time moves with the host.
    None without valgrind."""
    if shutil.which("valgrind") is None:
        return None
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONHASHSEED": "0"})   # the same dict layouts every run
    found = re.search(r"Collected : (\d+)", done.stderr)
    return int(found.group(1)) if found else None


def count_instructions(commands: dict[str, list[str]], path: str, empty: str) -> dict:
    """Instructions of the one-process engine and of the naive replayer on the file, and of each
    on an empty file (start-up alone): the work each does, apart from how fast the host runs it."""
    figures: dict = {}
    for name in ("engine_one", "floor"):
        whole = instructions(commands[name])
        start_up = instructions([empty if arg == path else arg for arg in commands[name]])
        if whole is None or start_up is None:
            return {}
        figures[name] = {"instructions": whole, "start_up_instructions": start_up}
    return figures


def make_rounds(path: str, rounds: int) -> None:
    subprocess.run([sys.executable, "bench/make_rounds.py", path, "--rounds", str(rounds)], check=True, cwd=ROOT)


def replay_commands(path: str) -> dict[str, list[str]]:
    pontoon = str(Path(sys.executable).parent / "pontoon")   # the command as installed beside this Python
    return {
        "engine": [pontoon, "replay", "--batch", path, "--workers", "2"],
        "engine_one": [pontoon, "replay", "--batch", path, "--workers", "1"],
        "floor": [sys.executable, "bench/naive_replayer.py", path],
    }


def time_in_turn(commands: dict[str, list[str]], runs: int) -> dict[str, list[float]]:
    """Each command `runs` times, in turn and in a rotating order, so a host whose speed drifts
    weighs on every command alike; the ratios are then taken run by run."""
    names = list(commands)
    times: dict[str, list[float]] = {name: [] for name in names}
    for run in range(runs):
        for name in names[run % len(names):] + names[:run % len(names)]:
            times[name].append(timed(commands[name]))
    return times


def figures_from(times: dict[str, list[float]], rounds: int) -> dict:
    engine, engine_one, floor = (statistics.median(times[name]) for name in ("engine", "engine_one", "floor"))
    return {
        "rounds": rounds,
        "runs": len(times["engine"]),
        "engine_rounds_per_s": round(rounds / engine),
        "engine_one_process_rounds_per_s": round(rounds / engine_one),
        "floor_naive_rounds_per_s": round(rounds / floor),
        # Medians of the runs' own ratios: a run the host slowed counts once, on both sides.
        "ratio_engine_to_floor": round(statistics.median(f / e for e, f in zip(times["engine"], times["floor"])), 3),
        "ratio_two_workers_to_one": round(
            statistics.median(o / e for e, o in zip(times["engine"], times["engine_one"])), 3),
    }


def instruction_figures(tmp: str, rounds: int) -> dict:
    path = os.path.join(tmp, "short.jsonl")
    make_rounds(path, rounds)
    empty = os.path.join(tmp, "empty.jsonl")
    Path(empty).write_text("")
    counted = count_instructions(replay_commands(path), path, empty)
    if not counted:
        return {}
    engine_count, floor_count = counted["engine_one"], counted["floor"]
    return {
        "rounds": rounds,
        "engine_one_process": engine_count["instructions"], "floor_naive": floor_count["instructions"],
        "engine_start_up": engine_count["start_up_instructions"],
        "floor_start_up": floor_count["start_up_instructions"],
        "engine_per_round": round(
            (engine_count["instructions"] - engine_count["start_up_instructions"]) / rounds),
        "floor_per_round": round(
            (floor_count["instructions"] - floor_count["start_up_instructions"]) / rounds),
    }


def measure(rounds: int, runs: int, instruction_rounds: int) -> dict:
    """The timed figures on a file of `rounds`, and the instruction counts on one of
    `instruction_rounds` (none when 0, or without valgrind)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "rounds.jsonl")
        make_rounds(path, rounds)
        figures = figures_from(time_in_turn(replay_commands(path), runs), rounds)
        counted = instruction_figures(tmp, instruction_rounds) if instruction_rounds else {}
    if counted:
        figures["instructions"] = counted
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=GAMING_DAY_ROUNDS, help="rounds in the file (default 200,000)")
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each command (default 5)")
    parser.add_argument("--instruction-rounds", type=int, default=INSTRUCTION_ROUNDS,
                        help=f"rounds valgrind counts instructions on (default {INSTRUCTION_ROUNDS}; 0: none)")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "replay.json",
                        help="where the figures are written (JSON)")
    options = parser.parse_args(argv)
    result = measure(options.rounds, options.runs, options.instruction_rounds)
    print(json.dumps(result, indent=2))
    options.out.parent.mkdir(parents=True, exist_ok=True)
    options.out.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
