"""Refusals before a valid key is known are counted and summed per source and minute; a known key's are chained."""
from __future__ import annotations

import logging
import os

import pytest

from service.store.repositories.keys import KeysRepository
from tests.support.metrics import sample

pytestmark = pytest.mark.integration


def refused_count(reason: str) -> float:
    return sample("pontoon_access_refused_total", status="401", reason=reason) if not os.environ.get(
        "PROMETHEUS_MULTIPROC_DIR") else 0.0


def audit_rows(admin) -> int:
    """Audit records about access (starting the app seeds paytable versions, which is not that)."""
    return admin.execute("SELECT count(*) FROM audit_log WHERE kind LIKE 'access%'").fetchone()[0]


def test_anonymous_refusals_are_counted_and_logged_but_not_chained(client, admin, caplog):
    secret = "pnt_not-a-real-key-but-secret-looking"
    with caplog.at_level(logging.WARNING, logger="pontoon.access"):
        for headers in ({}, {"Authorization": "Basic abc"}, {"Authorization": f"Bearer {secret}"}):
            assert client.get("/v1/tables/T1", headers=headers, environ_base={"REMOTE_ADDR": "10.0.0.7"}
                              ).status_code == 401
    assert audit_rows(admin) == 0
    assert admin.execute("SELECT source, refused, reasons, chained FROM access_refusals").fetchall() == [
        ("10.0.0.7", 3, {"unauthorized": 3}, False)]
    refusals = [r for r in caplog.records if r.name == "pontoon.access"]
    assert len(refusals) == 3 and all(r.source == "10.0.0.7" and r.path == "/v1/tables/T1" for r in refusals)
    assert secret not in caplog.text


def test_ten_thousand_anonymous_requests_add_a_bounded_number_of_audit_rows(client, admin):
    before = audit_rows(admin)
    for number in range(10_000):
        headers = {"Authorization": f"Bearer pnt_guess{number}"} if number % 2 else {}
        assert client.get("/v1/tables/T1", headers=headers,
                          environ_base={"REMOTE_ADDR": f"10.0.0.{number % 4}"}).status_code == 401
    minutes = admin.execute("SELECT count(DISTINCT minute) FROM access_refusals").fetchone()[0]
    # At most one summary per source (four here) and minute, and only for minutes already over.
    assert audit_rows(admin) - before <= 4 * (minutes - 1)
    assert admin.execute("SELECT sum(refused) FROM access_refusals").fetchone()[0] == 10_000


def test_a_minute_over_becomes_one_summary_record_written_once(client, admin):
    admin.execute("INSERT INTO access_refusals (source, minute, refused, reasons) VALUES "
                  "('10.0.0.9', date_trunc('minute', now()) - interval '2 minutes', 41, '{\"unauthorized\": 41}'), "
                  "('10.0.0.8', date_trunc('minute', now()) - interval '2 minutes', 2, '{\"unauthorized\": 2}')")
    for _ in range(3):
        assert client.get("/v1/tables/T1").status_code == 401
    summaries = admin.execute("SELECT chain, actor, payload FROM audit_log WHERE kind = 'access_refused_summary' "
                              "ORDER BY seq").fetchall()
    assert [(chain, actor, p["source"], p["refused"], p["reasons"]) for chain, actor, p in summaries] == [
        ("system", None, "10.0.0.8", 2, {"unauthorized": 2}), ("system", None, "10.0.0.9", 41, {"unauthorized": 41})]
    assert admin.execute("SELECT count(*) FROM access_refusals WHERE NOT chained").fetchone()[0] == 1   # this minute


def test_a_known_keys_refusal_stays_a_record_of_its_own(client, admin, db_url):
    import psycopg
    with psycopg.connect(db_url) as conn:
        key, secret = KeysRepository(conn).create(role="terminal", table_id="T9", name="t", created_by="test")
    for _ in range(2):
        assert client.post("/v1/tables", json={}, headers={"Authorization": f"Bearer {secret}"}).status_code == 403
    denied = admin.execute("SELECT actor, payload->>'status' FROM audit_log WHERE kind = 'access_denied'").fetchall()
    assert denied == [(str(key.key_id), "403")] * 2
    assert admin.execute("SELECT count(*) FROM access_refusals").fetchone()[0] == 0


@pytest.mark.skipif(bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR")), reason="counters live in files then")
def test_anonymous_refusals_are_counted_in_metrics(client):
    before = refused_count("unauthorized")
    assert client.get("/v1/tables/T1").status_code == 401
    assert refused_count("unauthorized") == before + 1
