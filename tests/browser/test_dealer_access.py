"""A screen enrolled and a dealer signed in and out, in chromium against the live stack: a
supervisor issues the code in the console, the screen opens its link and keeps an HttpOnly device
cookie, a dealer made with `pontoon users create --role dealer` signs in with a PIN typed on the
keyboard, the bar names the table, the screen and the dealer, and signing out ends the session. A
dealer opens no console page and console staff cannot deal at a screen."""
from __future__ import annotations

import re
import secrets

from playwright.sync_api import expect

from tests.support.dealer_screen import (
    SCREEN_COOKIE,
    enrol_in_browser,
    issue_code_in_console,
    make_dealer_account,
    screen_cookies,
    sign_in_at_screen,
    submit_sign_in_at_screen,
)

from .console import LOGIN, shot, sign_in, submit_sign_in
from .stack import ROOT

PICTURES = ROOT / "docs" / "dealer"
NOT_FOR_DEALERS = "Dealers sign in at their table's screen, not in the console."
NOT_A_DEALER = ("Console staff cannot deal: only a dealer's account signs in at a table's screen. Sign in to the "
                "console instead.")


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


def test_a_dealer_signed_in_at_a_screen_opens_no_console_page(new_page, people, new_table, live):
    """A dealer at an enrolled screen is sent to the console's sign-in, which refuses their PIN."""
    table_id, _ = new_table(shoe=None)
    _, link = issue_code_in_console(sign_in(new_page(), people["supervisor"]), table_id, "Left")
    screen = new_page()
    enrol_in_browser(screen, link)
    dealer = make_dealer_account(live.env)
    sign_in_at_screen(screen, dealer)
    for path in ("/console/", "/console/floor", f"/console/tables/{table_id}"):
        screen.goto(path)
        expect(screen).to_have_url(LOGIN)
        expect(screen.get_by_role("heading", level=1)).to_have_text("Sign in")
    submit_sign_in(screen, dealer.username, dealer.pin)
    expect(screen.get_by_role("alert")).to_have_text(NOT_FOR_DEALERS)
    expect(screen).to_have_url(LOGIN)
    screen.goto("/console/floor")
    expect(screen).to_have_url(LOGIN)


def test_console_staff_at_an_enrolled_screen_cannot_deal(new_page, make_person, new_table):
    """A supervisor signed in to the console is refused at the screen's sign-in and offered no dealing."""
    # Twelve characters: the shortest console password, and as many as the screen's PIN field takes.
    supervisor = make_person("supervisor", password=f"pit-{secrets.token_hex(4)}")
    table_id, _ = new_table()
    page = sign_in(new_page(), supervisor)
    _, link = issue_code_in_console(page, table_id, "Left")
    enrol_in_browser(page, link)                # the console's session and the screen in one browser
    page.goto("/dealer/")
    expect(page).to_have_url(re.compile(r"/dealer/sign-in$"))
    submit_sign_in_at_screen(page, supervisor.username, supervisor.password)
    expect(page.get_by_role("alert")).to_have_text(NOT_A_DEALER)
    for path in ("/dealer/table", "/dealer/call-supervisor"):
        page.goto(path)
        expect(page).to_have_url(re.compile(r"/dealer/sign-in$"))
        expect(page.locator("[data-awaiting]")).to_have_count(0)
