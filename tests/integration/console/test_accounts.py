"""A person's own account page (password, second factor) and the `pontoon users` command."""
from __future__ import annotations

import html
import os
import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pyotp
import pytest
import segno

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[3]


def test_changing_the_password_shows_each_error_at_its_field_then_works(signed_in, browser):
    console = signed_in("operator")
    login = console.login
    refused = console.post("/console/account/password", {"current_password": "not my password",
                                                         "new_password": "short", "confirm_password": "short"})
    html = refused.get_data(as_text=True)
    assert refused.status_code == 422
    assert 'id="current_password-error">not the current password' in html
    assert 'id="new_password-error">at least 12 characters' in html
    mismatch = console.post("/console/account/password", {"current_password": login.password,
                                                           "new_password": "a fine new passphrase",
                                                           "confirm_password": "another one entirely"})
    assert 'id="confirm_password-error"' in mismatch.get_data(as_text=True)
    done = console.post("/console/account/password", {"current_password": login.password,
                                                      "new_password": "a fine new passphrase",
                                                      "confirm_password": "a fine new passphrase"})
    assert done.status_code == 302
    assert console.get("/console/account").status_code == 200, "the session that changed it stays"
    assert browser().sign_in(login.username, login.password).status_code == 401
    assert browser().sign_in(login.username, "a fine new passphrase").status_code == 302


def test_enrolling_a_second_factor_makes_sign_in_ask_for_its_code(signed_in, browser):
    console = signed_in("supervisor")
    page = console.get("/console/account").get_data(as_text=True)
    secret = re.search(r'id="totp-secret">([A-Z2-7]+)<', page).group(1)
    assert f"secret={secret}" in page and "otpauth://totp/" in page
    login = console.login
    wrong = console.post("/console/account/totp", {"password": login.password, "code": "12345"})
    assert wrong.status_code == 422 and 'id="code-error"' in wrong.get_data(as_text=True)
    no_password = console.post("/console/account/totp", {"password": "not it", "code": pyotp.TOTP(secret).now()})
    assert no_password.status_code == 422 and 'id="enrol_password-error"' in no_password.get_data(as_text=True)
    assert secret in no_password.get_data(as_text=True), "the same secret stays on offer"
    assert console.post("/console/account/totp", {"password": login.password,
                                                  "code": pyotp.TOTP(secret).now()}).status_code == 302
    assert browser().sign_in(login.username, login.password).status_code == 401
    next_code = pyotp.TOTP(secret).at(datetime.now(UTC), counter_offset=1)   # enrolling spent now's code
    assert browser().sign_in(login.username, login.password, totp=next_code).status_code == 302
    refused = console.post("/console/account/totp/remove", {"password": "not the password"})
    assert 'id="remove_password-error"' in refused.get_data(as_text=True)
    assert console.post("/console/account/totp/remove", {"password": login.password}).status_code == 302
    assert browser().sign_in(login.username, login.password).status_code == 302


def test_enrolment_shows_the_link_as_a_qr_code_drawn_by_the_console(signed_in):
    page = signed_in("operator").get("/console/account").get_data(as_text=True)
    uri = html.unescape(re.search(r'id="totp-uri" class="mono">([^<]+)<', page).group(1))
    drawn = html.unescape(re.search(r'<img class="totp-qr" id="totp-qr" src="([^"]+)"', page).group(1))
    assert drawn.startswith("data:image/svg+xml"), "drawn here: nothing is fetched from elsewhere"
    assert drawn == segno.make(uri, error="m").svg_data_uri(scale=5, border=4, dark="#000", light="#fff"), \
        "the code of the very link shown beside it"
    assert re.search(r'id="totp-qr"[^>]*\salt="QR code', page)


def test_the_secret_enrolled_is_the_one_the_server_made_whatever_the_form_says(signed_in, db):
    console = signed_in("supervisor")
    page = console.get("/console/account").get_data(as_text=True)
    offered = re.search(r'id="totp-secret">([A-Z2-7]+)<', page).group(1)
    chosen = pyotp.random_base32()
    refused = console.post("/console/account/totp", {"password": console.login.password, "secret": chosen,
                                                     "code": pyotp.TOTP(chosen).now()})
    assert refused.status_code == 422 and 'id="code-error"' in refused.get_data(as_text=True)
    assert console.post("/console/account/totp", {"password": console.login.password,
                                                  "code": pyotp.TOTP(offered).now()}).status_code == 302
    stored = db.execute("SELECT totp_secret FROM staff_users WHERE username = %s",
                        (console.login.username,)).fetchone()[0]
    assert offered not in stored and stored.startswith("gAAAAA"), "stored sealed, never in clear"


@pytest.mark.parametrize("code", ["", "abcdef", "12345\x00", "9" * 1000, "١٢٣٤٥٦"])
def test_a_malformed_code_is_a_422_at_the_field(signed_in, code):
    console = signed_in("supervisor")
    console.get("/console/account")
    refused = console.post("/console/account/totp", {"password": console.login.password, "code": code})
    assert refused.status_code == 422 and 'id="code-error"' in refused.get_data(as_text=True)


def pontoon(database_url: str, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "service.cli", "users", *args], cwd=ROOT, input=stdin,
                          env={**os.environ, "DATABASE_URL": database_url}, capture_output=True, text=True,
                          timeout=60)


def test_the_cli_creates_lists_resets_and_deactivates_accounts(database_url, browser):
    made = pontoon(database_url, "create", "--username", "cli-made", "--role", "compliance", "--name", "Cleo Made")
    assert made.returncode == 0, made.stderr
    password = made.stdout.strip().splitlines()[-1]
    assert len(password) >= 12 and " " not in password
    assert browser().sign_in("cli-made", password).status_code == 302
    given = pontoon(database_url, "create", "--username", "cli-given", "--role", "operator", "--password-stdin",
                    stdin="twelve chars or more\n")
    assert given.returncode == 0 and "twelve" not in given.stdout
    assert browser().sign_in("cli-given", "twelve chars or more").status_code == 302
    short = pontoon(database_url, "create", "--username", "cli-short", "--role", "operator", "--password-stdin",
                    stdin="short\n")
    assert short.returncode == 2 and "password" in short.stderr
    listed = pontoon(database_url, "list").stdout
    assert re.search(r"^cli-made\s+compliance\s+active\b.*Cleo Made$", listed, re.M)
    reset = pontoon(database_url, "reset-password", "cli-made")
    assert reset.returncode == 0
    assert browser().sign_in("cli-made", reset.stdout.strip().splitlines()[-1]).status_code == 302
    assert pontoon(database_url, "deactivate", "cli-made").returncode == 0
    assert re.search(r"^cli-made\s+compliance\s+deactivated\b", pontoon(database_url, "list").stdout, re.M)
