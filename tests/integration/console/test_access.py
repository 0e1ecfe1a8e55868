"""The admins' access page: accounts made, changed and deactivated, terminal keys issued once and
revoked, and the access review as a page and CSV; each change recorded under the admin's name."""
from __future__ import annotations

import csv
import io
import re
import uuid

import pytest

pytestmark = pytest.mark.integration


def actor_of(db, kind: str, username: str) -> str | None:
    row = db.execute("SELECT actor FROM audit_log WHERE kind = %s AND payload->>'username' = %s "
                     "ORDER BY id DESC LIMIT 1", (kind, username)).fetchone()
    return row[0] if row else None


def test_an_admin_creates_an_account_with_each_error_at_its_field(signed_in, browser, db):
    admin = signed_in("admin")
    refused = admin.post("/console/access/accounts", {"username": "9bad", "role": "operator", "password": "short"})
    html = refused.get_data(as_text=True)
    assert refused.status_code == 422
    assert 'id="username-error"' in html and 'id="password-error">at least 12 characters' in html
    assert 'value="9bad"' in html, "what was typed stays in the form"
    username = f"new{uuid.uuid4().hex[:8]}"
    made = admin.post("/console/access/accounts", {"username": username, "display_name": "Nora New",
                                                   "role": "supervisor", "password": ""})
    assert made.status_code == 201
    password = re.search(r'id="issued-secret">([^<]+)<', made.get_data(as_text=True)).group(1)
    assert browser().sign_in(username, password).status_code == 302
    assert actor_of(db, "staff_created", username) == f"staff:{admin.login.username}"
    taken = admin.post("/console/access/accounts", {"username": username, "role": "operator"})
    assert taken.status_code == 409 and 'id="username-error"' in taken.get_data(as_text=True)


def test_an_admin_changes_a_role_and_it_holds_from_the_next_request(signed_in, db):
    admin, person = signed_in("admin"), signed_in("operator")
    assert person.get("/console/access").status_code == 403
    assert admin.post(f"/console/access/accounts/{person.login.username}/role", {"role": "admin"}).status_code == 303
    assert person.get("/console/access").status_code == 200
    assert actor_of(db, "staff_role_changed", person.login.username) == f"staff:{admin.login.username}"


def test_a_reset_asks_for_a_reason_first_and_shows_the_new_password_once(signed_in, browser, db):
    admin, person = signed_in("admin"), signed_in("compliance")
    path = f"/console/access/accounts/{person.login.username}/reset-password"
    # Posted without the confirmation page's form (a stale button, a script): nothing is reset.
    asked = admin.post(path)
    assert asked.status_code == 200 and "Reset the password" in asked.get_data(as_text=True)
    assert browser().sign_in(person.login.username, person.login.password).status_code == 302
    blank = admin.post(path, {"confirmed": "yes", "reason": " "})
    assert blank.status_code == 422 and 'id="reason-error">Say why' in blank.get_data(as_text=True)
    page = admin.post(path, {"confirmed": "yes", "reason": "forgot it"}).get_data(as_text=True)
    password = re.search(r'id="issued-secret">([^<]+)<', page).group(1)
    assert browser().sign_in(person.login.username, password).status_code == 302
    assert password not in admin.get("/console/access").get_data(as_text=True)
    reason = db.execute("SELECT payload->>'reason' FROM audit_log WHERE kind = 'staff_password_reset' "
                        "AND payload->>'username' = %s", (person.login.username,)).fetchone()[0]
    assert reason == "forgot it"


def test_a_deactivation_asks_for_a_reason_and_keeps_it_in_the_audit_record(signed_in, db):
    admin, person = signed_in("admin"), signed_in("operator")
    path = f"/console/access/accounts/{person.login.username}/deactivate"
    confirm = admin.get(path)
    assert confirm.status_code == 200 and person.login.username in confirm.get_data(as_text=True)
    assert admin.post(path, {"reason": "left the casino"}).status_code == 200, "only the confirmed form acts"
    assert person.get("/console/floor").status_code == 200
    too_long = admin.post(path, {"confirmed": "yes", "reason": "x" * 2001})
    assert too_long.status_code == 422
    assert "Too long: at most 2,000 characters, and this has 2,001." in too_long.get_data(as_text=True)
    done = admin.post(path, {"confirmed": "yes", "reason": "left the casino"})
    assert done.status_code == 303 and person.get("/console/floor").status_code == 302
    assert db.execute("SELECT payload->>'reason' FROM audit_log WHERE kind = 'staff_deactivated' "
                      "AND payload->>'username' = %s", (person.login.username,)).fetchone()[0] == "left the casino"


def test_the_new_account_form_preselects_no_role(signed_in):
    admin = signed_in("admin")
    assert '<option value="" selected>Choose a role</option>' in admin.get("/console/access").get_data(as_text=True)
    refused = admin.post("/console/access/accounts", {"username": f"n{uuid.uuid4().hex[:8]}", "role": ""})
    assert refused.status_code == 422 and 'id="role-error">Choose the account' in refused.get_data(as_text=True)


