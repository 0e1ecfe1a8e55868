"""Signing in to the console: the form, a wrong password, the lock after five failures in a row,
the session cookie's flags, CSRF on the form."""
from __future__ import annotations

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


def test_five_failures_lock_the_account_and_the_right_password_is_refused_until_the_lock_ends(
        make_staff, browser, db):
    login = make_staff("compliance")
    console = browser()
    for attempt in range(4):
        assert "locked" not in console.sign_in(login.username, f"wrong-password-{attempt}").get_data(as_text=True)
    fifth = console.sign_in(login.username, "wrong-password-5")
    assert fifth.status_code == 401 and "locked" in fifth.get_data(as_text=True)
    sixth = console.sign_in(login.username, login.password)
    assert sixth.status_code == 401 and "locked" in sixth.get_data(as_text=True)
    kinds = [row[0] for row in db.execute(
        "SELECT kind FROM audit_log WHERE payload->>'username' = %s ORDER BY id", (login.username,))]
    assert kinds.count("staff_sign_in_failed") == 6 and kinds.count("staff_locked") == 1
    # The lock over (moved into the past here), the right password signs in.
    db.execute("UPDATE staff_users SET locked_until = now() - interval '1 second' WHERE username = %s",
               (login.username,))
    assert console.sign_in(login.username, login.password).status_code == 302


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
