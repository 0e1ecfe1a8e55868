"""Table games accounting over the REST API: a tray's count signed by the terminal for its dealer and
by a supervisor's key, a fill through the cage, a void by two keys and its reissue, buy-ins, a count
by two counters, the statement as JSON and CSV, and each refusal's status naming its field."""
from __future__ import annotations

import csv
import io

import pytest

from tests.support.api_client import ok

pytestmark = pytest.mark.integration


def test_a_tray_count_and_a_fill_go_through_every_signature(new_table, key_of):
    table_id, terminal = new_table()
    supervisor, cage = key_of("supervisor"), key_of("cage")
    opener = ok(supervisor.post(f"/v1/tables/{table_id}/tray-counts",
                                {"kind": "opener", "chips": {"2500": 40, "10000": 10}}), 201)
    assert (opener["total"], opener["status"], opener["awaiting"]) == (200000, "awaiting_signature", ["dealer"])
    signed = ok(terminal.post(f"/v1/slips/{opener['serial']}/sign", {}), 200)
    assert signed["status"] == "signed"
    assert [s["capacity"] for s in signed["signatures"]] == ["supervisor", "dealer"]

    fill = ok(supervisor.post(f"/v1/tables/{table_id}/fills", {"chips": {"10000": 5}}), 201)
    assert fill["serial"].startswith("F-") and fill["status"] == "requested"
    queue = ok(cage.get("/v1/slips?awaiting=cage"), 200)["slips"]
    assert fill["serial"] in [slip["serial"] for slip in queue]
    early = terminal.post(f"/v1/slips/{fill['serial']}/sign", {})
    assert early.status == 409 and early.body["code"] == "not_issued"
    ok(cage.post(f"/v1/slips/{fill['serial']}/issue", {}), 200)
    ok(terminal.post(f"/v1/slips/{fill['serial']}/sign", {}), 200)
    received = ok(supervisor.post(f"/v1/slips/{fill['serial']}/sign", {}), 200)
    assert received["status"] == "received" and received["awaiting"] == []
    listed = ok(terminal.get(f"/v1/tables/{table_id}/slips"), 200)["slips"]
    assert [slip["serial"] for slip in listed] == [opener["serial"], fill["serial"]]


def test_a_terminal_signs_only_its_own_tables_slips(new_table, key_of):
    table_a, _ = new_table(shoe=None)
    _, other_terminal = new_table(shoe=None)
    slip = ok(key_of("supervisor").post(f"/v1/tables/{table_a}/tray-counts",
                                        {"kind": "opener", "chips": {"2500": 4}}), 201)
    refused = other_terminal.post(f"/v1/slips/{slip['serial']}/sign", {})
    assert refused.status == 403 and refused.body["code"] == "wrong_table"


def test_a_void_takes_two_keys_and_the_slip_is_written_again(new_table, key_of):
    table_id, _ = new_table(shoe=None)
    supervisor, cage = key_of("supervisor"), key_of("cage")
    fill = ok(supervisor.post(f"/v1/tables/{table_id}/fills", {"chips": {"10000": 5}}), 201)
    asked = ok(supervisor.post(f"/v1/slips/{fill['serial']}/void", {"reason": "wrong table"}), 200)
    assert asked["void_asked"] == "wrong table" and asked["status"] == "requested"
    same = supervisor.post(f"/v1/slips/{fill['serial']}/void", {"reason": "wrong table"})
    assert same.status == 403 and same.body["code"] == "same_person"
    voided = ok(cage.post(f"/v1/slips/{fill['serial']}/void", {"reason": "agreed"}), 200)
    assert voided["status"] == "voided"
    again = ok(supervisor.post(f"/v1/tables/{table_id}/fills", {"chips": {"10000": 4}, "replaces": fill["serial"]}),
               201)
    assert again["replaces"] == fill["serial"]
    assert ok(cage.get(f"/v1/slips/{fill['serial']}"), 200)["replaced_by"] == again["serial"]


