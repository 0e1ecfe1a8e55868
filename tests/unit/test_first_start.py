"""A first start is never silent: `make run` and `make demo` announce each long step of the
install and of the analysis's preparation before it runs, under a heading that says how long the
whole takes. Read from make's dry run, which lists every command a first start would run."""
from __future__ import annotations

import subprocess

import pytest

from tests.conftest import ROOT

# The steps that take a minute or more on a fresh machine.
LONG_STEPS = ("pip install", "pontoon analyse", "pontoon house-edge")


def first_start(target: str) -> list[str]:
    """The commands `make TARGET` runs when nothing is installed yet (-B: every target out of date)."""
    done = subprocess.run(["make", "-n", "-B", target], cwd=ROOT, capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


@pytest.mark.parametrize("target", ["run", "demo"])
def test_each_long_step_of_a_first_start_is_announced_before_it_runs(target):
    commands = first_start(target)
    long_steps = [at for at, command in enumerate(commands) if any(step in command for step in LONG_STEPS)]
    assert len(long_steps) == 5, commands   # pip twice, two exact analyses, the simulated edge
    unannounced = [commands[at] for at in long_steps if not commands[at - 1].startswith("echo ")]
    assert unannounced == []
    headings = [command for command in commands if command.startswith("echo ") and "minute" in command]
    assert len(headings) == 2 and "Installing" in headings[0] and "analysis" in headings[1]
