"""`pontoon migrate` and `pontoon keys create|revoke|list`, run as commands against DATABASE_URL."""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import uuid

from tests.conftest import ROOT
from tests.support.api_client import Api, flask_sender, ok


def pontoon(database_url: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "service.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "DATABASE_URL": database_url}, timeout=60)


def test_migrate_is_idempotent(database_url):
    assert pontoon(database_url, "migrate").returncode == 0
    again = pontoon(database_url, "migrate")
    assert again.returncode == 0 and "up to date" in again.stdout


def test_a_created_key_works_until_revoked(database_url, client, db):
    username = f"night-{uuid.uuid4().hex[:6]}"
    nobodys = pontoon(database_url, "keys", "create", "--role", "supervisor", "--name", "night shift")
    assert nobodys.returncode == 2 and "--owner" in nobodys.stderr, "a supervisor's key belongs to a person"
    assert pontoon(database_url, "users", "create", "--username", username, "--role", "supervisor").returncode == 0
    wrong_role = pontoon(database_url, "keys", "create", "--role", "operator", "--owner", username)
    assert wrong_role.returncode == 1 and "supervisor, not operator" in wrong_role.stderr
    created = pontoon(database_url, "keys", "create", "--role", "supervisor", "--name", "night shift",
                      "--owner", username)
    assert created.returncode == 0, created.stderr
    assert f"owner {username}" in created.stdout.splitlines()[0]
    assert db.execute("SELECT u.username FROM api_keys k JOIN staff_users u ON u.user_id = k.owner_id "
                      "WHERE k.key_id = %s", (created.stdout.split()[1],)).fetchone() == (username,)
    secret = created.stdout.strip().splitlines()[-1]
    assert secret.startswith("pnt_") and " " not in secret
    key_id = created.stdout.split()[1]
    stored = db.execute("SELECT key_hash, role, name FROM api_keys WHERE key_id = %s", (key_id,)).fetchone()
    assert stored == (hashlib.sha256(secret.encode()).hexdigest(), "supervisor", "night shift")
    assert not db.execute("SELECT count(*) FROM audit_log WHERE payload::text LIKE %s", (f"%{secret}%",)).fetchone()[0]

    reader = Api(flask_sender(client), secret)
    assert reader.get("/v1/tables/none-such").status == 404
    listed = pontoon(database_url, "keys", "list")
    assert key_id in listed.stdout and secret not in listed.stdout

    revoked = pontoon(database_url, "keys", "revoke", key_id)
    assert revoked.returncode == 0, revoked.stderr
    assert reader.get("/v1/tables/none-such").status == 401
    again = pontoon(database_url, "keys", "revoke", key_id)
    assert again.returncode == 1 and "no live key" in again.stderr


def test_a_terminal_key_needs_its_table(database_url, db, admin):
    refused = pontoon(database_url, "keys", "create", "--role", "terminal")
    assert refused.returncode == 2 and "--table" in refused.stderr
    # As the API does, the command refuses a key for a table that does not exist, and makes none.
    before = db.execute("SELECT count(*) FROM api_keys").fetchone()[0]
    unknown = pontoon(database_url, "keys", "create", "--role", "terminal", "--table", "NOPE")
    assert unknown.returncode == 1 and "no table 'NOPE'" in unknown.stderr and not unknown.stdout
    assert db.execute("SELECT count(*) FROM api_keys").fetchone()[0] == before
    table_id = f"T-{uuid.uuid4().hex[:8]}"
    ok(admin.post("/v1/tables", {"table_id": table_id, "rules": "british-traditional"}), 201)
    made = pontoon(database_url, "keys", "create", "--role", "terminal", "--table", table_id)
    assert made.returncode == 0, made.stderr
    assert db.execute("SELECT table_id FROM api_keys WHERE key_id = %s",
                      (made.stdout.split()[1],)).fetchone()[0] == table_id