def test_bad_bodies_are_422_and_the_tables_refusals_409_naming_the_field(new_table, key_of):
    table_id, terminal = new_table(shoe=None)
    supervisor = key_of("supervisor")
    chips = supervisor.post(f"/v1/tables/{table_id}/tray-counts", {"kind": "opener", "chips": {"300": -1}})
    assert chips.status == 422 and "300" in chips.body["errors"]["chips"]
    stranger = supervisor.post(f"/v1/tables/{table_id}/tray-counts", {"kind": "opener", "chips": {"300": 1}})
    assert stranger.status == 409 and stranger.body["code"] == "not_a_chip"
    assert "300" in stranger.body["errors"]["chips"]
    kind = supervisor.post(f"/v1/tables/{table_id}/tray-counts", {"kind": "lunch", "chips": {"2500": 1}})
    assert kind.status == 422 and "kind" in kind.body["errors"]
    seat = terminal.post(f"/v1/tables/{table_id}/buy-ins", {"seat": 17, "amount": 500})
    assert seat.status == 422 and "seat" in seat.body["errors"]
    beyond = terminal.post(f"/v1/tables/{table_id}/buy-ins", {"seat": 11, "amount": 500})
    assert beyond.status == 409 and beyond.body["code"] == "no_such_seat" and "seat" in beyond.body["errors"]
    amount = terminal.post(f"/v1/tables/{table_id}/buy-ins", {"seat": 1, "amount": "500"})
    assert amount.status == 422 and "amount" in amount.body["errors"]
    day = key_of("count").post(f"/v1/tables/{table_id}/drop-counts", {"cash": 1, "markers": 0})
    assert day.status == 422 and "gaming_day" in day.body["errors"]
    missing = supervisor.get("/v1/slips/F-999999")
    assert missing.status == 404


def test_buy_ins_and_a_count_by_two_counters(new_table, key_of):
    table_id, terminal = new_table(shoe=None)
    supervisor = key_of("supervisor")
    ok(terminal.post(f"/v1/tables/{table_id}/buy-ins", {"seat": 2, "amount": 20000}), 201)
    marker = ok(supervisor.post(f"/v1/tables/{table_id}/buy-ins", {"seat": 3, "amount": 50000, "method": "marker"}),
                201)
    day = marker["gaming_day"]
    listed = ok(supervisor.get(f"/v1/tables/{table_id}/buy-ins?gaming_day={day}"), 200)["buy_ins"]
    assert [(b["seat"], b["amount"], b["method"]) for b in listed] == [(2, 20000, "cash"), (3, 50000, "marker")]
    first, second = key_of("count"), key_of("count")
    entered = ok(first.post(f"/v1/tables/{table_id}/drop-counts", {"gaming_day": day, "cash": 20000, "markers": 50000}),
                 201)
    assert entered["status"] == "awaiting_second_count" and entered["cash"] is None
    boxes = {box["table_id"]: box for box in ok(second.get(f"/v1/drop-counts?gaming_day={day}"), 200)["counts"]}
    assert boxes[table_id]["status"] == "awaiting_second_count" and boxes[table_id]["cash"] is None
    final = ok(second.post(f"/v1/tables/{table_id}/drop-counts", {"gaming_day": day, "cash": 20000, "markers": 50000}),
               201)
    assert (final["status"], final["drop"], final["outcome"]) == ("final", 70000, "agreed")
    closed = first.post(f"/v1/tables/{table_id}/drop-counts", {"gaming_day": day, "cash": 1, "markers": 0})
    assert closed.status == 409 and closed.body["code"] == "count_final"


def test_the_statement_as_json_and_csv(new_table, key_of):
    table_id, terminal = new_table(shoe=None)
    supervisor = key_of("supervisor")
    opener = ok(supervisor.post(f"/v1/tables/{table_id}/tray-counts", {"kind": "opener", "chips": {"2500": 40}}), 201)
    ok(terminal.post(f"/v1/tables/{table_id}/buy-ins", {"seat": 1, "amount": 5000}), 201)
    ok(supervisor.post(f"/v1/tables/{table_id}/tray-counts", {"kind": "closer", "chips": {"2500": 38}}), 201)
    day = opener["gaming_day"]
    for counter in (key_of("count"), key_of("count")):
        ok(counter.post(f"/v1/tables/{table_id}/drop-counts", {"gaming_day": day, "cash": 5000, "markers": 0}), 201)
    compliance = key_of("compliance")
    statement = ok(compliance.get(f"/v1/reports/table-games-statement?gaming_day={day}"), 200)
    table = next(t for t in statement["tables"] if t["table_id"] == table_id)
    # win = 5,000 + 0 - 0 + (95,000 - 100,000) = 0; no rounds: game win 0
    assert {k: table[k] for k in ("opener", "closer", "fills", "credits", "drop", "win", "hold_percent", "handle",
                                  "game_win", "variance", "flagged")} == {
        "opener": 100000, "closer": 95000, "fills": 0, "credits": 0, "drop": 5000, "win": 0, "hold_percent": 0.0,
        "handle": 0, "game_win": 0, "variance": 0, "flagged": False}
    assert any("dealer's signature" in reason for reason in table["reasons"])
    text = compliance.get(f"/v1/reports/table-games-statement?gaming_day={day}&format=csv").data.decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    day_row = next(row for row in rows if row["table_id"] == table_id and row["shift"] == "day")
    assert (day_row["win"], day_row["drop"], day_row["flagged"]) == ("0", "5000", "no")
    assert rows[-1]["table_id"] == "FLOOR"
    issued = ok(compliance.post("/v1/reports/table-games-statement", {"gaming_day": day}), 201)
    assert issued["issued"]["issued_by"]
