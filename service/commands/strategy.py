"""`pontoon strategy`: derive the player strategy for a rule set and paytable; print, CSV, PNG."""
from __future__ import annotations

import argparse
import sys
from typing import Any

from ..analysis import chart
from ..analysis.strategy import derive
from ..rules import RulesError
from .rule_files import house_banked_rules
from .rule_files import paytable as paytable_named


def run(args: argparse.Namespace) -> int:
    try:
        rules = house_banked_rules(args.rules)
        paytable = paytable_named(args.paytable)
    except RulesError as exc:
        print(f"pontoon strategy: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    wager = args.wager or rules.main_limits.minimum
    if not rules.main_limits.contains(wager):
        print(f"pontoon strategy: wager {wager} is outside the table limits", file=sys.stderr)
        return 2
    strategy = derive(rules, paytable, wager)
    sys.stdout.write(chart.text(strategy))
    try:
        if args.csv:
            with open(args.csv, "w", encoding="utf-8", newline="") as handle:
                handle.write(chart.csv_text(strategy))
        if args.png:
            chart.png(strategy, args.png)
    except OSError as exc:
        print(f"pontoon strategy: {exc}", file=sys.stderr)
        return 2
    return 0


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("strategy", help="derive the player strategy for a rule set and paytable")
    parser.add_argument("--rules", required=True,
                        help="rules: a file stem in rules_config/ (e.g. canberra) or a path to a YAML file")
    parser.add_argument("--paytable", required=True,
                        help="paytable: a file stem in paytables/ (e.g. canberra-standard) or a path to a YAML file")
    parser.add_argument("--wager", type=int, help="the wager in cents the strategy is for (default: table minimum)")
    parser.add_argument("--csv", metavar="FILE", help="also write every hand's decision and EVs as CSV")
    parser.add_argument("--png", metavar="FILE", help="also draw the chart as a PNG picture")
    parser.set_defaults(run=run)
