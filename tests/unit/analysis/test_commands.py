"""`pontoon strategy` and `pontoon house-edge` from the command line."""
from __future__ import annotations

import csv
import json
import subprocess
import sys

from tests.conftest import ROOT


def pontoon(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "service.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)


def test_strategy_prints_and_writes_the_chart(tmp_path):
    out_csv, out_png = tmp_path / "chart.csv", tmp_path / "chart.png"
    proc = pontoon("strategy", "--rules", "canberra", "--paytable", "canberra-standard",
                   "--csv", str(out_csv), "--png", str(out_png))
    assert proc.returncode == 0, proc.stderr
    assert "Pairs, first split" in proc.stdout and "6-7 one suit" in proc.stdout
    header = proc.stdout.splitlines()[5].split()
    assert header == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "J", "Q", "K"]
    rows = list(csv.DictReader(out_csv.open()))
    assert {"upcard", "decision", "ev_hit", "ev_stand"} <= set(rows[0])
    assert any(r["decision"] == "forfeit" for r in rows)
    assert out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_house_edge_json_is_clean_and_progress_goes_to_stderr():
    proc = pontoon("house-edge", "--rules", "blackjack-enhc", "--paytable", "blackjack",
                   "--precision", "0.002", "--seed", "5", "--json")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["seed"] == 5 and result["precision_reached"]
    assert 0 < result["house_edge_percent"] < 2
    assert "house-edge:" in proc.stderr and "rounds" in proc.stderr


def test_house_edge_text_report():
    proc = pontoon("house-edge", "--rules", "canberra", "--paytable", "canberra-standard",
                   "--precision", "0.003", "--seed", "1", "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "11/191" in proc.stdout and "1199/4879" in proc.stdout and "5_card_21" in proc.stdout


def test_unknown_rules_exit_2_with_one_line():
    proc = pontoon("house-edge", "--rules", "no-such-rules", "--paytable", "blackjack")
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
