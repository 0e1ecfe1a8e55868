"""A screen enrolled and a dealer signed in and out, in chromium against the live stack: a
supervisor issues the code in the console, the screen opens its link and keeps an HttpOnly device
cookie, a dealer made with `pontoon users create --role dealer` signs in with a PIN typed on the
keyboard, the bar names the table, the screen and the dealer, and signing out ends the session."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.support.dealer_screen import (
    SCREEN_COOKIE,
    enrol_in_browser,
    issue_code_in_console,
    make_dealer_account,
    screen_cookies,
    sign_in_at_screen,
)

from .console import shot, sign_in
from .stack import ROOT

PICTURES = ROOT / "docs" / "dealer"


def picture(page, name: str) -> None:
    PICTURES.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(PICTURES / f"{name}.png"), full_page=True)


def test_a_screen_is_enrolled_a_dealer_signs_in_and_out_on_it(new_page, people, new_table, live, db):
    table_id, _ = new_table(shoe=None)
    console = sign_in(new_page(), people["supervisor"])
    code, link = issue_code_in_console(console, table_id, "Left of the pit")
    assert re.fullmatch(r"[A-Z0-9]{5}-[A-Z0-9]{5}", code) and link.endswith(f"/dealer/enrol?code={code}")
    shot(console, "table-screens")

    screen = new_page()
    screen.set_viewport_size({"width": 1280, "height": 800})
    screen.goto("/dealer/call-supervisor")
    expect(screen).to_have_url(re.compile(r"/dealer/enrol$"))          # no screen yet
    screen.goto(link)
    expect(screen.locator("input[name=code]")).to_have_value(code)
    picture(screen, "enrol")
    enrol_in_browser(screen, link)
    [device] = [c for c in screen_cookies(screen.context) if c["name"] == SCREEN_COOKIE]
    assert device["httpOnly"] and device["path"] == "/dealer" and device["sameSite"] == "Strict"
    expect(screen.locator(".frame-bar")).to_contain_text(table_id)
    expect(screen.locator(".frame-bar")).to_contain_text("Left of the pit")

    dealer = make_dealer_account(live.env, display_name="Dana Reyes")
    screen.goto("/dealer/sign-in")
    expect(screen.locator("input[name=pin]")).to_have_attribute("inputmode", "numeric")
    picture(screen, "sign-in")
    sign_in_at_screen(screen, dealer)
    screen.goto("/dealer/call-supervisor")
    bar = screen.locator(".frame-bar")
    expect(bar).to_contain_text("Dana Reyes")
    expect(bar).to_contain_text("Left of the pit")
    expect(screen.locator("[data-action=call-supervisor]")).to_be_visible()

    # Signed out with the keyboard alone: the bar's button takes the focus and Enter presses it.
    screen.locator("[data-action=sign-out]").focus()
    expect(screen.locator("[data-action=sign-out]")).to_be_focused()
    screen.keyboard.press("Enter")
    expect(screen).to_have_url(re.compile(r"/dealer/sign-in\?signed_out=1$"))
    expect(screen.get_by_role("status")).to_contain_text("Signed out")
    screen.goto("/dealer/call-supervisor")
    expect(screen).to_have_url(re.compile(r"/dealer/sign-in$"))
    kinds = [row[0] for row in db.execute("SELECT kind FROM audit_log WHERE chain = %s ORDER BY seq",
                                          (f"table:{table_id}",))]
    assert kinds[-4:] == ["screen_code_issued", "screen_enrolled", "dealer_signed_in", "dealer_signed_out"]
