"""A round under a stored paytable version leaves the service carrying that version: its transcript
(and its recall) replay to the same money on a machine with no database at all, and so does the
audit export, which chains the version's document where it was submitted."""
from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import ROOT
from tests.support.api_client import ok
from tests.support.scripted_rounds import play_script

from .test_paytables import NAME, PAIR_AND_EIGHTEEN, settled_under_pair_odds

PONTOON = [sys.executable, "-m", "service.cli"]
NO_DATABASE = "postgresql://nobody@127.0.0.1:1/nowhere?connect_timeout=1"


def replay_offline(tmp_path, transcript: dict) -> subprocess.CompletedProcess:
    path = tmp_path / "round.json"
    path.write_text(json.dumps(transcript))
    return subprocess.run([*PONTOON, "replay", str(path)], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "DATABASE_URL": NO_DATABASE})


def test_a_round_under_a_stored_version_replays_with_no_database_reachable(
        operator, second_operator, supervisor, new_table, settle, evaluate, tmp_path):
    table_id, terminal, version, state = settled_under_pair_odds("13:1", operator, second_operator, new_table,
                                                                 settle, evaluate)
    transcript = ok(terminal.get(f"/v1/rounds/{state['round_id']}/transcript"), 200)
    assert transcript["paytable"] == f"{NAME}@{version}"
    assert transcript["paytable_document"]["side_bets"]["pair"]["pays"]["pair"] == "13:1"
    replayed = replay_offline(tmp_path, transcript)
    assert replayed.returncode == 0, replayed.stderr
    # the pair at 13:1 (7000) and 18 beating the dealer's 17 (2000)
    assert json.loads(replayed.stdout)["seats"][0]["returned"] == 500 + 13 * 500 + 2000

    recalled = ok(supervisor.get(f"/v1/tables/{table_id}/recall?last=1"), 200)["rounds"][0]["transcript"]
    assert recalled == transcript

    # Without the document the same transcript needs the database, and says so.
    bare = {key: value for key, value in transcript.items() if key != "paytable_document"}
    refused = replay_offline(tmp_path, bare)
    assert refused.returncode == 2 and "needs the database" in refused.stderr


def test_an_export_replays_rounds_under_a_stored_version_from_its_chained_document(
        operator, second_operator, compliance, new_table, settle, evaluate, tmp_path):
    settled_under_pair_odds("14:1", operator, second_operator, new_table, settle, evaluate)
    reply = compliance.get("/v1/audit/export?format=jsonl")
    assert reply.status == 200
    export = tmp_path / "audit.jsonl"
    export.write_bytes(reply.data)
    verdict = subprocess.run([*PONTOON, "audit", "verify", str(export)], cwd=ROOT, capture_output=True, text=True,
                             timeout=120, env={**os.environ, "DATABASE_URL": NO_DATABASE})
    # Replayed under the file's 11:1, the pair's payout record (14:1) would be named as wrong.
    assert verdict.returncode == 0, verdict.stdout + verdict.stderr
    assert "not replayed" not in verdict.stdout, verdict.stdout


def test_a_round_under_the_file_version_carries_nothing_extra(new_table):
    table_id, terminal = new_table()
    state = play_script(terminal, table_id, [{"seat": 1, "wager": 1000}], PAIR_AND_EIGHTEEN)
    transcript = ok(terminal.get(f"/v1/rounds/{state['round_id']}/transcript"), 200)
    assert transcript["paytable"] == f"{NAME}@1" and "paytable_document" not in transcript
