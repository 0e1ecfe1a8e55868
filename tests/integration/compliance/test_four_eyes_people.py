"""Four eyes between people, run as the trial ran it against PostgreSQL: two operator keys an admin
mints for one person, and one person's console draft approved with their own API key, are refused
as the same person; an approval without the approver's password, with a wrong one, or by a person
whose password an admin set and who has not set their own, is refused; a key is its person's."""
from __future__ import annotations

import secrets

import psycopg
import pytest
import yaml

from service.rules.registry import paytables_dir
from service.staff.accounts import create_staff, deactivate_staff
from service.staff.commands import CreateStaff, DeactivateStaff
from service.store.uow import unit_of_work
from tests.integration.console.console_client import ConsoleClient
from tests.support.api_client import Api, ok
from tests.support.app_fixtures import chained_person

pytestmark = pytest.mark.integration

NAME = "pontoon-bonuses"    # a paytable the folder's other tests leave alone: approvals here change no one's base
PASSWORD = "an operator's own passphrase"


def document(odds: str) -> dict:
    with open(f"{paytables_dir()}/{NAME}.yaml", encoding="utf-8") as handle:
        content = yaml.safe_load(handle)
    content.pop("version")
    content["bonuses"]["5_card_21"] = odds
    return content


def person(database_url: str, role: str = "operator") -> str:
    """A new account whose password is its person's own; its username."""
    username = f"{role[:4]}-{secrets.token_hex(4)}"
    with psycopg.connect(database_url) as conn:
        chained_person(conn, role, PASSWORD, username)
    return username


def mint(admin: Api, as_key, username: str, role: str = "operator") -> Api:
    """A key an admin mints over the API for the person named."""
    created = ok(admin.post("/v1/keys", {"role": role, "name": f"{username}'s key", "owner": username}), 201)
    assert created["owner"] == username and created["owner_id"]
    return as_key(created["secret"])


def draft(api: Api, evaluate, odds: str = "2:1") -> int:
    version = ok(api.post(f"/v1/paytables/{NAME}/versions", {"reason": "five-card promotion",
                                                              "content": document(odds)}), 201)["version"]
    assert evaluate(NAME, version) == "done"
    return int(version)


def approve(api: Api, version: int, password: str | None = PASSWORD, **extra):
    body = {"reason": "checked against the sheet", **extra}
    if password is not None:
        body["password"] = password
    return api.post(f"/v1/paytables/{NAME}/versions/{version}/approve", body)


def status_of(db, version: int) -> str:
    return db.execute("SELECT status FROM paytable_versions WHERE name = %s AND version = %s",
                      (NAME, version)).fetchone()[0]


def test_two_keys_an_admin_mints_for_one_person_cannot_draft_and_approve(admin, as_key, database_url, db, evaluate):
    olly = person(database_url)
    first, second = mint(admin, as_key, olly), mint(admin, as_key, olly)
    version = draft(first, evaluate)
    refused = approve(second, version)
    assert refused.status == 403 and refused.body["code"] == "own_draft", refused.body
    assert olly in refused.body["message"] and "another identity" in refused.body["message"]
    assert status_of(db, version) == "draft"
    recorded = db.execute("SELECT payload->>'person' FROM audit_log WHERE kind = 'paytable_approval_refused' "
                          "AND payload->>'version' = %s", (str(version),)).fetchall()
    assert recorded == [(olly,)], "the refusal names the person"
    # Another person's key approves it.
    approved = ok(approve(mint(admin, as_key, person(database_url)), version), 200)
    assert approved["status"] == "approved"


