"""Every `pontoon ...` the docs and the README write names a real command, and one written with its
options is accepted as written (the task guides' commands are run against a stack elsewhere)."""
from __future__ import annotations

import argparse
import contextlib
import io
import re

import pytest

from service.cli import build_parser
from tests.conftest import ROOT

from .test_readme_commands import OPTION_VALUES, POSITIONAL

# Placeholders the prose uses beyond the README table's.
PLACEHOLDERS = {**POSITIONAL, "DAY.jsonl": "day.jsonl", "U": "alice"}
VALUES = {**OPTION_VALUES, "--format": "jsonl", "--name": "Alice", "--interval": "1", "--sweep-after": "60",
          "--sweep-every": "10", "--precision": "0.0002", "--wager": "500", "--csv": "chart.csv",
          "--png": "chart.png", "--username": "alice", "P": "canberra-standard", "--reason": "left"}


def mentions() -> list[tuple[str, str]]:
    """(file, command) for each `pontoon ...` in backticks or on a line of a fenced block."""
    found = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = path.read_text()
        found += [(path.name, command) for command in re.findall(r"`(pontoon [^`\n]*)`", text)]
        for block in re.findall(r"^```[a-z]*\n(.*?)^```", text, flags=re.M | re.S):
            found += [(path.name, m.group(1).strip()) for m in
                      (re.match(r"\s*(?:\.venv/bin/)?(pontoon [^#|;&>]*)", line) for line in block.splitlines())
                      if m]
    return sorted(set(found))


def as_written(command: str) -> list[str]:
    """The words with placeholders filled: optional parts kept, of alternatives the first, a
    redirection dropped."""
    command = command.split(" > ")[0]
    command = re.sub(r"\s*\\\|[^\]]*", "", command).replace("[", "").replace("]", "")
    words = [word.split("|")[0] for word in command.split()[1:]]
    values = {**VALUES, "--role": "operator"} if words[:1] == ["users"] else VALUES   # a person's role
    return [values[previous] if previous in values else PLACEHOLDERS.get(word, word)
            for previous, word in zip(["", *words], words)]


def refused(words: list[str]) -> int | str | None:
    """argparse's exit code for these words (None: accepted), its output kept quiet."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            build_parser().parse_args(words)
        except SystemExit as exit_:
            return exit_.code
        except argparse.ArgumentError as error:   # pontoon raises these rather than exiting
            return str(error)
    return None


@pytest.mark.parametrize(("doc", "command"), mentions())
def test_each_command_the_docs_write_is_one_pontoon_knows(doc, command):
    words = as_written(command)
    if any(word.startswith("-") for word in words) or len(words) > 2:
        assert refused(words) is None, f"{doc}: {command!r} as written ({' '.join(words)}) is refused"
    else:   # a command named in prose, not written out in full: it exists
        assert refused([*words, "--help"]) == 0, f"{doc}: {command!r} names no command"
