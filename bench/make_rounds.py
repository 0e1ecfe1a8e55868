"""Writes N random complete rounds (up to seven seats) as a JSON-lines transcript file."""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.random_play import play_random_round  # noqa: E402
from service.rules import load_paytable, load_rules  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--rounds", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules, paytable = load_rules("canberra"), load_paytable("canberra-standard")
    rng = random.Random(args.seed)
    with open(args.out, "w", encoding="utf-8") as out:
        for _ in range(args.rounds):
            out.write(json.dumps(play_random_round(rules, paytable, rng).transcript()) + "\n")


if __name__ == "__main__":
    main()
