"""`pontoon terminal`: simulated dealer terminals playing rounds through the API, with a summary."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..config import Settings
from ..terminal.simulator import SetupError, SimulatorConfig
from ..terminal.simulator import run as simulate
from ..terminal.stats import summary, summary_text


def run(args: argparse.Namespace) -> int:
    if args.rounds is None and args.duration is None:
        args.rounds = 200
    settings = Settings.from_env()
    urls = tuple(args.url or [settings.api_url])
    config = SimulatorConfig(
        base_urls=urls, table=args.table, rounds=args.rounds, seats=args.seats, concurrency=args.concurrency,
        physical=args.physical, seed=args.seed,
        admin_key=args.admin_key or settings.admin_key or None,
        terminal_key=args.key or settings.terminal_key or None,
        rules=args.rules, paytable=None if args.paytable == "none" else args.paytable,
        rate=args.rate, duration=args.duration, money=not args.no_money,
        progress_every=0 if args.quiet else 2.0)
    print(f"[terminal] {args.concurrency} terminal(s), {args.seats} seat(s) each, "
          f"{'physical' if args.physical else 'virtual'} shoe, against {', '.join(urls)}", file=sys.stderr)
    try:
        stats = simulate(config)
    except SetupError as exc:
        print(f"pontoon terminal: {exc}", file=sys.stderr)
        return 2
    figures = summary(stats)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(summary_text(figures))
    return 1 if figures["errors"] else 0


def _at_least_one(text: str) -> int:
    """A whole number of terminals, one at least: none would play nothing and report no error."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("at least one terminal")
    return value


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "terminal", help="simulated dealer terminals playing rounds through the API",
        description="Drive the API as dealer terminals would: open shoes, take wagers, report cards "
                    "(--physical), post the players' decisions, read each round's money. Exits 1 on any error.")
    parser.add_argument("--table", default="SIM", help="table id; with --concurrency C the tables are T-1..T-C")
    parser.add_argument("--rounds", type=int, default=None, help="rounds in all (default 200, or none with --duration)")
    parser.add_argument("--duration", type=float, default=None, help="play for this many seconds instead")
    parser.add_argument("--seats", type=int, default=3, choices=range(1, 8), metavar="K", help="seats dealt in (1-7)")
    parser.add_argument("--concurrency", type=_at_least_one, default=1, metavar="C",
                        help="terminals, each on its own table")
    parser.add_argument("--physical", action="store_true", help="report cards from a local shuffled shoe")
    parser.add_argument("--seed", type=int, default=None, help="seed for wagers, decisions and the local shoe")
    parser.add_argument("--url", action="append", help="API base URL; give it twice to alternate between "
                                                        "instances (default $PONTOON_URL or http://127.0.0.1:$PORT)")
    parser.add_argument("--key", help="terminal key for an existing table (default $PONTOON_TERMINAL_KEY)")
    parser.add_argument("--admin-key", help="admin key to create the tables and issue their terminal keys "
                                            "(default $PONTOON_ADMIN_KEY)")
    parser.add_argument("--rules", default="canberra", help="house-banked rules for new tables: canberra (default) "
                                                           "or blackjack-enhc with --paytable blackjack")
    parser.add_argument("--paytable", default="canberra-standard", help="paytable for new tables ('none': none)")
    parser.add_argument("--rate", type=float, default=None, help="requests per second in all (default: flat out)")
    parser.add_argument("--no-money", action="store_true", help="do not read transcripts for the money")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    parser.set_defaults(run=run)
