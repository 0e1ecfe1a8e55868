"""Console sessions live on the server: signing out, a deactivation, a password reset or idleness
end them at the next request; roles decide which pages open."""
from __future__ import annotations

import dataclasses
import hashlib
import re
import secrets
import uuid

import pyotp
import pytest

from service.console.auth import signed_in as holder_of_the_session
from service.settlement.connection import connect
from service.store.repositories.audit import AuditRecord, chain_for
from service.web.request_scope import request_uow

from .console_client import ConsoleClient

pytestmark = pytest.mark.integration


def test_a_page_without_a_session_sends_to_sign_in_and_back(browser):
    response = browser().get("/console/access?x=1")
    assert response.status_code == 302
    assert response.headers["Location"] == "/console/login?next=%2Fconsole%2Faccess%3Fx%3D1"


def test_an_htmx_request_without_a_session_is_told_to_load_the_sign_in_page(browser):
    response = browser().get("/console/account", headers={"HX-Request": "true"})
    assert response.headers["HX-Redirect"].startswith("/console/login")


def test_signing_in_returns_to_the_page_asked_for_but_never_off_site(make_staff, browser):
    login = make_staff("admin")
    console = browser()
    token = console.csrf_token()
    back = console.client.post("/console/login", data={"csrf_token": token, "username": login.username,
                                                       "password": login.password, "next": "/console/access"})
    assert back.headers["Location"] == "/console/access"
    other = browser()
    away = other.client.post("/console/login", data={"csrf_token": other.csrf_token(), "username": login.username,
                                                     "password": login.password, "next": "//evil.example/"})
    assert away.headers["Location"] == "/console/floor"


def test_signing_out_ends_the_session_on_the_server(signed_in, db):
    console = signed_in("operator")
    cookie = console.client.get_cookie("pontoon_console_session", path="/console").value
    response = console.sign_out()
    assert response.status_code == 302 and response.headers["Location"] == "/console/login?signed_out=1"
    assert console.get("/console/account").status_code == 302
    # The cookie's value, replayed, opens nothing: the session ended in the database.
    console.client.set_cookie("pontoon_console_session", cookie, path="/console")
    assert console.get("/console/account").status_code == 302
    ended = db.execute("SELECT ended_reason FROM staff_sessions s JOIN staff_users u USING (user_id) "
                       "WHERE u.username = %s", (console.login.username,)).fetchall()
    assert ended == [("signed_out",)]


def test_a_deactivated_accounts_open_session_is_dropped_at_its_next_click(signed_in):
    admin, operator = signed_in("admin"), signed_in("operator")
    assert operator.get("/console/account").status_code == 200
    response = admin.post(f"/console/access/accounts/{operator.login.username}/deactivate",
                          {"confirmed": "yes", "reason": "left"})
    assert response.status_code == 303
    assert operator.get("/console/account").status_code == 302
    assert operator.sign_in(operator.login.username, operator.login.password).status_code == 401


def test_a_password_reset_ends_the_persons_sessions(signed_in):
    admin, supervisor = signed_in("admin"), signed_in("supervisor")
    assert admin.post(f"/console/access/accounts/{supervisor.login.username}/reset-password",
                      {"confirmed": "yes", "reason": "forgotten"}).status_code == 200
    assert supervisor.get("/console/account").status_code == 302


def test_an_idle_session_ends(signed_in, db):
    console = signed_in("compliance")
    db.execute("UPDATE staff_sessions SET last_seen_at = now() - interval '16 minutes' "
               "WHERE user_id = (SELECT user_id FROM staff_users WHERE username = %s)", (console.login.username,))
    assert console.get("/console/account").status_code == 302


def test_a_session_past_its_absolute_length_ends_however_busy(signed_in, db):
    console = signed_in("compliance")
    db.execute("UPDATE staff_sessions SET created_at = now() - interval '12 hours 1 minute' "
               "WHERE user_id = (SELECT user_id FROM staff_users WHERE username = %s)", (console.login.username,))
    assert console.get("/console/account").status_code == 302


@pytest.mark.parametrize("role", ["operator", "supervisor", "compliance"])
def test_the_access_page_is_refused_to_every_role_but_admin(signed_in, role):
    console = signed_in(role)
    page = console.get("/console/access")
    assert page.status_code == 403
    assert "Not for your role" in page.get_data(as_text=True)
    assert console.post("/console/access/accounts", {"username": "intruder", "role": "admin"}).status_code == 403
    assert console.get("/console/access/review.csv").status_code == 403


def test_the_nav_shows_each_role_its_pages(signed_in):
    html = signed_in("operator").get("/console/account").get_data(as_text=True)
    assert 'href="/console/floor"' in html and 'href="/console/paytables"' in html
    assert 'href="/console/access"' not in html and 'href="/console/audit"' not in html
    admin = signed_in("admin").get("/console/account").get_data(as_text=True)
    assert 'href="/console/access"' in admin


