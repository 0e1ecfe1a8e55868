"""The tables' books in chromium against the live stack: a supervisor counts a table's tray and asks
for a fill on the table's chips page, the cage issues it on its page, two counters count the box on
the count page (the second blind to the first's figures), and the statement page shows the table
reconciled; each page is pictured for the docs."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.support.api_client import ok

from .console import shot, sign_in, visit


def test_the_cage_issues_a_fill_and_the_count_team_counts_the_box(new_page, people, make_person, new_table):
    table_id, terminal = new_table(shoe=None)
    supervisor = sign_in(new_page(), people["supervisor"])
    visit(supervisor, f"/console/tables/{table_id}")
    supervisor.locator("#table-chips").click()
    expect(supervisor.get_by_role("heading", level=1)).to_contain_text(f"Chips and slips at table {table_id}")
    tray = supervisor.locator("#tray-form")
    tray.get_by_label("Count", exact=True).select_option("opener")
    for field in tray.locator("input[name^='chips.']").all():
        field.fill("")
    tray.get_by_label("$100", exact=True).fill("20")                      # 200,000 cents
    tray.get_by_role("button", name="Write and sign the count").click()
    expect(supervisor.locator(".notice-success")).to_contain_text("the opener is written")
    opener = supervisor.locator("#slips tr[data-kind=opener]").get_attribute("data-serial")
    ok(terminal.post(f"/v1/slips/{opener}/sign", {}), 200)           # the dealer, from the table
    ok(terminal.post(f"/v1/tables/{table_id}/buy-ins", {"seat": 1, "amount": 10000}), 201)

    moves = supervisor.locator("#chips-form")
    moves.get_by_label("Slip", exact=True).select_option("fill")
    moves.get_by_label("$500", exact=True).fill("1")
    moves.get_by_role("button", name="Send to the cage").click()
    expect(supervisor.locator(".notice-success")).to_contain_text("waits for the cage")
    fill = supervisor.locator("#slips tr[data-kind=fill]").get_attribute("data-serial")

    cage = sign_in(new_page(), people["cage"])
    visit(cage, "/console/cage")
    waiting = cage.locator(f"#to-issue tr[data-serial='{fill}']")
    expect(waiting).to_contain_text(table_id)
    shot(cage, "cage")
    waiting.get_by_role("button", name=re.compile(r"^Issue")).click()
    expect(cage.locator(".notice-success")).to_contain_text(f"{fill} is issued")
    expect(cage.locator(f"#today tr[data-serial='{fill}'] [data-status]")).to_have_attribute("data-status", "issued")

    ok(terminal.post(f"/v1/slips/{fill}/sign", {}), 200)
    visit(supervisor, f"/console/tables/{table_id}/chips")
    supervisor.locator(f"#slips tr[data-serial='{fill}']").get_by_role("button", name="Received").click()
    expect(supervisor.locator(f"#slips tr[data-serial='{fill}'] [data-status]")).to_have_attribute(
        "data-status", "received")
    shot(supervisor, "table-chips")
    closer = supervisor.locator("#tray-form")
    closer.get_by_label("Count", exact=True).select_option("closer")
    for field in closer.locator("input[name^='chips.']").all():
        field.fill("")
    closer.get_by_label("$100", exact=True).fill("19")                  # 200,000 - 10,000 sold + 50,000 filled
    closer.get_by_label("$500", exact=True).fill("1")
    closer.get_by_role("button", name="Write and sign the count").click()
    expect(supervisor.locator(".notice-success")).to_contain_text("the closer is written")

    for number, counter in enumerate((people["count"], make_person("count"))):
        page = sign_in(new_page(), counter)
        visit(page, "/console/count")
        box = page.locator(f"#boxes tr[data-table='{table_id}']")
        if number:
            expect(box).to_have_attribute("data-status", "awaiting_second_count")
            expect(box.locator("td.num").first).to_have_text("—")         # the first count's figures stay hidden
        box.get_by_label("Cash").fill("100")
        box.get_by_label("Markers").fill("0")
        box.get_by_role("button", name=re.compile(r"Enter the")).click()
        expect(page.locator(".notice")).to_be_visible()
    expect(box).to_have_attribute("data-status", "final")
    shot(page, "count")

    compliance = sign_in(new_page(), people["compliance"])
    visit(compliance, "/console/statement")
    row = compliance.locator(f"#statement tr[data-table='{table_id}']").first
    # win = 10,000 + 0 - 50,000 + (240,000 - 200,000) = 0, as its (no) rounds won
    expect(row).to_have_attribute("data-flagged", "no")
    expect(row.locator("[data-win]")).to_have_attribute("data-win", "0")
    shot(compliance, "statement")
