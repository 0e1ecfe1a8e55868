"""Every worked traditional round replays to its expected money, or fails as expected."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from service.engine.transcript import TranscriptError
from service.replay import replay_data
from tests.conftest import ROOT, worked_rounds

ROUNDS = worked_rounds("traditional")


def _expected(path):
    return json.loads(path.with_name(path.stem + ".expected.json").read_text())


def test_the_worked_rounds_are_there():
    assert len(ROUNDS) >= 6


@pytest.mark.parametrize("path", ROUNDS, ids=lambda p: p.stem)
def test_worked_round(path):
    expected = _expected(path)
    data = json.loads(path.read_text())
    if expected.get("error"):
        with pytest.raises(TranscriptError):
            replay_data(data)
        return
    got = replay_data(data)
    assert got["banker"] == expected["banker"]
    assert [(p["seat"], p["net"]) for p in got["players"]] == [(p["seat"], p["net"]) for p in expected["players"]]
    for key in ("kitty", "next_banker", "reshuffle"):
        assert got[key] == expected[key], key
    kitty_change = got["kitty"] - data.get("kitty", 0)
    assert got["banker"]["net"] + sum(p["net"] for p in got["players"]) + kitty_change == 0


@pytest.mark.parametrize("path", ROUNDS, ids=lambda p: p.stem)
def test_worked_round_through_the_command(path):
    expected = _expected(path)
    proc = subprocess.run([sys.executable, "-m", "service.cli", "replay", str(path)],
                          capture_output=True, text=True, cwd=ROOT)
    if expected.get("error"):
        assert proc.returncode == 2
        assert proc.stdout == ""
        assert len(proc.stderr.strip().splitlines()) == 1
        assert "Traceback" not in proc.stderr
        assert "action 3" in proc.stderr
    else:
        assert proc.returncode == 0, proc.stderr
        got = json.loads(proc.stdout)
        assert [p["net"] for p in got["players"]] == [p["net"] for p in expected["players"]]
        assert got["kitty"] == expected["kitty"]


def test_the_batch_replays_every_round_in_order_and_fails_at_the_end(tmp_path):
    batch = tmp_path / "day.jsonl"
    batch.write_text("\n".join(json.dumps(json.loads(p.read_text())) for p in ROUNDS) + "\n")
    proc = subprocess.run([sys.executable, "-m", "service.cli", "replay", "--batch", str(batch)],
                          capture_output=True, text=True, cwd=ROOT)
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(lines) == len(ROUNDS)
    for path, got in zip(ROUNDS, lines):
        expected = _expected(path)
        if expected.get("error"):
            assert "error" in got
        else:
            assert got["banker"]["net"] == expected["banker"]["net"]
    assert proc.returncode == (2 if any(_expected(p).get("error") for p in ROUNDS) else 0)


@pytest.mark.parametrize("path", [p for p in ROUNDS if not _expected(p).get("error")], ids=lambda p: p.stem)
def test_exported_transcript_replays_to_the_same_money(path):
    from service.engine.play import play_transcript
    from service.engine.transcript import parse_transcript
    from service.rules import load_rules
    t = parse_transcript(json.loads(path.read_text()))
    round_ = play_transcript(load_rules(t.rules, t.options or None), None, t)
    assert replay_data(round_.transcript()) == round_.result()
