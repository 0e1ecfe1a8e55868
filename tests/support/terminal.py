"""A script started as a terminal starts its foreground job, for tests that press Ctrl-C on it."""
from __future__ import annotations

import signal


def ctrl_c_reaches_it() -> None:
    """Run in the child before the script: SIGINT back to its default. A test run started in the
    background (`make test &`, nohup) hands its children SIGINT ignored, and a shell can never trap
    a signal that was ignored when it started, so Ctrl-C would not reach the script's own trap."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
