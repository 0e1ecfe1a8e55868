"""The console's accounting pages: a supervisor counts a tray and asks for a fill at the table's chips
page, the cage issues it on its page, the supervisor receives it, a buy-in is recorded, two counters
count the box on the count page, and the statement page shows the table with its CSV; every mistake
is a 422 with its message at the field."""
from __future__ import annotations

import csv
import io
import re

import pytest

from tests.support.api_client import ok

pytestmark = pytest.mark.integration


def _text(response) -> str:
    return response.get_data(as_text=True)


def _serials(html: str) -> list[str]:
    return re.findall(r'data-serial="([TFC]-\d+)"', html)


def test_a_table_day_through_the_console(new_table, signed_in, dealer_at):
    table_id, terminal = new_table(shoe=None)
    supervisor, cage = signed_in("supervisor"), signed_in("cage")
    chips = f"/console/tables/{table_id}/chips"
    page = supervisor.get(chips)
    assert page.status_code == 200 and 'name="chips.2500"' in _text(page)

    counted = supervisor.post(f"{chips}/tray", {"kind": "opener", "chips.2500": "40", "chips.10000": "10"})
    assert counted.status_code == 303
    opener = _serials(_text(supervisor.get(chips)))[0]
    ok(terminal.post(f"/v1/slips/{opener}/sign", {}), 200)     # the dealer's signature, from the table

    asked = supervisor.post(f"{chips}/request", {"kind": "fill", "chips.10000": "5"})
    assert asked.status_code == 303
    fill = _serials(_text(supervisor.get(chips)))[-1]
    queue = cage.get("/console/cage")
    assert queue.status_code == 200 and f'data-serial="{fill}"' in _text(queue)
    assert cage.post("/console/cage/issue", {"serial": fill}).status_code == 303
    again = cage.post("/console/cage/issue", {"serial": fill})
    assert again.status_code == 409 and "issued already" in _text(again)
    ok(terminal.post(f"/v1/slips/{fill}/sign", {}), 200)
    assert supervisor.post(f"{chips}/sign", {"serial": fill}).status_code == 303
    assert 'data-status="received"' in _text(supervisor.get(chips))

    assert supervisor.post(f"/console/tables/{table_id}/buy-ins", {"seat": "2", "amount": "250",
                                                                   "method": "cash"}).status_code == 303
    assert supervisor.post(f"{chips}/tray", {"kind": "closer", "chips.2500": "30", "chips.10000": "15"}
                           ).status_code == 303

    day = ok(terminal.get(f"/v1/tables/{table_id}/slips"), 200)["gaming_day"]
    first, second = signed_in("count"), signed_in("count")
    box = first.get(f"/console/count?gaming_day={day}")
    assert box.status_code == 200 and f'data-table="{table_id}"' in _text(box)
    assert first.post("/console/count", {"table_id": table_id, "gaming_day": day, "cash": "250",
                                         "markers": "0"}).status_code == 303
    shown = _text(second.get(f"/console/count?gaming_day={day}"))
    assert "waits for a second count" in shown and "$250.00" not in shown   # the second counter counts blind
    assert second.post("/console/count", {"table_id": table_id, "gaming_day": day, "cash": "250.00",
                                          "markers": ""}).status_code == 303

    compliance = signed_in("compliance")
    statement = compliance.get(f"/console/statement?gaming_day={day}")
    assert statement.status_code == 200
    row = re.search(rf'<tr data-table="{table_id}" data-flagged="(\w+)"(.*?)</tr>', _text(statement), re.S)
    # win = 25,000 + 0 - 50,000 + (225,000 - 200,000) = 0; no rounds: nothing flagged
    assert row and row.group(1) == "no" and 'data-win="0"' in row.group(2)
    text = compliance.get(f"/console/statement.csv?gaming_day={day}").get_data(as_text=True)
    line = next(r for r in csv.DictReader(io.StringIO(text)) if r["table_id"] == table_id and r["shift"] == "day")
    assert (line["opener"], line["closer"], line["fills"], line["drop"], line["win"]) == (
        "200000", "225000", "50000", "25000", "0")
    assert compliance.post("/console/statement/issue", {"gaming_day": day}).status_code == 303
    assert "Last issued by" in _text(compliance.get(f"/console/statement?gaming_day={day}"))


def test_mistakes_are_shown_at_their_fields(new_table, signed_in):
    table_id, _ = new_table(shoe=None)
    supervisor = signed_in("supervisor")
    chips = f"/console/tables/{table_id}/chips"
    bad = supervisor.post(f"{chips}/tray", {"kind": "opener", "chips.2500": "four"})
    assert bad.status_code == 422 and "a whole number of chips" in _text(bad)
    early = supervisor.post(f"{chips}/tray", {"kind": "closer", "chips.2500": "4"})
    assert early.status_code == 409 and "opener comes first" in _text(early)
    empty = supervisor.post(f"{chips}/request", {"kind": "fill"})
    assert empty.status_code == 422 and "count at least one chip" in _text(empty)
    seat = supervisor.post(f"/console/tables/{table_id}/buy-ins", {"seat": "12", "amount": "10"})
    assert seat.status_code == 409 and "a seat of this table" in _text(seat)
    amount = supervisor.post(f"/console/tables/{table_id}/buy-ins", {"seat": "1", "amount": "ten"})
    assert amount.status_code == 422 and "write dollars" in _text(amount)
    supervisor.post(f"{chips}/request", {"kind": "fill", "chips.10000": "1"})
    fill = _serials(_text(supervisor.get(chips)))[-1]
    reason = supervisor.post(f"{chips}/void", {"serial": fill, "reason": ""})
    assert reason.status_code == 422 and "give a reason" in _text(reason)
    counter = signed_in("count")
    cash = counter.post("/console/count", {"table_id": table_id, "gaming_day": "2000-01-01", "cash": "1,00"})
    assert cash.status_code == 422 and "write dollars" in _text(cash)


def test_a_void_is_asked_at_the_table_and_confirmed_at_the_cage(new_table, signed_in):
    table_id, _ = new_table(shoe=None)
    supervisor, cage = signed_in("supervisor"), signed_in("cage")
    chips = f"/console/tables/{table_id}/chips"
    supervisor.post(f"{chips}/request", {"kind": "credit", "chips.50000": "1"})
    credit = _serials(_text(supervisor.get(chips)))[-1]
    assert supervisor.post(f"{chips}/void", {"serial": credit, "reason": "the chips stayed"}).status_code == 303
    same = supervisor.post(f"{chips}/void", {"serial": credit, "reason": "again"})
    assert same.status_code == 403
    assert cage.post("/console/cage/void", {"serial": credit, "reason": "agreed"}).status_code == 303
    assert 'data-status="voided"' in _text(supervisor.get(chips))
