"""Every worked round in tests/fixtures/transcripts replays to its expected money, or fails as expected."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from service.engine.transcript import TranscriptError
from service.replay import replay_data
from tests.conftest import ROOT, worked_rounds

CANBERRA = worked_rounds()


def test_the_worked_rounds_are_there():
    assert len(CANBERRA) >= 8


@pytest.mark.parametrize("path", CANBERRA, ids=lambda p: p.stem)
def test_worked_round(path):
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    data = json.loads(path.read_text())
    if expected.get("error"):
        with pytest.raises(TranscriptError):
            replay_data(data)
        return
    got = replay_data(data)
    assert got["dealer"] == expected["dealer"]
    for want, have in zip(expected["seats"], got["seats"], strict=True):
        for key in ("seat", "staked", "returned", "net"):
            assert have[key] == want[key], (key, have, want)
        if "hands" in want:
            for want_hand, have_hand in zip(want["hands"], have["hands"], strict=True):
                assert have_hand["cards"] == want_hand["cards"]
                assert have_hand["stake"] == want_hand["stake"]


@pytest.mark.parametrize("path", CANBERRA, ids=lambda p: p.stem)
def test_worked_round_through_the_command(path):
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    proc = subprocess.run([sys.executable, "-m", "service.cli", "replay", str(path)],
                          capture_output=True, text=True, cwd=ROOT)
    if expected.get("error"):
        assert proc.returncode == 2
        assert proc.stdout == ""
        assert len(proc.stderr.strip().splitlines()) == 1
        assert "Traceback" not in proc.stderr
        assert "action 1" in proc.stderr
    else:
        assert proc.returncode == 0, proc.stderr
        got = json.loads(proc.stdout)
        assert [s["net"] for s in got["seats"]] == [s["net"] for s in expected["seats"]]


def test_exported_transcript_replays_to_the_same_money():
    for path in CANBERRA:
        data = json.loads(path.read_text())
        expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
        if expected.get("error"):
            continue
        from service.engine.play import play_transcript
        from service.engine.transcript import parse_transcript
        from service.rules import load_paytable, load_rules
        t = parse_transcript(data)
        round_ = play_transcript(load_rules(t.rules), load_paytable(t.paytable), t)
        exported = round_.transcript()
        assert replay_data(exported) == round_.result()


def test_a_table_with_its_own_limits_exports_them_and_replays():
    from service.engine.games.canberra import CanberraRound
    from service.engine.limits import Limits
    from service.rules import load_paytable, load_rules
    round_ = CanberraRound(load_rules("canberra"), load_paytable("canberra-standard"),
                           [{"seat": 1, "wager": 100}], limits={"main": Limits(100, 5000)})
    for card in ("9H", "5C", "8D"):
        round_.deal_card(card)
    round_.stand(1, 0)
    round_.deal_card("KS")
    round_.deal_card("3D")   # dealer 5 K 3 = 18
    assert round_.complete
    exported = round_.transcript()
    assert exported["limits"]["main"] == {"min": 100, "max": 5000}
    assert replay_data(exported) == round_.result()
    del exported["limits"]
    with pytest.raises(TranscriptError, match="outside the table limits"):
        replay_data(exported)
