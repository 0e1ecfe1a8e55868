"""The `pontoon` command: replay, keys, audit, terminal, house-edge, strategy and the rest."""
from __future__ import annotations

import argparse
import importlib
import sys

# Subcommand modules under service/commands; each has add_parser(subparsers).
SUBCOMMANDS = ("replay", "keys", "audit", "migrate", "terminal", "house_edge", "strategy", "settle", "users",
               "analyse")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argparse parser for every subcommand (or only the one named, so that a command does not
    depend on the optional pieces another one needs)."""
    # exit_on_error=False: a subcommand that asks for one-line errors has them raised up to main.
    parser = argparse.ArgumentParser(prog="pontoon", description="Pontoon back office", exit_on_error=False)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        if only is not None and name != only:
            continue
        importlib.import_module(f"service.commands.{name}").add_parser(subparsers)
    return parser


def _error_line(command: str, message: str) -> int:
    print(f"pontoon {command}: error: {message}", file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    first = argv[0] if argv and not argv[0].startswith("-") else None
    named = first.replace("-", "_") if first else None
    parser = build_parser(named if named in SUBCOMMANDS else None)
    try:
        args, extra = parser.parse_known_args(argv)
    except argparse.ArgumentError as exc:
        if first is None or named not in SUBCOMMANDS:
            parser.error(str(exc))   # pontoon's own arguments: its usage and the error, as argparse writes them
        return _error_line(first, " ".join(part for part in (exc.argument_name, exc.message) if part))
    if extra:
        refuse_extra = getattr(args, "refuse_extra", None)
        if refuse_extra is None or first is None:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        return _error_line(first, refuse_extra(extra, args))
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    result: int | None = args.run(args)
    return result or 0


if __name__ == "__main__":
    sys.exit(main())
