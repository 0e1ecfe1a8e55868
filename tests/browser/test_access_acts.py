"""An admin's acts that cannot be undone, in a browser: revoking a key and deactivating an account
each ask for a reason on a page of their own before they act, the reason kept in the audit
record; the new-account form chooses no role; and text as long as the fields take (a key held by
a 128-character name, a 2,000-character reason) wraps instead of widening the page."""
from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .console import shot, sign_in, visit

LONGEST_REASON = "r" * 2000
LONGEST_HOLDER = "h" * 128
REPLACED = "the terminal at the table was replaced"


def page_width(page: Page) -> int:
    return page.evaluate("() => document.documentElement.scrollWidth")


def test_revoking_a_key_asks_for_a_reason_and_long_text_keeps_the_page_in_its_width(new_page, people, new_table,
                                                                                       db):
    table_id, _ = new_table(shoe=None)
    page = sign_in(new_page(), people["admin"])
    visit(page, "/console/access")
    viewport = page.viewport_size["width"]
    expect(page.locator("select#role")).to_have_value("")       # the new account's role: none chosen for you
    page.locator("#table_id").fill(table_id)
    page.locator("#key_name").fill(LONGEST_HOLDER + "h")
    page.get_by_role("button", name="Issue key").click()
    expect(page.locator("#name-error")).to_have_text("Too long: at most 128 characters, and this has 129.")
    page.locator("#key_name").fill(LONGEST_HOLDER)
    page.get_by_role("button", name="Issue key").click()
    expect(page.locator("#issued-secret")).to_be_visible()
    assert page_width(page) <= viewport, "a 128-character holder wraps"

    key_id = str(db.execute("SELECT key_id FROM api_keys WHERE table_id = %s ORDER BY created_at LIMIT 1",
                            (table_id,)).fetchone()[0])
    row = page.locator(f"#key-{key_id}")
    revoke = row.get_by_role("link", name="Revoke…")
    box = revoke.bounding_box()
    assert box is not None and box["x"] + box["width"] <= viewport, "the button stays within the page's width"
    revoke.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Revoke a key")
    page.get_by_role("button", name="Revoke the key").click()
    expect(page.locator("#reason-error")).to_contain_text("Say why")
    assert db.execute("SELECT revoked_at FROM api_keys WHERE key_id = %s", (key_id,)).fetchone()[0] is None
    visit(page, f"/console/access/keys/{key_id}/revoke")
    page.get_by_label(re.compile(r"^Reason")).fill(REPLACED)
    shot(page, "access-revoke")
    page.get_by_role("button", name="Revoke the key").click()
    expect(page.locator(".notice-success")).to_contain_text("is revoked")
    assert db.execute("SELECT payload->>'reason' FROM audit_log WHERE kind = 'key_revoked' "
                      "AND payload->>'key_id' = %s", (key_id,)).fetchone()[0] == REPLACED


def test_a_deactivation_with_the_longest_reason_reads_whole_in_the_audit_log(new_page, people, make_person):
    leaving = make_person("supervisor", "Cléo Ñúñez")
    admin = sign_in(new_page(), people["admin"])
    visit(admin, "/console/access")
    admin.locator(f"#account-{leaving.username}").get_by_role("link", name="Deactivate…").click()
    expect(admin.get_by_role("heading", level=1)).to_have_text("Deactivate Cléo Ñúñez")
    admin.get_by_label(re.compile(r"^Reason")).fill(LONGEST_REASON)
    admin.get_by_role("button", name="Deactivate the account").click()
    expect(admin.locator(".notice-success")).to_contain_text("Cléo Ñúñez")

    compliance = sign_in(new_page(), people["compliance"])
    visit(compliance, "/console/audit?kind=staff_deactivated")
    record = compliance.locator("tr[data-kind=staff_deactivated]").first
    record.locator("summary").click()
    expect(record.locator("pre.payload")).to_contain_text(LONGEST_REASON)
    expect(record.locator("pre.payload")).to_contain_text('"username": "' + leaving.username)
    expect(record.locator(f'[data-actor="staff:{people["admin"].username}"]')).to_have_text(
        people["admin"].display_name)
    assert page_width(compliance) <= compliance.viewport_size["width"], "the longest reason wraps"
