"""Batch replay speed: `pontoon replay --batch` against a plain single-pass replayer on the same file."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


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


def main(rounds: int = 4000, runs: int = 7) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "rounds.jsonl")
        subprocess.run([sys.executable, "bench/make_rounds.py", path, "--rounds", str(rounds)], check=True, cwd=ROOT)
        pontoon = str(ROOT / ".venv" / "bin" / "pontoon")
        commands = {
            "engine": [pontoon, "replay", "--batch", path],
            "engine_one": [pontoon, "replay", "--batch", path, "--workers", "1"],
            "floor": [sys.executable, "bench/naive_replayer.py", path],
        }
        # Interleaved, best of `runs` each: a machine whose load changes during the run then
        # weighs on every command alike.
        best = {name: float("inf") for name in commands}
        for _ in range(runs):
            for name, command in commands.items():
                best[name] = min(best[name], timed(command))
        engine, engine_one, floor = best["engine"], best["engine_one"], best["floor"]
        empty = os.path.join(tmp, "empty.jsonl")
        Path(empty).write_text("")
        counted = count_instructions(commands, path, empty)
    figures = {
        "rounds": rounds,
        "engine_rounds_per_s": round(rounds / engine),
        "engine_one_process_rounds_per_s": round(rounds / engine_one),
        "floor_naive_rounds_per_s": round(rounds / floor),
        "ratio_engine_to_floor": round(floor / engine, 2),
    }
    if counted:
        engine_count, floor_count = counted["engine_one"], counted["floor"]
        figures["instructions"] = {
            "engine_one_process": engine_count["instructions"], "floor_naive": floor_count["instructions"],
            "engine_start_up": engine_count["start_up_instructions"],
            "floor_start_up": floor_count["start_up_instructions"],
            "engine_per_round": round((engine_count["instructions"] - engine_count["start_up_instructions"]) / rounds),
            "floor_per_round": round((floor_count["instructions"] - floor_count["start_up_instructions"]) / rounds),
        }
    return figures


if __name__ == "__main__":
    result = main()
    print(json.dumps(result, indent=2))
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "replay.json").write_text(json.dumps(result, indent=2) + "\n")
