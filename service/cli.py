"""The `pontoon` command: replay, keys, audit, terminal, house-edge, strategy and the rest."""
from __future__ import annotations

import sys

# Subcommand modules under service/commands; each has add_parser(subparsers). A module that is
# not there yet (or fails to import for a missing optional piece) simply does not show.
SUBCOMMANDS = ("replay", "keys", "audit", "migrate", "terminal", "house_edge", "strategy", "serve_info", "settle")


def build_parser(only: str | None = None):
    """The argparse parser for every subcommand (or only the one named)."""
    import argparse
    import importlib
    parser = argparse.ArgumentParser(prog="pontoon", description="Pontoon back office")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        if only is not None and name != only:
            continue
        try:
            module = importlib.import_module(f"service.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"service.commands.{name}":
                continue
            raise
        module.add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # Build only the named subcommand's parser: replay must not pay for importing the service.
    first = argv[0].replace("-", "_") if argv and not argv[0].startswith("-") else None
    if first == "replay" and "-h" not in argv and "--help" not in argv:
        # Replay reads its few options with getopt: argparse's help formatter (and what it
        # imports) is start-up time that every batch run would pay. Help still comes from argparse.
        import gc
        # Importing the engine allocates thousands of objects that live as long as the process;
        # collecting while they arrive finds nothing and costs a sixth of the start-up.
        gc.disable()
        try:
            from .commands import replay
        finally:
            gc.enable()
        return replay.main(argv[1:])
    parser = build_parser(first if first in SUBCOMMANDS else None)
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    return args.run(args) or 0


if __name__ == "__main__":
    sys.exit(main())
