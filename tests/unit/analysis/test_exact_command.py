"""`pontoon analyse`: the report's fields, the hands as the published tables write them, the cache."""
from __future__ import annotations

import json
import os
from pathlib import Path

from service.cli import main


def test_json_report_of_european_blackjack(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PONTOON_ANALYSIS_CACHE", str(tmp_path))
    assert main(["analyse", "--rules", "blackjack-enhc", "--paytable", "blackjack", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    for field in ("rules", "paytable", "return", "house_edge", "variance", "lines", "hands"):
        assert field in report
    assert report["house_edge"] == -report["return"]
    assert 0.0072 < report["house_edge"] < 0.0073
    hands = {(row["upcard"], row["cards"]): row for row in report["hands"]}
    assert len(hands) == 10 * 55
    assert hands[("T", "6,5")]["best"] == "hit" and set(hands[("T", "6,5")]) >= {"stand", "hit", "double"}
    assert hands[("5", "8,8")]["best"] == "split"
    assert hands[("9", "T,A")]["best"] == "pontoon"
    assert ("5", "6,5") in hands and ("5", "5,6") not in hands
    assert {line["line"] for line in report["lines"]} == {"pontoon"}
    assert len(os.listdir(tmp_path)) == 1


def test_second_run_reads_the_cache(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PONTOON_ANALYSIS_CACHE", str(tmp_path))
    main(["analyse", "--rules", "blackjack-enhc", "--paytable", "blackjack", "--json"])
    first = json.loads(capsys.readouterr().out)
    (cached,) = tmp_path.iterdir()
    report = json.loads(cached.read_text())
    report["house_edge"] = 0.5    # a cached report is served as stored, without recomputing
    cached.write_text(json.dumps(report))
    main(["analyse", "--rules", "blackjack-enhc", "--paytable", "blackjack", "--json"])
    assert json.loads(capsys.readouterr().out)["house_edge"] == 0.5
    main(["analyse", "--rules", "blackjack-enhc", "--paytable", "blackjack", "--json", "--no-cache"])
    assert json.loads(capsys.readouterr().out)["house_edge"] == first["house_edge"]
    # --no-cache refreshed the cache: the next run reads the report computed afresh.
    assert json.loads(cached.read_text())["house_edge"] == first["house_edge"]
    main(["analyse", "--rules", "blackjack-enhc", "--paytable", "blackjack", "--json"])
    assert json.loads(capsys.readouterr().out)["house_edge"] == first["house_edge"]


def test_text_report_and_the_chart_as_csv(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PONTOON_ANALYSIS_CACHE", str(tmp_path))
    chart = tmp_path / "chart.csv"
    assert main(["analyse", "--rules", "blackjack-enhc", "--paytable", "blackjack", "--csv", str(chart)]) == 0
    text = capsys.readouterr().out
    assert "house edge 0.72" in text and "T  6,5" in text
    rows = chart.read_text().splitlines()
    assert rows[0].startswith("upcard,cards,suits,probability,stand,hit,double")
    assert len(rows) == 1 + 550 and any(row.startswith("T,\"6,5\",,") and row.endswith(",hit,") for row in rows)


def test_the_play_after_a_double_is_in_the_text_and_the_csv(tmp_path, capsys):
    chart = tmp_path / "chart.csv"
    assert main(["analyse", "--rules", "canberra", "--paytable", "canberra-standard", "--csv", str(chart)]) == 0
    text = capsys.readouterr().out
    assert "after a double, by the card it draws (A23456789T): S stand, F forfeit" in text
    # A doubled 9 (5,4) against a ten: a 7 makes 16, which forfeits; an ace makes 20 (soft), which stands.
    (row,) = [line for line in text.splitlines() if line.startswith("  T  5,4 ")]
    plays = row.split()[-1]
    assert len(plays) == 10 and plays[6] == "F" and plays[0] == "S"
    rows = {tuple(line.split(",")[:1]) + (line.split('"')[1],): line for line in chart.read_text().splitlines()[1:]}
    assert rows[("T", "5,4")].endswith("," + plays)


def test_rules_the_recursion_does_not_cover_are_named(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PONTOON_ANALYSIS_CACHE", str(tmp_path))
    assert main(["analyse", "--rules", "british-traditional", "--paytable", "blackjack"]) == 2
    assert "must be canberra (a house-banked game)" in capsys.readouterr().err


def test_rules_and_paytable_may_be_named_by_a_file_path(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PONTOON_ANALYSIS_CACHE", str(tmp_path))
    root = Path(__file__).resolve().parents[3]
    rules = tmp_path / "my-rules.yaml"
    rules.write_text((root / "rules_config" / "blackjack-enhc.yaml").read_text())
    assert main(["analyse", "--rules", str(rules), "--paytable", str(root / "paytables" / "blackjack.yaml"),
                 "--json"]) == 0
    assert 0.0072 < json.loads(capsys.readouterr().out)["house_edge"] < 0.0073
    assert main(["analyse", "--rules", str(tmp_path / "missing.yaml"), "--paytable", "blackjack"]) == 2
    assert "missing.yaml" in capsys.readouterr().err


def test_a_player_edge_is_printed_as_such_and_rare_lines_keep_their_digits(capsys):
    assert main(["analyse", "--rules", "canberra", "--paytable", "canberra-standard"]) == 0
    text = capsys.readouterr().out
    assert "player's edge 0.29" in text and "house edge -" not in text
    (line,) = [row for row in text.splitlines() if row.strip().startswith("super_bonus")]
    assert "probability 0.0000009" in line      # about one round in a million, with its digits


def test_unquoted_odds_and_tabs_are_named(tmp_path, capsys):
    root = Path(__file__).resolve().parents[3]
    standard = (root / "paytables" / "canberra-standard.yaml").read_text()
    unquoted = tmp_path / "unquoted.yaml"
    unquoted.write_text(standard.replace('5_card_21: "3:1"', "5_card_21: 3:1"))
    assert main(["analyse", "--rules", "canberra", "--paytable", str(unquoted)]) == 2
    assert 'bonuses.5_card_21: is the number 181 (YAML reads 3:1 unquoted as 181): write the odds in quotes, ' \
           'as "3:1"' in capsys.readouterr().err
    tabbed = tmp_path / "tabbed.yaml"
    tabbed.write_text(standard.replace('  win: "1:1"', '\twin: "1:1"'))
    assert main(["analyse", "--rules", "canberra", "--paytable", str(tabbed)]) == 2
    line = standard.splitlines().index('  win: "1:1"') + 1
    assert f"line {line} is indented with a tab" in capsys.readouterr().err
