"""`pontoon analyse`: the exact house edge, variance and hand-by-hand values of a rule set and paytable."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..analysis import chart
from ..analysis.exact.chart import exact_strategy
from ..analysis.exact.report import analyse, as_csv, as_text
from ..config import Settings
from ..rules import RulesError
from .rule_files import house_banked_rules
from .rule_files import paytable as paytable_named


def run(args: argparse.Namespace) -> int:
    try:
        rules = house_banked_rules(args.rules)
        paytable = paytable_named(args.paytable)
    except RulesError as exc:
        print(f"pontoon analyse: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    try:
        report = analyse(rules, paytable, wager=args.wager, refresh=args.no_cache,
                         cache_dir=Settings.from_env().analysis_cache or None)
    except ValueError as exc:
        print(f"pontoon analyse: {exc}", file=sys.stderr)
        return 2
    if args.csv:
        with open(args.csv, "w", encoding="utf-8") as rows:
            rows.write(as_csv(report))
    if args.chart or args.png:
        strategy = exact_strategy(rules, paytable, args.wager)
        if args.png:
            chart.png(strategy, args.png)
        if args.chart:
            sys.stdout.write(chart.text(strategy))
    sys.stdout.write(json.dumps(report, indent=1) + "\n" if args.json else as_text(report))
    return 0


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("analyse", help="exact house edge and hand values of a rule set and paytable")
    parser.add_argument("--rules", required=True,
                        help="rules: a file stem in rules_config/ (e.g. blackjack-enhc) or a path to a YAML file")
    parser.add_argument("--paytable", required=True,
                        help="paytable: a file stem in paytables/ or a path to a YAML file")
    parser.add_argument("--wager", type=int, help="cents per seat for bonus paytables (default: the table minimum)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--csv", help="also write every two-card hand's values and best play to this CSV file")
    parser.add_argument("--chart", action="store_true", help="also print the strategy chart from these values")
    parser.add_argument("--png", help="also draw the strategy chart from these values to this PNG file")
    parser.add_argument("--no-cache", action="store_true",
                        help="recompute even when a cached report matches, and keep the new report in the cache")
    parser.set_defaults(run=run)
