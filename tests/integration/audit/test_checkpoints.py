"""Signed checkpoints of the chains' heads, kept outside the database: a chain re-hashed or cut
short by a superuser verifies intact by itself, and is caught against the checkpoints."""
from __future__ import annotations

import json
import os
from pathlib import Path

import psycopg
import pytest
from psycopg.types.json import Jsonb

from service.app import create_app
from service.audit.checkpoints import (
    CheckpointSchedule,
    check_checkpoints,
    checkpoint_database,
    load_or_create_key,
    read_checkpoints,
)
from service.audit.export import iter_records
from service.audit.report import Report
from service.audit.verify import verify_database
from service.config import Settings
from service.store.audit_hash import record_hash
from service.store.repositories.audit import AuditRepository
from tests.support.app_fixtures import chained_key

pytestmark = pytest.mark.integration


@pytest.fixture
def signing_key(tmp_path):
    return load_or_create_key(tmp_path / "checkpoint.key")


@pytest.fixture
def checkpointed(settled_casino, app_conn, signing_key, tmp_path) -> Path:
    directory = tmp_path / "checkpoints"
    checkpoint_database(app_conn, signing_key, directory)
    return directory


def against_checkpoints(db_url: str, directory: Path, signing_key) -> list[str]:
    report = Report()
    with psycopg.connect(db_url, autocommit=True) as conn:
        check_checkpoints(conn, read_checkpoints(directory), report, signing_key.public_key())
    return [str(problem) for problem in report.problems]


def chain_problems(db_url: str) -> list[str]:
    with psycopg.connect(db_url, autocommit=True) as conn:
        return [str(problem) for problem in verify_database(conn, rounds=False).problems]


def rehash_from(admin: psycopg.Connection, chain: str, seq: int, change) -> None:
    """As a superuser would: change the record at `seq`, re-hash it and every later one, and move the head."""
    with admin.transaction():
        records = [r for r in iter_records(AuditRepository(admin), order_by="chain") if r["chain"] == chain]
    admin.execute("SET session_replication_role = replica")
    prev = None
    for record in records:
        if record["seq"] < seq:
            prev = record["hash"]
            continue
        if record["seq"] == seq:
            change(record["payload"])
        record["prev_hash"] = prev
        record["hash"] = record_hash(record["chain"], record["seq"], record["at"], record["kind"], record["actor"],
                                     record["table_id"], record["round_id"], record["payload"], prev)
        admin.execute("UPDATE audit_log SET payload = %s, prev_hash = %s, hash = %s WHERE id = %s",
                      (Jsonb(record["payload"]), record["prev_hash"], record["hash"], record["id"]))
        prev = record["hash"]
    admin.execute("UPDATE audit_chain_heads SET hash = %s WHERE chain = %s", (prev, chain))


def truncate(admin: psycopg.Connection, chain: str, count: int) -> None:
    admin.execute("SET session_replication_role = replica")
    seq = admin.execute("SELECT seq FROM audit_chain_heads WHERE chain = %s", (chain,)).fetchone()[0] - count
    admin.execute("DELETE FROM audit_log WHERE chain = %s AND seq > %s", (chain, seq))
    admin.execute("UPDATE audit_chain_heads SET seq = %s, hash = (SELECT hash FROM audit_log WHERE chain = %s "
                  "AND seq = %s) WHERE chain = %s", (seq, chain, seq, chain))


def test_an_untouched_database_extends_its_checkpoints(db_url, checkpointed, signing_key):
    assert read_checkpoints(checkpointed)
    assert against_checkpoints(db_url, checkpointed, signing_key) == []


def test_a_rehashed_tail_verifies_by_itself_but_not_against_the_checkpoints(db_url, admin, checkpointed,
                                                                            signing_key):
    def raise_tenfold(payload):
        payload["tampered"] = True
    rehash_from(admin, "table:T1", 2, raise_tenfold)
    assert chain_problems(db_url) == []     # the chain alone cannot tell
    found = against_checkpoints(db_url, checkpointed, signing_key)
    assert any("chain table:T1" in p and "re-hashed" in p for p in found), found


