"""Every shared worked round, dealt through the API from a physical shoe, moves the same money
as `pontoon replay`; the rule-breaking one is refused at its offending decision."""
from __future__ import annotations

import json

import pytest

from service.replay import replay_data
from tests.conftest import worked_rounds
from tests.support.api_client import drive_round, ok

ROUNDS = worked_rounds()


def test_there_are_worked_rounds_to_play():
    assert len(ROUNDS) >= 8


@pytest.mark.parametrize("path", ROUNDS, ids=lambda p: p.stem)
def test_worked_round_through_the_api(path, new_table, db):
    transcript = json.loads(path.read_text())
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    table_id, terminal = new_table(shoe="physical")
    opened = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": transcript["seats"]}), 201)
    assert opened["status"] == "open" and opened["awaiting"] == "card" and opened["card_to"] == \
        f"seat {min(s['seat'] for s in transcript['seats'])} hand 0"

    played = drive_round(terminal, opened["round_id"], transcript["cards"], transcript["actions"])
    round_id = played.round_id

    if expected.get("error"):
        refusal = played.refusal
        assert refusal is not None and refusal.status == 409, played.replies[-1]
        assert refusal.body["code"] == "decision_refused"
        assert refusal.body["legal_actions"], "a refusal lists what the rules allow"
        after = ok(terminal.get(f"/v1/rounds/{round_id}"), 200)
        assert after == played.state, "a refused decision leaves the round as it was"
        assert after["status"] == "open" and after["awaiting"] == "decision"
        return

    assert played.refusal is None
    final = played.state
    assert final["status"] == "complete" and final["awaiting"] is None and final["settlement"] is None
    assert final["dealer"]["cards"] == expected["dealer"]["cards"]

    # The transcript the API gives back replays to the worked round's money.
    transcript_back = ok(terminal.get(f"/v1/rounds/{round_id}/transcript"), 200)
    replayed = replay_data(transcript_back)
    want = {s["seat"]: (s["staked"], s["returned"], s["net"]) for s in expected["seats"]}
    assert {s["seat"]: (s["staked"], s["returned"], s["net"]) for s in replayed["seats"]} == want

    # The money stored with the round, and the settlement work queued with it.
    result, status = db.execute("SELECT result, status FROM rounds WHERE round_id = %s", (round_id,)).fetchone()
    assert status == "complete"
    assert {s["seat"]: (s["staked"], s["returned"], s["net"]) for s in result["seats"]} == want
    assert db.execute("SELECT count(*) FROM outbox WHERE topic = 'settle_round' AND round_id = %s",
                      (round_id,)).fetchone()[0] == 1
    kinds = [k for (k,) in db.execute("SELECT kind FROM audit_log WHERE round_id = %s ORDER BY seq", (round_id,))]
    assert kinds.count("wager") == len(transcript["seats"])
    assert kinds.count("decision") == len(transcript["actions"])
    assert kinds.count("card_dealt") == len(transcript_back["cards"])
    assert kinds[-1] == "round_completed"

    # Once the settlement worker has done its part, GET shows each seat's money.
    db.execute("UPDATE rounds SET status = 'settled', settled_at = now() WHERE round_id = %s", (round_id,))
    settled = ok(terminal.get(f"/v1/rounds/{round_id}"), 200)
    assert {s["seat"]: (s["staked"], s["returned"], s["net"]) for s in settled["settlement"]["seats"]} == want
