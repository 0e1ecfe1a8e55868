"""A player-banked table in a browser: the pit sees the banker as the banker, chairs from 1, buys
and twists, split hands on their hands and the game's own figures (no house drop, win or hold);
compliance sees the bank and the kitty in recall and the table apart in the reports; and two
operators change the table's rules between shoes, four eyes."""
from __future__ import annotations

import uuid

from playwright.sync_api import expect

from tests.support.api_client import ok
from tests.support.scripted_rounds import play_shoot_to_the_bankers_turn

from .console import shot, sign_in, visit


def _shoot_table(admin_api, as_key, make_key) -> tuple[str, object]:
    table_id = f"BP-{uuid.uuid4().hex[:6].upper()}"
    ok(admin_api.post("/v1/tables", {"table_id": table_id, "rules": "shoot-pontoon",
                                     "limits": {"stake": {"min": 300, "max": 2000}}}), 201)
    terminal = as_key(make_key("terminal", table_id))
    ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": "physical"}), 201)
    ok(terminal.post(f"/v1/tables/{table_id}/kitty", {"action": "put_up", "amount": 1000}), 201)
    return table_id, terminal


def test_the_pit_sees_the_banker_the_bank_and_the_games_own_figures(new_page, people, admin_api, as_key, make_key):
    table_id, terminal = _shoot_table(admin_api, as_key, make_key)
    page = sign_in(new_page(), people["supervisor"])
    visit(page, f"/console/tables/{table_id}")
    live = page.locator("#table-live")
    limits = page.locator("section.limits")
    expect(limits.locator("dt")).to_have_text(["stake", "buy", "shoot", "kitty"])
    expect(limits.locator("dd")).to_have_text(["$3.00 to $20.00", "$3.00 to $40.00", "$1.00 to $1,000.00",
                                               "$5.00 to $1,000.00"])
    expect(live.locator("[data-bank]")).to_contain_text("chair 1 of 10 holds the bank")

    round_id = play_shoot_to_the_bankers_turn(terminal, table_id)
    expect(live.locator(".awaits")).to_contain_text("Awaiting a decision from the banker: draw, stay.")
    expect(live.locator('.seats tr[data-seat="2"] [data-draws]')).to_have_text("bought $3.00, twisted ×2")
    expect(live.locator('.seats tr[data-seat="1"][data-hand="0"] [data-draws]')).to_have_text("bought $5.00")
    expect(live.locator(".decisions")).not_to_contain_text("Seat 0")

    ok(terminal.post(f"/v1/rounds/{round_id}/actions", {"seat": 0, "action": "stay"}), 200)
    last = live.locator(f'.last-rounds tr[data-round="{round_id}"]')
    expect(last.locator('[data-banker-net="-2700"]')).to_have_text("-$27.00")   # once settled
    expect(last.locator('[data-who="seat 1 hand 0"] [data-card]')).to_have_count(3)
    expect(last.locator('[data-who="seat 1 hand 1"] [data-card]')).to_have_count(2)
    expect(last).to_contain_text("$10.00 → $8.00")
    expect(live.locator('[data-figure="stakes"]')).to_contain_text("$21.00")
    expect(live.locator(".figures")).not_to_contain_text("Handle")
    expect(live.locator(".figures")).not_to_contain_text("Game win")

    visit(page, f"/console/tables/{table_id}", "table-player-banked")   # the guide's picture
    visit(page, "/console/floor")
    row = page.locator(f"#floor-{table_id}")
    expect(row).to_contain_text("stakes and buys $21.00")
    expect(row).to_contain_text("bank at chair 1, kitty $8.00")
    expect(page.locator('tfoot tr[data-totals="house"]')).to_contain_text("House-banked tables")
    expect(page.locator('tfoot tr[data-totals="player-banked"]')).to_contain_text("Player-banked tables")


def test_compliance_sees_the_bank_in_recall_and_the_table_apart_in_the_reports(new_page, people, admin_api, as_key,
                                                                                  make_key):
    table_id, terminal = _shoot_table(admin_api, as_key, make_key)
    round_id = play_shoot_to_the_bankers_turn(terminal, table_id)
    ok(terminal.post(f"/v1/rounds/{round_id}/actions", {"seat": 0, "action": "stay"}), 200)
    page = sign_in(new_page(), people["compliance"])
    visit(page, f"/console/recall?table={table_id}")
    recalled = page.locator(f"#round-{round_id}")
    expect(recalled).to_have_attribute("data-status", "settled")   # the worker settles it
    bank = recalled.locator("[data-round-bank]")
    expect(bank).to_contain_text("chair 1 of 10")
    expect(bank).to_contain_text("$10.00 before, $8.00 after")
    expect(bank).to_contain_text("stayed with chair 1")
    expect(recalled.locator('[data-party="banker"]').first).to_be_visible()
    expect(recalled.locator('[data-party="kitty"]')).to_have_count(1)
    expect(recalled).not_to_contain_text("players net")
    expect(recalled.locator(".events")).to_contain_text("the banker: stay")

    shot(page, "recall-player-banked")   # the guide's picture
    visit(page, f"/console/reports?table={table_id}")
    banked = page.locator("table.player-banked")
    expect(banked.locator(f'tr[data-table="{table_id}"] [data-stakes="2100"]')).to_have_text("$21.00")
    expect(banked.locator(f'tr[data-table="{table_id}"] [data-banker-net="-2700"]')).to_have_text("-$27.00")


def test_two_operators_change_the_tables_rules_between_shoes(new_page, make_person, admin_api, as_key, make_key):
    table_id, terminal = _shoot_table(admin_api, as_key, make_key)
    first, second = make_person("operator"), make_person("operator")
    proposer = sign_in(new_page(), first)
    visit(proposer, f"/console/tables/{table_id}")
    rules = proposer.locator("#table-rules")
    rules.get_by_label("Rules for the next shoe").select_option("british-royal-pontoon")
    rules.get_by_label("Reason").fill("royal Pontoon nights")
    rules.get_by_role("button", name="Propose").click()
    expect(proposer.locator(".notice, .flash").first).to_contain_text("is proposed")
    waiting = proposer.locator("#table-rules [data-waiting-change]")
    expect(waiting).to_have_attribute("data-status", "proposed")
    expect(waiting.locator('[data-knob="royal_pontoon"]')).to_be_visible()
    expect(waiting).to_contain_text("Another operator must approve your proposal")
    expect(waiting.get_by_role("button", name="Approve for the next shoe")).to_have_count(0)

    approver = sign_in(new_page(), second)
    visit(approver, f"/console/tables/{table_id}")
    box = approver.locator("#table-rules [data-waiting-change]")
    box.get_by_label("Reason for the decision").fill("checked the file")
    box.get_by_role("button", name="Approve for the next shoe").click()
    expect(approver.locator("#table-rules [data-next-shoe-rules]")).to_have_text("british-royal-pontoon")
    expect(approver.locator("#table-rules")).to_contain_text("The table plays shoot-pontoon@1")

    ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": "physical"}), 201)
    visit(approver, f"/console/tables/{table_id}")
    expect(approver.locator("#table-rules")).to_contain_text("The table plays british-royal-pontoon@1")
    expect(approver.locator('#table-rules tr[data-status="applied"]')).to_have_count(1)
