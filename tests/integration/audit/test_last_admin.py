"""The last live admin key cannot be revoked over the API, by another admin key or by itself (409)."""
from __future__ import annotations

import threading

import psycopg
import pytest

from tests.support.app_fixtures import chained_key_with_id

pytestmark = pytest.mark.integration


@pytest.fixture
def make_key(db_url):
    def make(role: str, table: str | None = None) -> tuple[str, str]:
        with psycopg.connect(db_url) as conn:
            return chained_key_with_id(conn, role, table, f"test {role}")
    return make


def revoke(client, secret: str, key_id: str, idempotency: str):
    return client.post(f"/v1/keys/{key_id}/revoke", json={"reason": "leaving"},
                       headers={"Authorization": f"Bearer {secret}", "Idempotency-Key": idempotency})


def live_admins(db) -> int:
    return db.execute("SELECT count(*) FROM api_keys WHERE role = 'admin' AND revoked_at IS NULL").fetchone()[0]


def test_the_last_admin_key_cannot_revoke_itself(client, admin, make_key):
    key_id, secret = make_key("admin")
    refused = revoke(client, secret, key_id, "self-1")
    assert refused.status_code == 409 and refused.get_json()["code"] == "last_admin_key", refused.get_json()
    assert live_admins(admin) == 1
    assert admin.execute("SELECT count(*) FROM audit_log WHERE kind = 'key_revoked'").fetchone() == (0,)


def test_an_admin_may_revoke_another_admin_but_not_the_last_one(client, admin, make_key):
    first_id, first = make_key("admin")
    second_id, second = make_key("admin")
    assert revoke(client, first, second_id, "other-1").status_code == 200
    refused = revoke(client, first, first_id, "self-2")
    assert refused.status_code == 409 and refused.get_json()["code"] == "last_admin_key"
    assert live_admins(admin) == 1
    # Another role's keys are revoked as before, down to the last one.
    terminal_id, _ = make_key("operator")
    assert revoke(client, first, terminal_id, "operator-1").status_code == 200


def test_an_admin_key_may_revoke_itself_while_another_stays(client, admin, make_key):
    first_id, first = make_key("admin")
    make_key("admin")
    assert revoke(client, first, first_id, "self-3").status_code == 200
    assert live_admins(admin) == 1


def test_two_admins_revoking_each_other_at_once_leave_one(db_url, client, admin, make_key):
    # Two processes' worth of connections: each revocation in its own app client and transaction.
    first_id, first = make_key("admin")
    second_id, second = make_key("admin")
    statuses: list[int] = []
    start = threading.Barrier(2)

    def run(secret: str, key_id: str, idempotency: str) -> None:
        start.wait()
        statuses.append(revoke(client.application.test_client(), secret, key_id, idempotency).status_code)

    threads = [threading.Thread(target=run, args=(first, second_id, "x-1")),
               threading.Thread(target=run, args=(second, first_id, "x-2"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert live_admins(admin) == 1
    assert sorted(statuses) in ([200, 401], [200, 409]), statuses