def test_a_console_draft_approved_with_its_authors_own_key_is_refused(app, admin, as_key, database_url, db,
                                                                       evaluate):
    olly = person(database_url)
    console = ConsoleClient(app.test_client())
    assert console.sign_in(olly, PASSWORD, role="operator").status_code == 302
    latest = db.execute("SELECT max(version) FROM paytable_versions WHERE name = %s", (NAME,)).fetchone()[0]
    text = yaml.safe_dump({"name": NAME, "version": latest + 1, **document("5:2")}, sort_keys=False)
    submitted = console.post(f"/console/paytables/{NAME}/draft", {"yaml": text, "reason": "five-card promotion"})
    assert submitted.status_code == 303, submitted.get_data(as_text=True)[:1000]
    version = int(submitted.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    assert evaluate(NAME, version) == "done"
    refused = approve(mint(admin, as_key, olly), version)
    assert refused.status == 403 and refused.body["code"] == "own_draft" and olly in refused.body["message"]
    assert status_of(db, version) == "draft"
    # And the other way: a key's draft is not approved at its person's console.
    key_draft = draft(mint(admin, as_key, olly), evaluate, "3:1")
    page = console.get(f"/console/paytables/{NAME}/{key_draft}").get_data(as_text=True)
    assert "data-own-draft" in page and 'value="approve"' not in page
    by_console = console.post(f"/console/paytables/{NAME}/{key_draft}/decision",
                              {"decision": "approve", "reason": "mine after all", "password": PASSWORD})
    assert by_console.status_code == 403 and "four eyes" in by_console.get_data(as_text=True)
    assert status_of(db, key_draft) == "draft"


def test_an_approval_asks_for_the_approvers_password_again(admin, as_key, database_url, db, evaluate):
    author, approver_name = mint(admin, as_key, person(database_url)), person(database_url)
    approver = mint(admin, as_key, approver_name)
    version = draft(author, evaluate)
    missing = approve(approver, version, password=None)
    assert missing.status == 422 and "password" in missing.body["errors"], missing.body
    wrong = approve(approver, version, password="a guess")
    assert wrong.status == 403 and wrong.body["code"] == "not_confirmed", wrong.body
    assert status_of(db, version) == "draft"
    counted = db.execute("SELECT f.failures FROM staff_sign_in_failures f JOIN staff_users u USING (user_id) "
                         "WHERE u.username = %s", (approver_name,)).fetchall()
    assert counted == [(1,)], "a wrong password at approval counts toward the sign-in lock"
    kept = db.execute("SELECT payload->>'reason' FROM audit_log WHERE kind = 'staff_sign_in_failed' "
                      "AND payload->>'username' = %s", (approver_name,)).fetchall()
    assert kept == [("confirmation_wrong_password",)]
    assert ok(approve(approver, version), 200)["status"] == "approved"


def test_no_approval_before_the_person_sets_their_own_password(app, admin, as_key, database_url, db, evaluate):
    author = mint(admin, as_key, person(database_url))
    newbie = f"newb-{secrets.token_hex(4)}"
    given = "handed over by the admin"
    with unit_of_work(app.extensions["pontoon.pool"]) as uow, uow.transaction():
        user_id = create_staff(CreateStaff(newbie, "operator", actor="staff:root", password=given), uow).account[
            "user_id"]
    assert db.execute("SELECT password_set_by FROM staff_users WHERE username = %s",
                      (newbie,)).fetchone() == ("staff:root",)
    key = mint(admin, as_key, newbie)
    version = draft(author, evaluate)
    refused = approve(key, version, password=given)
    assert refused.status == 403 and refused.body["code"] == "password_not_own", refused.body
    assert "set their own" in refused.body["message"]
    # At the console the person is sent to set their own first.
    console = ConsoleClient(app.test_client())
    console.sign_in(newbie, given, role="operator")
    assert console.get("/console/paytables").headers["Location"].endswith("/console/account")
    assert "data-must-change-password" in console.get("/console/account").get_data(as_text=True)
    # With their key, the person sets their own (the one they were given confirms it is them).
    wrong = key.post("/v1/account/password", {"current_password": "a guess", "new_password": PASSWORD})
    assert wrong.status == 403 and wrong.body["code"] == "not_confirmed"
    own = ok(key.post("/v1/account/password", {"current_password": given, "new_password": PASSWORD}), 200)
    assert own == {"username": newbie, "password_own": True, "sessions_ended": 1}
    assert db.execute("SELECT password_set_by FROM staff_users WHERE user_id = %s", (user_id,)).fetchone() == (None,)
    assert ok(approve(key, version), 200)["status"] == "approved"
    assert console.get("/console/paytables").headers.get("Location", "").startswith("/console/login"), \
        "setting one's password ends one's console sessions"


@pytest.mark.parametrize("role", ["admin", "operator", "supervisor"])
def test_a_key_that_acts_for_a_person_names_them(admin, role):
    refused = admin.post("/v1/keys", {"role": role, "name": "automation"})
    assert refused.status == 422 and "owner" in refused.body["errors"], refused.body


def test_a_key_stops_with_its_persons_account(app, admin, as_key, database_url):
    olly = person(database_url)
    key = mint(admin, as_key, olly)
    assert key.get(f"/v1/paytables/{NAME}/versions").status == 200
    with unit_of_work(app.extensions["pontoon.pool"]) as uow, uow.transaction():
        deactivate_staff(DeactivateStaff(olly, "staff:root", "left the casino"), uow)
    refused = key.get(f"/v1/paytables/{NAME}/versions")
    assert refused.status == 401 and refused.body["code"] == "key_owner_deactivated"


def test_wrong_passwords_at_approval_lock_the_person_as_failed_sign_ins_do(app, admin, as_key, database_url, settings,
                                                                           evaluate):
    author, approver_name = mint(admin, as_key, person(database_url)), person(database_url)
    approver = mint(admin, as_key, approver_name)
    version = draft(author, evaluate)
    for _ in range(settings.console_max_failures):
        assert approve(approver, version, password="a guess").status == 403
    locked = approve(approver, version)   # the right password, from the address that guessed
    assert locked.status == 403 and "locked" in locked.body["message"], locked.body
    assert ConsoleClient(app.test_client()).sign_in(approver_name, PASSWORD).status_code != 302, \
        "the console's sign-in from that address is locked too"
