"""Signing in to the console: the form, a wrong password, the lock after five failures in a row,
the session cookie's flags, CSRF on the form."""
from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.integration


def test_the_sign_in_page_is_a_form_with_username_password_and_code(browser):
    page = browser().get("/console/login")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    for field in ('name="username"', 'name="password"', 'name="totp"', 'name="csrf_token"'):
        assert field in html


def test_signing_in_opens_the_console_and_sets_a_guarded_cookie(make_staff, browser):
    login = make_staff("supervisor")
    console = browser()
    response = console.sign_in(login.username, login.password)
    assert response.status_code == 302
    assert response.headers["Location"].endswith("/console/floor")
    cookie = next(value for value in response.headers.getlist("Set-Cookie")
                  if value.startswith("pontoon_console_session="))
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Path=/console" in cookie
    assert "Secure" not in cookie
    account = console.get("/console/account")
    assert account.status_code == 200
    assert login.username in account.get_data(as_text=True) or "supervisor" in account.get_data(as_text=True)


def test_a_wrong_password_says_only_that_the_sign_in_failed(make_staff, browser):
    login = make_staff("operator")
    response = browser().sign_in(login.username, login.password + "x")
    html = response.get_data(as_text=True)
    assert response.status_code == 401
    assert "Sign-in failed." in html
    unknown = browser().sign_in("nobody-here", "whatever-it-is-123")
    assert unknown.status_code == 401
    assert "Sign-in failed." in unknown.get_data(as_text=True)


CSRF_TOKEN = re.compile(r"[\w-]{20,}\.[\w-]+\.[\w-]{20,}")


def _sign_in_from(console, address: str, username: str, password: str):
    return console.post("/console/login", {"username": username, "password": password},
                        environ_base={"REMOTE_ADDR": address})


def test_five_failures_lock_the_account_from_that_address_answering_as_a_wrong_password_does(
        make_staff, browser, db):
    login = make_staff("compliance")
    stranger, owner = browser(), browser()
    answers = [_sign_in_from(stranger, "198.51.100.66", login.username, f"wrong-password-{n}") for n in range(5)]
    # The right password from the stranger's address, now locked: the same answer as a wrong one.
    answers.append(_sign_in_from(stranger, "198.51.100.66", login.username, login.password))
    wrong_elsewhere = _sign_in_from(browser(), "198.51.100.67", login.username, "wrong-password-x")
    unknown = _sign_in_from(browser(), "198.51.100.68", "nobody-" + login.username, "wrong-password-x")
    pages = {(a.status_code, _without_csrf(a.get_data(as_text=True))) for a in answers + [wrong_elsewhere, unknown]}
    assert len(pages) == 1 and next(iter(pages))[0] == 401
    assert "locked" not in next(iter(pages))[1]
    kinds = [row[0] for row in db.execute(
        "SELECT kind FROM audit_log WHERE payload->>'username' = %s ORDER BY id", (login.username,))]
    assert kinds.count("staff_sign_in_failed") == 7 and kinds.count("staff_locked") == 1
    # The owner, at their own address, is not locked out by the stranger.
    assert _sign_in_from(owner, "10.0.0.7", login.username, login.password).status_code == 302
    # The lock over (moved into the past here), the right password signs in from there too.
    db.execute("UPDATE staff_sign_in_failures SET locked_until = now() - interval '1 second' "
               "WHERE address = '198.51.100.66' AND user_id = (SELECT user_id FROM staff_users WHERE username = %s)",
               (login.username,))
    assert _sign_in_from(stranger, "198.51.100.66", login.username, login.password).status_code == 302


def _without_csrf(html: str) -> str:
    """The page with its CSRF tokens (new on each form) and the username typed taken out."""
    return CSRF_TOKEN.sub("", html).replace('value="nobody-', 'value="')


def test_a_sign_in_post_without_its_csrf_token_is_refused(make_staff, browser):
    login = make_staff("operator")
    response = browser().post("/console/login", {"username": login.username, "password": login.password},
                              csrf=False)
    assert response.status_code == 400
    assert "pontoon_console_session" not in response.headers.get("Set-Cookie", "")


def test_console_pages_carry_a_content_security_policy_without_inline_script(browser):
    response = browser().get("/console/login")
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    assert "<script>" not in response.get_data(as_text=True)


def test_the_rest_api_is_not_csrf_checked_and_sets_no_console_cookie(client, make_key):
    secret = make_key("admin")
    response = client.post("/v1/keys", json={"role": "compliance", "name": "csrf check"},
                           headers={"Authorization": f"Bearer {secret}"})
    assert response.status_code == 201
    assert "Set-Cookie" not in response.headers
