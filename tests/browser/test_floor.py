"""The pit live in a browser: a round a terminal plays through the REST API appears on the floor
and on its table's page card by card with no reload, and a supervisor voids an open round, the
refund then in the ledger."""
from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.support.api_client import ok

from .console import shot, sign_in, visit

# Seat 1 (1000) is dealt 9H and 8C against the dealer's 7D, stands on 17; the dealer draws KD (17): a push.
WAGERS = [{"seat": 1, "wager": 1000}]
FIRST_CARDS = ["9H", "7D", "8C"]
STAND = {"seat": 1, "hand": 0, "action": "stand"}
DEALERS_LAST = "KD"


def main_frame_loads(page: Page) -> list[str]:
    """Every document the page's main frame loads from now on (htmx swaps load none)."""
    loads: list[str] = []
    page.on("framenavigated", lambda frame: loads.append(frame.url) if frame == page.main_frame else None)
    return loads


def dealt(section, card: str):
    return section.locator(f'.seats [data-card="{card}"], .house-hand [data-card="{card}"]')


def test_a_round_appears_live_on_the_floor_and_its_table_card_by_card(new_page, people, new_table, db):
    table_id, terminal = new_table()
    floor = sign_in(new_page(), people["supervisor"])
    visit(floor, "/console/floor")
    row = floor.locator(f"#floor-{table_id}")
    expect(row).to_contain_text("no round open")
    table = floor.context.new_page()
    visit(table, f"/console/tables/{table_id}")
    live = table.locator("#table-live")
    expect(live).to_contain_text("No round open")
    reloads = main_frame_loads(floor), main_frame_loads(table)

    state = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": WAGERS}), 201)
    round_id = state["round_id"]
    expect(live).to_contain_text(round_id)
    expect(row).to_contain_text("card to seat 1, hand 1")
    for number, card in enumerate(FIRST_CARDS, start=1):
        ok(terminal.post(f"/v1/rounds/{round_id}/cards", {"card": card}), 200)
        expect(dealt(live, card)).to_be_visible()
        expect(row).to_contain_text(f"{number} card{'' if number == 1 else 's'} dealt")
    expect(live.locator(".awaits")).to_contain_text("Awaiting a decision from seat 1, hand 1")
    expect(row).to_contain_text("decision: seat 1, hand 1")
    shot(table, "table")
    shot(floor, "floor")

    ok(terminal.post(f"/v1/rounds/{round_id}/actions", STAND), 200)
    expect(live.locator(".awaits")).to_contain_text("Awaiting a card to dealer")
    ok(terminal.post(f"/v1/rounds/{round_id}/cards", {"card": DEALERS_LAST}), 200)
    # Complete, then settled by the worker: it leaves play and its money reaches the day's figures.
    expect(live).to_contain_text("No round open")
    expect(row).to_contain_text("no round open")
    last = live.locator(".last-rounds tbody tr").first
    expect(last).to_contain_text("settled")
    expect(last).to_contain_text("$10.00")
    expect(row.locator("td.num").nth(1)).to_have_text("$10.00")       # handle
    assert reloads == ([], []), "the pages updated themselves without loading again"


def test_a_supervisor_voids_an_open_round_and_the_refund_is_in_the_ledger(page, people, new_table, db):
    table_id, terminal = new_table()
    wagers = [{"seat": 1, "wager": 1000, "pair_bet": 500}, {"seat": 2, "wager": 2000}]
    state = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"wagers": wagers}), 201)
    for card in ("9H", "5C", "3D"):
        state = ok(terminal.post(f"/v1/rounds/{state['round_id']}/cards", {"card": card}), 200)
    round_id = state["round_id"]

    supervisor = people["supervisor"]
    sign_in(page, supervisor)
    visit(page, f"/console/tables/{table_id}")
    page.get_by_role("link", name=re.compile(r"void this round", re.I)).click()
    page.get_by_label(re.compile(r"reason", re.I)).fill("misdeal: two cards stuck together")
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_role("heading", name="Confirm the void")).to_be_visible()
    expect(page.locator("table tfoot")).to_contain_text("$35.00")
    shot(page, "table-void")
    assert db.execute("SELECT status FROM rounds WHERE round_id = %s", (round_id,)).fetchone()[0] == "open", \
        "nothing is voided before the confirmation"

    page.get_by_role("button", name="Void round now").click()
    expect(page.get_by_role("heading", name="Round voided")).to_be_visible()
    ledger = page.locator("table.ledger tbody")
    expect(ledger.locator("tr")).to_have_count(2)
    expect(ledger.locator("tr").nth(0).locator("th, td")).to_have_text(["1", "void_refund", "$15.00", "$15.00", "void"])
    expect(ledger.locator("tr").nth(1).locator("th, td")).to_have_text(["2", "void_refund", "$20.00", "$20.00", "void"])
    shot(page, "table-voided")

    rows = db.execute("SELECT seat, kind, stake, returned FROM ledger_entries WHERE round_id = %s ORDER BY seat",
                      (round_id,)).fetchall()
    assert rows == [(1, "void_refund", 1500, 1500), (2, "void_refund", 2000, 2000)]
    actor = db.execute("SELECT actor FROM audit_log WHERE kind = 'round_voided' AND round_id = %s",
                       (round_id,)).fetchone()[0]
    assert actor == f"staff:{supervisor.username}", "the person, not a key, is the audit actor"
    refused = terminal.post(f"/v1/rounds/{round_id}/cards", {"card": "2S"})
    assert refused.status == 409 and refused.body["code"] == "round_not_open"

    page.get_by_role("link", name=f"Back to table {table_id}").click()
    expect(page.locator("#table-live .last-rounds tbody tr").first).to_contain_text("void")