@pytest.mark.parametrize("count", [1, 20])
def test_a_truncated_chain_is_caught_against_the_checkpoints(db_url, admin, checkpointed, signing_key, count):
    truncate(admin, "table:T2", count)
    assert chain_problems(db_url) == []
    found = against_checkpoints(db_url, checkpointed, signing_key)
    assert any("chain table:T2" in p and "cut short" in p for p in found), found


def test_a_forged_checkpoint_is_named(db_url, checkpointed, signing_key, tmp_path):
    path = next(checkpointed.iterdir())
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    lines[0]["seq"] -= 1
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    found = against_checkpoints(db_url, checkpointed, signing_key)
    assert any("signature does not verify" in p for p in found), found


def test_the_command_fails_on_a_truncated_chain(pontoon, admin, checkpointed, signing_key, tmp_path):
    truncate(admin, "table:T1", 1)
    result = pontoon("audit", "verify", "--no-rounds", "--checkpoints", str(checkpointed),
                     "--public-key", signing_key.public_key().public_bytes_raw().hex())
    assert result.returncode == 1, result.stdout + result.stderr
    assert "chain table:T1" in result.stdout and "cut short" in result.stdout


def test_the_key_file_is_readable_by_its_owner_only(tmp_path):
    load_or_create_key(tmp_path / "k.pem")
    assert (tmp_path / "k.pem").stat().st_mode & 0o777 == 0o600
    assert load_or_create_key(tmp_path / "k.pem").public_key() is not None


def test_a_checkpoint_is_due_after_the_interval_and_when_the_gaming_day_turns():
    schedule = CheckpointSchedule(every=300)
    assert schedule.due(0, "d1")
    schedule.done(0, "d1")
    assert not schedule.due(299, "d1")
    assert schedule.due(300, "d1")
    assert schedule.due(10, "d2")


def test_an_export_of_a_rehashed_chain_is_caught_offline_against_the_checkpoints(pontoon, admin, checkpointed,
                                                                                 signing_key, tmp_path):
    key = signing_key.public_key().public_bytes_raw().hex()
    export = tmp_path / "export.jsonl"
    with open(export, "w") as out:
        assert pontoon("audit", "export", stdout=out).returncode == 0
    intact = pontoon("audit", "verify", str(export), "--checkpoints", str(checkpointed), "--public-key", key)
    assert intact.returncode == 0, intact.stdout + intact.stderr

    rehash_from(admin, "table:T1", 3, lambda payload: payload.update(tampered=True))
    with open(export, "w") as out:
        assert pontoon("audit", "export", stdout=out).returncode == 0
    caught = pontoon("audit", "verify", str(export), "--checkpoints", str(checkpointed), "--public-key", key)
    assert caught.returncode == 1, caught.stdout + caught.stderr
    assert "chain table:T1" in caught.stdout and "re-hashed" in caught.stdout


def test_the_compliance_export_carries_the_checkpoints(db_url, checkpointed):
    app = create_app(Settings.from_env({**os.environ, "DATABASE_URL": db_url,
                                        "PONTOON_CHECKPOINT_DIR": str(checkpointed)}))
    try:
        with psycopg.connect(db_url) as conn:
            compliance, operator = chained_key(conn, "compliance", None, "c"), chained_key(conn, "operator", None, "o")
        client = app.test_client()
        got = client.get("/v1/audit/checkpoints", headers={"Authorization": f"Bearer {compliance}"})
        assert got.status_code == 200, got.get_data(as_text=True)
        assert [json.loads(line) for line in got.get_data(as_text=True).splitlines()] == read_checkpoints(checkpointed)
        assert got.mimetype == "application/x-ndjson"
        as_text = client.get("/v1/audit/checkpoints", headers={"Authorization": f"Bearer {compliance}",
                                                               "Accept": "text/plain"})
        assert as_text.mimetype == "text/plain" and as_text.get_data() == got.get_data()
        assert client.get("/v1/audit/checkpoints",
                          headers={"Authorization": f"Bearer {operator}"}).status_code == 403
    finally:
        app.extensions["pontoon.pool"].close()
