"""The console's words and limits in a browser, as each role meets them: a report's range longer than
a leap year refused at its field, downloads named by their period, a draft that changes nothing
refused as no change, the player's edge flagged (asking for a check on a draft only), the
authenticator's QR code beside its secret, and each insurance offer naming its seat."""
from __future__ import annotations

import re

import segno
from playwright.sync_api import Page, expect

from tests.support.scripted_rounds import play

from .console import sign_in, visit

STANDARD = "canberra-standard"
# A paytable no other browser test plays or drafts: approving a version of it changes no other test's table.
SIDE_BETS = "canberra-21plus3"
MEASURING = 120_000     # the worker's exact analysis of a paytable not analysed before, on a busy machine
# Seats 1 (8H 8D) and 2 (5C 9D) against the dealer's ace: both may insure before anyone plays.
TWO_SEATS = [{"seat": 1, "wager": 1000}, {"seat": 2, "wager": 2000}]
TO_INSURANCE = ["8H", "5C", "AS", "8D", "9D"]


def field_error(page: Page, input_id: str):
    """The message shown in the form field that holds the input."""
    return page.locator(".field", has=page.locator(f"#{input_id}")).locator(".field-error")


def show_range(page: Page, first: str, last: str) -> None:
    page.get_by_label("Period", exact=True).select_option("range")
    page.get_by_label(re.compile(r"^From")).fill(first)
    page.get_by_label(re.compile(r"^To")).fill(last)
    page.get_by_role("button", name="Show").click()


def test_a_report_range_longer_than_a_leap_year_is_refused_at_its_field(page, people):
    """367 gaming days are refused with the cap stated beside the range's last day; 366 are shown."""
    sign_in(page, people["compliance"])
    visit(page, "/console/reports")
    show_range(page, "2024-01-01", "2025-01-01")
    expect(field_error(page, "report-to")).to_have_text(
        "A range covers at most 366 gaming days, and this one has 367: choose a shorter one "
        "(a year to date covers its year).")
    expect(page.locator("table.report")).to_have_count(0)
    show_range(page, "2024-01-01", "2024-12-31")
    expect(page.locator("table.report")).to_be_visible()
    expect(page.locator(".field-error")).to_have_count(0)


def test_the_audit_export_and_the_report_csv_are_named_by_their_period(page, people):
    """The files downloaded carry the gaming day or the range they cover in their names."""
    sign_in(page, people["compliance"])
    visit(page, "/console/audit")
    export = page.locator("#export")
    export.get_by_label("From gaming day").fill("2026-11-28")
    export.get_by_label("To gaming day").fill("2026-11-28")
    export.get_by_label("Format").select_option("jsonl")
    with page.expect_download() as audit:
        export.get_by_role("button", name="Export").click()
    assert audit.value.suggested_filename == "audit-2026-11-28.jsonl"

    visit(page, "/console/reports")
    show_range(page, "2026-11-01", "2026-11-28")
    with page.expect_download() as report:
        page.get_by_role("link", name="Download CSV").click()
    assert report.value.suggested_filename == "tables-range-2026-11-01-2026-11-28.csv"


def test_a_draft_identical_to_the_approved_version_is_refused_as_no_change(page, people, db):
    """Submitting the editor's text untouched is refused as no change, and no draft is made."""
    drafts = "SELECT count(*) FROM paytable_versions WHERE name = %s"
    before = db.execute(drafts, (STANDARD,)).fetchone()[0]
    sign_in(page, people["operator"])
    visit(page, "/console/paytables")
    page.locator(f"#paytable-{STANDARD}").get_by_role("link", name="Draft the next version").click()
    page.get_by_label("Reason for the change").fill("the same again")
    page.get_by_role("button", name="Submit the draft").click()
    expect(page.locator('.field-error[data-field="yaml"]')).to_have_text(re.compile(
        r"^No change: this says what version \d+, the latest approved version, says\. "
        r"Change a line before submitting a draft\.$"))
    expect(page).to_have_url(re.compile(rf"/console/paytables/{STANDARD}/draft$"))
    assert db.execute(drafts, (STANDARD,)).fetchone()[0] == before