def test_the_console_root_goes_to_the_floor(signed_in):
    assert signed_in("supervisor").get("/console/").headers["Location"].endswith("/console/floor")


@pytest.fixture
def two_factor_app(settings):
    """The app as a casino that makes supervisors use a second factor configures it."""
    from service.app import create_app
    app = create_app(dataclasses.replace(settings, console_2fa_roles=("supervisor",)))
    app.config["TESTING"] = True
    yield app
    app.extensions["pontoon.pool"].close()


def test_a_role_that_must_use_a_second_factor_enrols_before_anything_else(two_factor_app, make_staff):
    login = make_staff("supervisor")
    console = ConsoleClient(two_factor_app.test_client())
    assert console.sign_in(login.username, login.password).status_code == 302
    assert console.get("/console/floor").headers["Location"] == "/console/account"
    page = console.get("/console/account").get_data(as_text=True)
    assert "must sign in with a second factor" in page
    secret = re.search(r'id="totp-secret">([A-Z2-7]+)<', page).group(1)
    assert console.post("/console/account/totp", {"password": login.password,
                                                  "code": pyotp.TOTP(secret).now()}).status_code == 302
    assert console.get("/console/floor").status_code == 200
    assert console.post("/console/account/totp/remove", {"password": login.password}).status_code == 409


def test_a_page_refreshing_itself_does_not_keep_an_unattended_session_alive(signed_in, db):
    console = signed_in("supervisor")
    who = "(SELECT user_id FROM staff_users WHERE username = %s)"
    db.execute(f"UPDATE staff_sessions SET last_seen_at = now() - interval '10 minutes' WHERE user_id = {who}",
               (console.login.username,))
    assert console.get("/console/floor/rows", headers={"HX-Request": "true"}).status_code == 200
    idle = db.execute(f"SELECT now() - last_seen_at FROM staff_sessions WHERE user_id = {who}",
                      (console.login.username,)).fetchone()[0]
    assert idle.total_seconds() >= 600, "a poll is not the person's activity"
    assert console.get("/console/account").status_code == 200
    idle = db.execute(f"SELECT now() - last_seen_at FROM staff_sessions WHERE user_id = {who}",
                      (console.login.username,)).fetchone()[0]
    assert idle.total_seconds() < 60


class PageGaveUp(Exception):
    """What makes the page's transaction block roll back, here."""


def test_checking_the_session_commits_nothing_the_request_has_written(app, signed_in, db):
    console = signed_in("operator")
    cookie = console.client.get_cookie("pontoon_console_session", path="/console").value
    marker = secrets.token_hex(8)
    with app.test_request_context("/console/account", headers={"Cookie": f"pontoon_console_session={cookie}"}):
        uow = request_uow()
        with pytest.raises(PageGaveUp), uow.transaction():
            uow.audit.append(chain_for(None), [AuditRecord("access_denied", {"marker": marker}, actor="test")])
            assert holder_of_the_session().username == console.login.username
            raise PageGaveUp
    # The page's block rolled back: its write went with it, though the session was checked.
    assert db.execute("SELECT count(*) FROM audit_log WHERE payload->>'marker' = %s", (marker,)).fetchone() == (0,)


def test_a_session_row_the_apps_own_login_inserts_signs_no_one_in(signed_in, database_url):
    """The trial's attack: with only pontoon_app's login, a session row for another admin, its
    token chosen by the attacker and stored as its SHA-256 (as rows were once kept)."""
    victim, attacker = signed_in("admin"), signed_in("operator")
    token = secrets.token_urlsafe(32)
    with connect(database_url) as conn:
        conn.execute("INSERT INTO staff_sessions (session_id, token_hash, user_id) "
                     "SELECT %s, %s, user_id FROM staff_users WHERE username = %s",
                     (uuid.uuid4(), hashlib.sha256(token.encode()).hexdigest(), victim.login.username))
        conn.commit()
    attacker.client.set_cookie("pontoon_console_session", token, path="/console")
    assert attacker.get("/console/access").status_code == 302
    assert attacker.get("/console/access").headers["Location"].startswith("/console/login")


def test_the_apps_login_finds_no_signing_key_and_no_totp_secret_in_clear(database_url):
    with connect(database_url) as conn:
        assert conn.execute("SELECT to_regclass('service_secrets')").fetchone()[0] is None
        stored = conn.execute("SELECT totp_secret FROM staff_users WHERE totp_secret IS NOT NULL").fetchall()
    assert all(value.startswith("gAAAAA") for (value,) in stored)
