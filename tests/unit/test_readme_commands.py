"""The README's command table names real commands with the options they need: each command written
there, placeholders filled in, is one `pontoon` accepts."""
from __future__ import annotations

import re

import pytest

from service.cli import build_parser
from tests.conftest import ROOT

# What the table's placeholders stand for, as a reader would fill them in: an option's value by the
# option, a positional one by its name.
OPTION_VALUES = {"--rules": "canberra", "--paytable": "canberra-standard", "--role": "terminal", "--table": "T1",
                 "--rounds": "5", "--url": "http://127.0.0.1:8000", "--admin-key": "pnt_key", "--key": "pnt_key",
                 "--gaming-day": "2026-11-26", "--older-than": "60", "--batch": "day.jsonl",
                 "--from": "2026-11-26T06:00:00+11:00", "--to": "2026-11-27T06:00:00+11:00"}
POSITIONAL = {"ROUND.json": "round.json", "FILE": "export.jsonl"}


def table_commands() -> list[str]:
    """Every `pontoon ...` in a row of the README's command table."""
    rows = [line for line in (ROOT / "README.md").read_text().splitlines() if line.startswith("| `pontoon")]
    return [command for row in rows for command in re.findall(r"`(pontoon [^`]*)`", row.split(" | ")[0])]


def as_written(command: str) -> list[str]:
    """The command's words with its placeholders filled in: optional parts kept, and of
    alternatives (`A \\| B`) the first."""
    command = re.sub(r"\s*\\\|[^\]]*", "", command).replace("[", "").replace("]", "")
    words = command.split()[1:]
    return [OPTION_VALUES[previous] if previous in OPTION_VALUES else POSITIONAL.get(word, word)
            for previous, word in zip(["", *words], words)]


def test_the_table_lists_the_commands():
    commands = " ".join(table_commands())
    for expected in ("pontoon strategy --rules R --paytable P", "pontoon settle sweep", "pontoon settle relay",
                     "pontoon terminal", "pontoon audit export", "pontoon replay"):
        assert expected in commands


@pytest.mark.parametrize("command", table_commands())
def test_each_command_in_the_table_is_accepted_as_written(command):
    try:
        build_parser().parse_args(as_written(command))
    except SystemExit as refused:
        pytest.fail(f"{command!r} as written ({' '.join(as_written(command))}) is refused: exit {refused.code}")
