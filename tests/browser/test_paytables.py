"""A paytable change under four eyes in a browser: one operator drafts it (a bad field shown at its
line, then fixed) and cannot approve it, its page shows its house edge once the stack's worker has
measured it, a second operator approves it, it is assigned to a table, and the next round a
terminal plays through the REST API pays under it."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from bench.processes import wait_for
from tests.support.api_client import ok
from tests.support.scripted_rounds import play_script

from .console import shot, sign_in, visit

NAME = "canberra-standard"
# Seat 1 (1000) is dealt AH and KS, a Pontoon, against the dealer's 9D 8C (17).
PONTOON = ["AH", "9D", "KS", "8C"]
MEASURING = 120_000     # the worker's exact analysis of a paytable not analysed before, on a busy machine


def line_of(text: str, starts: str) -> int:
    """The 1-based number of the first line of `text` that starts (after indentation) with `starts`."""
    return next(number for number, line in enumerate(text.splitlines(), start=1) if line.strip().startswith(starts))


def draft_with_a_bad_field(page) -> tuple[int, str]:
    """Opens the draft editor from the paytables page and submits a draft whose pair odds are not
    odds; returns the version's number and the editor's text fixed."""
    visit(page, "/console/paytables", "paytables")
    page.locator(f"#paytable-{NAME}").get_by_role("link", name="Draft the next version").click()
    heading = page.get_by_role("heading", name=re.compile(rf"Draft version \d+ of {NAME}"))
    expect(heading).to_be_visible()
    number = int(re.search(r"Draft version (\d+)", heading.inner_text()).group(1))
    prefilled = page.locator("textarea#yaml").input_value()
    assert re.search(r'^\s*pontoon: "3:2"', prefilled, re.M), prefilled
    richer = re.sub(r'^(\s*)pontoon: "3:2"', r'\1pontoon: "2:1"', prefilled, count=1, flags=re.M)
    broken = re.sub(r'^(\s*)pair: "11:1"', r'\1pair: "eleven to one"', richer, count=1, flags=re.M)
    assert broken != richer
    page.locator("textarea#yaml").fill(broken)
    page.get_by_label("Reason for the change").fill("Pontoon pays 2:1 for the summer promotion")
    page.get_by_role("button", name="Submit the draft").click()

    bad_line = line_of(broken, 'pair: "eleven')
    at_line = page.locator(f'li[data-line="{bad_line}"]')
    expect(at_line).to_have_class(re.compile(r"has-error"))
    expect(at_line.locator(".field-error")).to_contain_text("pair")
    expect(page.locator("li.has-error[data-line]")).to_have_count(1)      # the one bad field, nothing else
    shot(page, "paytable-draft-errors")
    return number, richer


def test_a_draft_approved_by_a_second_operator_pays_from_the_next_round(new_page, make_person, new_table, db):
    table_id, terminal = new_table(shoe=None)
    author, approver = make_person("operator", "Olive Author"), make_person("operator", "Otto Approver")
    page = sign_in(new_page(), author)
    number, fixed = draft_with_a_bad_field(page)

    page.locator("textarea#yaml").fill(fixed)
    page.get_by_role("button", name="Submit the draft").click()
    expect(page).to_have_url(re.compile(rf"/console/paytables/{NAME}/{number}$"))
    expect(page.locator("h1 [data-status]")).to_have_text("draft")
    expect(page.locator("[data-own-draft]")).to_be_visible()
    expect(page.get_by_role("button", name="Approve")).to_have_count(0)
    expect(page.locator("#difference [data-diff=added]").filter(has_text='pontoon: "2:1"')).to_have_count(1)
    expect(page.locator("#difference [data-diff=removed]").filter(has_text='pontoon: "3:2"')).to_have_count(1)
    # The page, shown while the worker measures it or after, asks after the evaluation until its figures are in.
    expect(page.locator("#house-edge [data-evaluation]")).to_have_count(1)
    expect(page.locator("#house-edge [data-evaluation=done] [data-house-edge]")).to_be_visible(timeout=MEASURING)
    assert db.execute("SELECT status, attempts FROM paytable_evaluations WHERE paytable = %s AND version = %s",
                      (NAME, number)).fetchone() == ("done", 1)
    shot(page, "paytable-draft")

    # The button is absent, and the server refuses the author's approval anyway.
    token = page.locator("#decision input[name=csrf_token]").input_value()
    refused = page.request.post(f"/console/paytables/{NAME}/{number}/decision",
                                form={"csrf_token": token, "decision": "approve", "reason": "my own",
                                      "password": author.password})
    assert refused.status == 403, refused.status
    assert db.execute("SELECT status FROM paytable_versions WHERE name = %s AND version = %s",
                      (NAME, number)).fetchone()[0] == "draft"

    second = sign_in(new_page(), approver)
    visit(second, f"/console/paytables/{NAME}/{number}")
    second.locator("#decision").get_by_label("Reason").fill("checked against the promotion's terms")
    # Approving asks for the approver's password again.
    second.get_by_role("button", name="Approve").click()
    expect(second.locator('#decision [data-field="password"]')).to_be_visible()
    second.locator("#decision").get_by_label("Your password").fill(approver.password)
    second.get_by_role("button", name="Approve").click()
    expect(second.locator("h1 [data-status]")).to_have_text("approved", timeout=MEASURING)
    expect(second.locator(f'[data-approver="staff:{approver.username}"]')).to_have_text(approver.display_name)
    expect(second.locator(f'[data-author="staff:{author.username}"]')).to_have_text(author.display_name)
    shot(second, "paytable-version")

    visit(second, f"/console/tables/{table_id}")
    second.get_by_label("Approved version for the next round").select_option(str(number))
    second.locator("#assign-reason").fill("summer promotion starts")
    second.get_by_role("button", name="Assign from the next round").click()
    expect(second.locator("section.paytable")).to_contain_text(f"version {number} applies from the next round")

    state = play_script(terminal, table_id, [{"seat": 1, "wager": 1000}], PONTOON)
    assert state["paytable"] == f"{NAME}@{number}"
    wait_for(lambda: db.execute("SELECT status FROM rounds WHERE round_id = %s",
                                (state["round_id"],)).fetchone()[0] == "settled", 60, "the round to be settled")
    [(returned,)] = db.execute("SELECT returned FROM ledger_entries WHERE round_id = %s AND kind = 'main'",
                               (state["round_id"],)).fetchall()
    assert returned == 1000 + 2000, "a Pontoon pays 2:1 under the new version"
    visit(second, f"/console/tables/{table_id}")
    last = second.locator("#table-live .last-rounds tbody tr").first
    expect(last.locator("td.num").nth(1)).to_have_text("$30.00")
    assert ok(terminal.get(f"/v1/tables/{table_id}/paytable"), 200)["version"] == number