def test_the_players_edge_asks_for_a_check_on_a_draft_and_is_flagged_once_approved(new_page, make_person,
                                                                                  new_table):
    """A draft giving the player the edge asks for a check; approved, it and its table are flagged."""
    author, approver = make_person("operator"), make_person("operator")
    table_id, _ = new_table(shoe=None, paytable=SIDE_BETS)
    page = sign_in(new_page(), author)
    visit(page, f"/console/paytables/{SIDE_BETS}/draft")
    text = page.locator("textarea#yaml").input_value()
    richer, count = re.subn(r"""678_mixed: ["']?\d+:\d+["']?""", '678_mixed: "2:1"', text, count=1)
    assert count == 1, text
    page.locator("textarea#yaml").fill(richer)
    page.get_by_label("Reason for the change").fill("6-7-8 mixed pays 2:1 for the summer promotion")
    page.get_by_role("button", name="Submit the draft").click()
    expect(page.locator("h1 [data-status]")).to_have_text("draft")
    number = int(re.search(r"/(\d+)$", page.url).group(1))
    flag = page.locator("#house-edge [data-player-edge]")
    expect(flag).to_contain_text("Check that this is meant before it is approved.", timeout=MEASURING)

    second = sign_in(new_page(), approver)
    visit(second, f"/console/paytables/{SIDE_BETS}/{number}")
    second.locator("#decision").get_by_label("Reason").fill("the promotion's terms, checked")
    second.get_by_role("button", name="Approve").click()
    second.locator("#decision").get_by_label("Your password").fill(approver.password)
    second.get_by_role("button", name="Approve").click()
    expect(second.locator("h1 [data-status]")).to_have_text("approved")
    approved = second.locator("#house-edge [data-player-edge]")
    expect(approved).to_contain_text("It is approved")
    expect(approved).not_to_contain_text("Check that this is meant")
    visit(second, "/console/paytables")
    expect(second.locator(f'#paytable-{SIDE_BETS} tr[data-version="{number}"] [data-player-edge]')).to_be_visible()

    visit(second, f"/console/tables/{table_id}")
    second.get_by_label("Approved version for the next round").select_option(str(number))
    second.locator("#assign-reason").fill("summer promotion starts")
    second.get_by_role("button", name="Assign from the next round").click()
    expect(second.locator(f'section.paytable [data-player-edge="{number}"]')).to_contain_text(
        "gives the player the edge")


def test_enrolling_an_authenticator_shows_a_qr_code_drawn_by_the_console_beside_the_secret(page, make_person):
    """The account page draws the enrolment link as a QR code, in the page, next to the secret."""
    sign_in(page, make_person("operator"))
    visit(page, "/console/account")
    qr = page.get_by_role("img", name=re.compile(r"^QR code of the enrolment link"))
    expect(qr).to_be_visible()
    assert qr.evaluate("image => image.complete && image.naturalWidth > 0"), "the browser drew it"
    card = page.locator("section.card", has=qr)
    expect(card.locator("#totp-secret")).to_have_text(re.compile(r"^[A-Z2-7]{16,}$"))
    link = card.locator("#totp-uri").inner_text()
    assert link.startswith("otpauth://totp/")
    assert qr.get_attribute("src") == segno.make(link, error="m").svg_data_uri(
        scale=5, border=4, dark="#000", light="#fff"), "the code of the very link shown beside it, made here"


def test_each_insurance_offer_on_a_table_page_names_its_seat(page, people, new_table):
    """With the dealer's ace before two seats, the round awaits insurance for seat 1 and for seat 2."""
    table_id, terminal = new_table()
    play(terminal, table_id, TWO_SEATS, TO_INSURANCE)
    sign_in(page, people["supervisor"])
    visit(page, f"/console/tables/{table_id}")
    offers = page.locator("#table-live .awaits .decision").filter(has_text=re.compile(r"^insurance"))
    expect(offers).to_have_count(2)
    expect(offers).to_contain_text(["insurance for seat 1", "insurance for seat 2"])
