"""A dealer at the screen, in-process: signing in with a PIN (a wrong one, the lock), console staff
refused on the screen and dealers refused by the console (in words, and recorded), relief, and a
dealer's PIN that breaks the rules refused when the account is made."""
from __future__ import annotations

import re

from tests.integration.console.console_client import ConsoleClient
from tests.support.dealer_screen import SESSION_COOKIE, DealerLogin

FAILED = "Sign-in failed"
ALERT = re.compile(r'role="alert">([^<]+)<')


def kinds_and_reasons(db, table):
    return db.execute("SELECT kind, payload->>'reason' FROM audit_log WHERE chain = %s ORDER BY seq",
                      (f"table:{table}",)).fetchall()


def test_a_dealer_signs_in_and_the_screen_names_the_table_the_screen_and_the_dealer(screen_at, make_dealer, table, db):
    screen = screen_at(table, "Left")
    dealer = make_dealer(display_name="Dana Reyes")
    response = screen.sign_in(dealer)
    assert response.status_code == 303 and response.headers["Location"] == "/dealer/"
    cookie = next(value for value in response.headers.getlist("Set-Cookie") if value.startswith(SESSION_COOKIE))
    assert "HttpOnly" in cookie and "Path=/dealer" in cookie and "SameSite=Strict" in cookie
    page = screen.get("/dealer/call-supervisor").get_data(as_text=True)
    assert f'data-table="{table}"' in page and 'data-screen="Left"' in page and "Dana Reyes" in page
    assert 'data-action="sign-out"' in page and 'data-action="call-supervisor"' in page
    assert screen.get("/dealer/sign-in").headers["Location"] == "/dealer/"
    assert kinds_and_reasons(db, table)[-1] == ("dealer_signed_in", None)
    form = screen_at(table, "Right").get("/dealer/sign-in").get_data(as_text=True)
    assert 'inputmode="numeric"' in form and 'name="pin"' in form


def test_a_wrong_pin_fails_and_five_lock_the_dealer_out_saying_only_that_it_failed(screen_at, make_dealer, table, db):
    screen = screen_at(table)
    dealer = make_dealer()
    said = set()
    for attempt in range(5):
        refused = screen.sign_in(DealerLogin(dealer.username, f"98{attempt}351", dealer.display_name))
        assert refused.status_code == 401
        said.add(ALERT.search(refused.get_data(as_text=True)).group(1))
    locked = screen.sign_in(dealer)
    assert locked.status_code == 401
    said.add(ALERT.search(locked.get_data(as_text=True)).group(1))
    assert len(said) == 1 and FAILED in said.pop()       # a lock is told as any failure is
    assert screen.cookie(SESSION_COOKIE) is None
    reasons = [reason for kind, reason in kinds_and_reasons(db, table) if kind.startswith("dealer_")]
    assert reasons == ["wrong_pin"] * 5 + [None, "locked"]      # the fifth locks (dealer_locked has no reason)
    # The lock ends (fifteen minutes nobody waits for in a test).
    db.execute("UPDATE staff_sign_in_failures SET locked_until = now() - interval '1 second' "
               "WHERE user_id = (SELECT user_id FROM staff_users WHERE username = %s)", (dealer.username,))
    assert screen.sign_in(dealer).status_code == 303


def test_console_staff_cannot_deal(screen_at, make_staff, table, db):
    screen = screen_at(table)
    supervisor = make_staff("supervisor")
    refused = screen.sign_in(DealerLogin(supervisor.username, supervisor.password, supervisor.username))
    assert refused.status_code == 403 and "Console staff cannot deal" in refused.get_data(as_text=True)
    assert screen.cookie(SESSION_COOKIE) is None
    assert kinds_and_reasons(db, table)[-1] == ("dealer_sign_in_failed", "not_a_dealer")
    wrong = screen.sign_in(DealerLogin(supervisor.username, "not the password", supervisor.username))
    assert wrong.status_code == 401 and "Console staff" not in wrong.get_data(as_text=True)


