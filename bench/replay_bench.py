"""Batch replay speed: `pontoon replay --batch` against a plain single-pass replayer on the same file."""
from __future__ import annotations

import json
import os
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
    figures = {
        "rounds": rounds,
        "engine_rounds_per_s": round(rounds / engine),
        "engine_one_process_rounds_per_s": round(rounds / engine_one),
        "floor_naive_rounds_per_s": round(rounds / floor),
        "ratio_engine_to_floor": round(floor / engine, 2),
    }
    return figures


if __name__ == "__main__":
    result = main()
    print(json.dumps(result, indent=2))
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "replay.json").write_text(json.dumps(result, indent=2) + "\n")
