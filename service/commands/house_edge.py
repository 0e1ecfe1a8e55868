"""`pontoon house-edge`: house edge and RTP of a rule set and paytable under the derived strategy."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from ..analysis.exact.chart import exact_strategy
from ..analysis.house_edge import compute
from ..rules import RulesError
from .rule_files import house_banked_rules
from .rule_files import paytable as paytable_named


class _ProgressLine:
    """Progress on standard error: one line rewritten in place on a terminal, else a line a second."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.tty = stream.isatty()
        self.last = -1.0

    def __call__(self, p: Any) -> None:
        if not self.tty and p.elapsed - self.last < 1.0:
            return
        self.last = p.elapsed
        text = (f"house-edge: {p.rounds:,} rounds, {p.house_edge * 100:+.4f}% "
                f"± {p.standard_error * 100:.4f} (target ± {p.target * 100:.4f}), "
                f"{p.rounds_per_second / 1e6:.1f}M rounds/s, {p.elapsed:.0f}s")
        self.stream.write(("\r" + text + "\033[K") if self.tty else text + "\n")
        self.stream.flush()

    def done(self) -> None:
        if self.tty and self.last >= 0:
            self.stream.write("\n")
            self.stream.flush()


def _edge_words(house_edge_percent: float) -> str:
    if house_edge_percent < 0:
        return f"player's edge {-house_edge_percent:.4f}% (the house loses)"
    return f"house edge {house_edge_percent:.4f}%"


def report(result: dict[str, Any]) -> str:
    """The result as text for a person."""
    lines = [f"House edge of {result['rules']} with {result['paytable']}: {result['seats']} seat(s), "
             f"wager {result['wager_cents']} cents, {result['shoe']}",
             f"  main game   {_edge_words(result['house_edge_percent'])} ± {result['house_edge_se_percent']:.4f} "
             f"(standard error)   RTP {result['rtp_percent']:.4f}% ± {result['rtp_se_percent']:.4f}",
             f"              {result['rounds']:,} rounds in {result['elapsed_seconds']:.1f}s "
             f"(set-up {result['set_up_seconds']:.1f}s, {result['rounds_per_second'] / 1e6:.1f}M rounds/s), "
             f"seed {result['seed']}"
             + ("" if result["precision_reached"] else "; the requested precision was NOT reached"),
             "              per total stake (splits and doubles counted) "
             f"{result['house_edge_per_total_stake_percent']:+.4f}%;"
             f" the strategy's own calculation {result['strategy_estimate_percent']:+.4f}%",
             "  bonus lines (what each pays beyond even money, per initial wager)",
             f"    {'line':<16}{'hits':>12}{'per million':>14}{'RTP points':>12}"]
    for line in result["bonus_lines"]:
        lines.append(f"    {line['line']:<16}{line['hits']:>12,}{line['per_million_rounds']:>14.2f}"
                     f"{line['contribution_percent']:>11.4f}%")
    lines.append("  side bets (exact)")
    for name, bet in result["side_bets"].items():
        if bet["offered"]:
            lines.append(f"    {name:<10} pays {bet['pays']:<5} house edge {bet['house_edge']} = "
                         f"{bet['house_edge_percent']:.4f}%")
        else:
            lines.append(f"    {name:<10} not offered")
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    try:
        rules = house_banked_rules(args.rules)
        paytable = paytable_named(args.paytable)
    except RulesError as exc:
        print(f"pontoon house-edge: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    progress = None if args.quiet else _ProgressLine(sys.stderr)
    try:
        strategy = None
        if args.exact_strategy:     # the chart from the exact analysis instead of the derived one
            strategy = exact_strategy(rules, paytable, args.wager)
        result = compute(rules, paytable, precision=args.precision, seed=args.seed, seats=args.seats,
                         wager=args.wager, fresh_shoe=args.fresh_shoe, max_seconds=args.max_seconds,
                         threads=args.threads, progress=progress, strategy=strategy)
    except ValueError as exc:
        if progress:
            progress.done()
        print(f"pontoon house-edge: {exc}", file=sys.stderr)
        return 2
    if progress:
        progress.done()
    sys.stdout.write(json.dumps(result, indent=2) + "\n" if args.json else report(result))
    return 0


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("house-edge", help="house edge and RTP of a rule set and paytable")
    parser.add_argument("--rules", required=True,
                        help="rules: a file stem in rules_config/ (e.g. canberra) or a path to a YAML file")
    parser.add_argument("--paytable", required=True,
                        help="paytable: a file stem in paytables/ or a path to a YAML file")
    parser.add_argument("--precision", type=float, default=0.0002,
                        help="standard error to reach, as a fraction of the wager (default 0.0002 = 0.02 points)")
    parser.add_argument("--seed", type=int, help="names the run (default: drawn, and reported)")
    parser.add_argument("--seats", type=int, default=1, help="seats dealt in each round (default 1)")
    parser.add_argument("--wager", type=int, help="cents per seat (default: the table minimum)")
    parser.add_argument("--fresh-shoe", action="store_true",
                        help="shuffle before every round (off the top, as combinatorial analyses assume)")
    parser.add_argument("--max-seconds", type=float, default=600.0, help="stop after this long (default 600)")
    parser.add_argument("--threads", type=int, help="simulation threads (default: every core)")
    parser.add_argument("--exact-strategy", action="store_true",
                        help="play the chart from the exact analysis (pontoon analyse) instead of the derived one")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress on standard error")
    parser.set_defaults(run=run)