def test_a_dealer_cannot_sign_in_to_the_console_nor_open_its_pages(app, dealer_at, table, db):
    screen, dealer = dealer_at(table)
    console = ConsoleClient(app.test_client())
    refused = console.sign_in(dealer.username, dealer.pin)
    assert refused.status_code == 403 and "Dealers sign in at their table" in refused.get_data(as_text=True)
    assert db.execute("SELECT payload->>'reason' FROM audit_log WHERE chain = 'system' AND kind = "
                      "'staff_sign_in_failed' ORDER BY seq DESC LIMIT 1").fetchone() == ("not_a_console_role",)
    # The screen's cookies open no console page, nor does its session's token as a console cookie.
    for path in ("/console/floor", f"/console/tables/{table}", "/console/account"):
        assert screen.get(path).headers["Location"].startswith("/console/login")
    console.client.set_cookie("pontoon_console_session", screen.cookie(SESSION_COOKIE), path="/console")
    assert console.get("/console/floor").headers["Location"].startswith("/console/login")


def test_relief_is_a_sign_out_and_the_next_dealers_sign_in(dealer_at, make_dealer, table, db):
    screen, first = dealer_at(table)
    out = screen.sign_out()
    assert out.status_code == 302 and out.headers["Location"] == "/dealer/sign-in?signed_out=1"
    assert screen.get("/dealer/call-supervisor").headers["Location"] == "/dealer/sign-in"
    assert "Signed out" in screen.get("/dealer/sign-in?signed_out=1").get_data(as_text=True)
    second = make_dealer(display_name="Eric Okafor")
    assert screen.sign_in(second).status_code == 303
    assert "Eric Okafor" in screen.get("/dealer/call-supervisor").get_data(as_text=True)
    signed = [(kind, reason) for kind, reason in kinds_and_reasons(db, table) if kind.startswith("dealer_signed")]
    assert signed[-3:] == [("dealer_signed_in", None), ("dealer_signed_out", "signed_out"), ("dealer_signed_in", None)]
    who = db.execute("SELECT actor FROM audit_log WHERE chain = %s AND kind LIKE 'dealer_signed%%' ORDER BY seq",
                     (f"table:{table}",)).fetchall()
    assert [row[0] for row in who][-3:] == [f"staff:{first.username}"] * 2 + [f"staff:{second.username}"]


def test_a_deactivated_dealers_session_ends_at_the_next_click(dealer_at, signed_in, table):
    screen, dealer = dealer_at(table)
    admin = signed_in("admin")
    deactivated = admin.post(f"/console/access/accounts/{dealer.username}/deactivate",
                             {"confirmed": "yes", "reason": "left the casino"})
    assert deactivated.status_code == 303
    assert screen.get("/dealer/call-supervisor").headers["Location"] == "/dealer/sign-in"


def test_an_admin_makes_a_dealer_with_a_pin_or_has_one_generated(signed_in, screen_at, table):
    admin = signed_in("admin")
    short = admin.post("/console/access/accounts", {"username": "shortpin", "role": "dealer", "pin": "12345"})
    assert short.status_code == 422 and 'id="pin-error"' in short.get_data(as_text=True)
    assert "at least 6 digits" in short.get_data(as_text=True)
    as_password = admin.post("/console/access/accounts", {"username": "shortpin", "role": "dealer",
                                                          "password": "a long password here"})
    assert as_password.status_code == 422 and 'id="password-error"' in as_password.get_data(as_text=True)
    made = admin.post("/console/access/accounts", {"username": "genpin", "role": "dealer"})
    assert made.status_code == 201 and "Its PIN" in made.get_data(as_text=True)
    pin = made.get_data(as_text=True).split('id="issued-secret">')[1].split("<")[0]
    assert pin.isdigit() and len(pin) == 6
    assert screen_at(table).sign_in(DealerLogin("genpin", pin, "genpin")).status_code == 303
    page = admin.get("/console/access").get_data(as_text=True)
    row = page.split('id="account-genpin"')[1].split("</tr>")[0]
    assert "Reset PIN" in row and 'name="role"' not in row