def test_a_long_value_is_refused_at_its_field_with_its_limit(signed_in):
    admin = signed_in("admin")
    refused = admin.post("/console/access/keys", {"table_id": "T1", "name": "n" * 1024})
    assert refused.status_code == 422
    assert 'id="name-error">Too long: at most 128 characters, and this has 1,024.' in refused.get_data(as_text=True)


def test_a_terminal_key_is_issued_for_a_table_shown_once_and_revoked(signed_in, client, make_key, db):
    admin = signed_in("admin")
    table_id = f"T-{uuid.uuid4().hex[:8]}"
    assert client.post("/v1/tables", json={"table_id": table_id, "rules": "canberra", "paytable": "canberra-standard"},
                       headers={"Authorization": f"Bearer {make_key('admin')}"}).status_code == 201
    missing = admin.post("/console/access/keys", {"table_id": "no-such-table", "name": "pit 1"})
    assert missing.status_code == 404 and 'id="table_id-error"' in missing.get_data(as_text=True)
    issued = admin.post("/console/access/keys", {"table_id": table_id, "name": "pit 1 terminal"})
    assert issued.status_code == 201
    secret = re.search(r'id="issued-secret">([^<]+)<', issued.get_data(as_text=True)).group(1)
    bearer = {"Authorization": f"Bearer {secret}"}
    assert client.get(f"/v1/tables/{table_id}", headers=bearer).status_code == 200
    key_id = db.execute("SELECT key_id FROM api_keys WHERE table_id = %s", (table_id,)).fetchone()[0]
    assert db.execute("SELECT created_by FROM api_keys WHERE key_id = %s", (key_id,)).fetchone()[0] == \
        f"staff:{admin.login.username}"
    assert admin.post(f"/console/access/keys/{key_id}/revoke", {"reason": "replaced"}).status_code == 200, \
        "only the confirmation page's form revokes"
    assert client.get(f"/v1/tables/{table_id}", headers=bearer).status_code == 200
    revoked = admin.post(f"/console/access/keys/{key_id}/revoke", {"confirmed": "yes", "reason": "terminal replaced"})
    assert revoked.status_code == 303
    assert client.get(f"/v1/tables/{table_id}", headers=bearer).status_code == 401
    assert db.execute("SELECT payload->>'reason' FROM audit_log WHERE kind = 'key_revoked' AND payload->>'key_id' = %s",
                      (str(key_id),)).fetchone()[0] == "terminal replaced"
    again = admin.post(f"/console/access/keys/{key_id}/revoke", {"confirmed": "yes", "reason": "twice"})
    assert again.status_code == 409 and "revoked already" in again.get_data(as_text=True)


def test_the_access_review_lists_every_account_and_key_as_a_page_and_csv(signed_in, make_key):
    admin = signed_in("admin")
    make_key("compliance")
    make_key("operator")
    page = admin.get("/console/access/review")
    assert page.status_code == 200 and admin.login.username in page.get_data(as_text=True)
    download = admin.get("/console/access/review.csv")
    assert download.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(download.get_data(as_text=True))))
    mine = next(row for row in rows if row["id"] == admin.login.username)
    assert mine["kind"] == "staff" and mine["role"] == "admin" and mine["status"] == "active"
    assert mine["last_used_at"], "the admin's own sign-in is its last use"
    assert any(row["kind"] == "key" and row["role"] == "compliance" for row in rows)
    accounts = {row["id"] for row in rows if row["kind"] == "staff"}
    operators_keys = [row for row in rows if row["kind"] == "key" and row["role"] == "operator"]
    assert operators_keys and all(row["owner"] in accounts for row in operators_keys), "an operator's key is a person's"
    assert all(row["owner"] == "" for row in rows if row["kind"] == "key" and row["role"] == "terminal")


def test_an_access_post_without_its_csrf_token_is_refused(signed_in):
    admin = signed_in("admin")
    response = admin.post("/console/access/accounts", {"username": "nocsrf", "role": "admin"}, csrf=False)
    assert response.status_code == 400
    assert "Form refused" in response.get_data(as_text=True)
    wrong = admin.post("/console/access/accounts", {"username": "nocsrf", "role": "admin", "csrf_token": "forged"})
    assert wrong.status_code == 400


def test_a_name_that_looks_like_a_formula_reaches_the_csv_as_text(signed_in):
    admin = signed_in("admin")
    made = admin.post("/console/access/accounts", {"username": f"f{uuid.uuid4().hex[:8]}",
                                                   "display_name": "=HYPERLINK(\"x\")", "role": "operator"})
    assert made.status_code == 201
    rows = list(csv.DictReader(io.StringIO(admin.get("/console/access/review.csv").get_data(as_text=True))))
    assert any(row["name"] == "'=HYPERLINK(\"x\")" for row in rows)


@pytest.mark.parametrize("display_name", ["Nora\x00New", "Nora\u202eweN", "Nora\r\nNew"])
def test_a_display_name_with_a_nul_control_or_direction_override_is_a_422_at_its_field(signed_in, display_name):
    admin = signed_in("admin")
    refused = admin.post("/console/access/accounts", {"username": f"new{uuid.uuid4().hex[:8]}",
                                                      "display_name": display_name, "role": "operator"})
    assert refused.status_code == 422 and 'id="display_name-error"' in refused.get_data(as_text=True)
