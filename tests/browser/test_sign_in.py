"""Signing in to the console in a real browser: in and out, the lock after five failed attempts
(answered as any failure is), and a deactivated account's open session ended at its next click."""
from __future__ import annotations

import re

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from .console import LOGIN, shot, sign_in, sign_out, submit_sign_in, visit

FAILED = re.compile(r"sign-in failed", re.I)
LOCKED = re.compile(r"locked", re.I)


def test_sign_in_shows_the_floor_and_sign_out_ends_the_session(page, people):
    person = people["supervisor"]
    visit(page, "/console/floor")
    expect(page).to_have_url(LOGIN)               # no session: the login page, and back after it
    shot(page, "login")
    sign_in(page, person)
    expect(page).to_have_url(re.compile(r"/console/floor$"))
    expect(page.locator("header")).to_contain_text(person.display_name)
    expect(page.get_by_role("navigation")).to_contain_text("Recall")

    sign_out(page)
    expect(page.get_by_text("You have signed out.")).to_be_visible()
    visit(page, "/console/floor")
    expect(page).to_have_url(LOGIN)


def test_five_bad_passwords_lock_the_account_until_the_lock_ends_saying_only_that_it_failed(page, make_person, db):
    person = make_person("operator")
    for attempt in range(5):
        submit_sign_in(page, person.username, f"not the password {attempt}")
        expect(page.get_by_role("alert")).to_contain_text(FAILED)
        expect(page.get_by_role("alert")).not_to_contain_text(LOCKED)

    submit_sign_in(page, person.username, person.password)     # the sixth, with the right password
    expect(page.get_by_role("alert")).to_contain_text(FAILED)
    expect(page.get_by_role("alert")).not_to_contain_text(LOCKED)
    expect(page).to_have_url(LOGIN)
    shot(page, "login-locked")

    # The clock moved past the lock's end (fifteen minutes nobody waits for in a test).
    db.execute("UPDATE staff_sign_in_failures SET locked_until = now() - interval '1 second' "
               "WHERE user_id = (SELECT user_id FROM staff_users WHERE username = %s)", (person.username,))
    sign_in(page, person)
    expect(page.locator("header")).to_contain_text(person.display_name)


def test_a_deactivated_accounts_open_session_ends_at_its_next_click(new_page, people, make_person):
    person = make_person("compliance")
    theirs = sign_in(new_page(), person)
    expect(theirs.get_by_role("navigation")).to_contain_text("Reports")

    admin = sign_in(new_page(), people["admin"])
    visit(admin, "/console/access")
    row = admin.locator(f"#account-{person.username}")
    expect(row.locator(".status-active")).to_be_visible()
    row.get_by_role("link", name="Deactivate…").click()
    admin.get_by_label(re.compile(r"^Reason")).fill("moved to another casino")
    admin.get_by_role("button", name="Deactivate the account").click()
    expect(admin.locator(f"#account-{person.username} .status-deactivated")).to_be_visible()
    shot(admin, "access")

    # Their next click (or their page's next refresh, whichever comes first) finds the session ended.
    try:
        visit(theirs, "/console/reports")
    except PlaywrightError as exc:   # the page's own refresh reached the sign-in page first
        assert "interrupted by another navigation" in str(exc), exc
    expect(theirs).to_have_url(LOGIN)
    submit_sign_in(theirs, person.username, person.password)
    expect(theirs.get_by_role("alert")).to_contain_text(FAILED)
