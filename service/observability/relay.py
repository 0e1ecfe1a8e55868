"""`python -m service.observability.relay [ARGS]`: `pontoon settle relay ARGS` with JSON-lines logs."""
from __future__ import annotations

import sys

from ..cli import main as pontoon
from ..config import Settings
from .logs import configure_logging, level_named


def main(argv: list[str] | None = None) -> int:
    # Configured first, so the command's own logging.basicConfig finds a handler and changes nothing.
    configure_logging(level_named(Settings.from_env().log_level))
    return pontoon(["settle", "relay", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
