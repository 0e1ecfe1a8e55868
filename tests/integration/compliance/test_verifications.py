"""Verifications of the whole audit log over HTTP: asked for by compliance keys, answered at once
as queued, followed at their Location to the verdict the worker keeps."""
from __future__ import annotations

import uuid

import pytest

from tests.support.scripted_rounds import SIMPLE_PUSH, play_script
from tests.support.verifications import finish_those_under_way, run_worker


@pytest.fixture
def nothing_under_way(database_url, db):
    finish_those_under_way(database_url, db)


def test_a_verification_is_queued_then_followed_to_its_verdict(compliance, new_table, settle, database_url, db,
                                                              nothing_under_way):
    table_id, terminal = new_table()
    settle([play_script(terminal, table_id, [{"seat": 1, "wager": 1000}], SIMPLE_PUSH)["round_id"]])
    asked = compliance.post("/v1/audit/verifications", {})
    assert asked.status == 202, asked.data
    queued = asked.body
    assert queued["status"] == "queued" and uuid.UUID(queued["requested_by"]), "the asking key, by its id"
    location = asked.headers["Location"]
    assert location.endswith(f"/v1/audit/verifications/{queued['verification_id']}")
    again = compliance.post("/v1/audit/verifications", {})
    assert again.status == 202 and again.body["verification_id"] == queued["verification_id"], "one at a time"

    run_worker(database_url, queued["verification_id"])
    done = compliance.get(location)
    assert done.status == 200
    verdict = done.body
    assert (verdict["status"], verdict["problem_count"], verdict["problems"]) == ("intact", 0, [])
    assert verdict["rounds"] >= 1 and verdict["records"] > 0 and verdict["finished_at"] is not None
    assert db.execute("SELECT actor FROM audit_log WHERE kind = 'audit_verified' "
                      "AND payload->>'verification_id' = %s", (queued["verification_id"],)).fetchone() \
        == (queued["requested_by"],)


def test_a_retried_request_is_answered_again_with_where_to_follow_it(compliance, nothing_under_way):
    key = f"verify-{uuid.uuid4().hex}"
    first = compliance.post("/v1/audit/verifications", {}, idempotency_key=key)
    retry = compliance.post("/v1/audit/verifications", {}, idempotency_key=key)
    assert first.status == retry.status == 202 and retry.data == first.data
    assert retry.headers.get("Idempotent-Replayed") == "true" and "Idempotent-Replayed" not in first.headers
    assert retry.headers["Location"] == first.headers["Location"]
    assert first.headers["Location"].endswith(f"/v1/audit/verifications/{first.body['verification_id']}")


def test_an_unknown_verification_is_not_found(compliance):
    reply = compliance.get("/v1/audit/verifications/00000000-0000-4000-8000-000000000000")
    assert reply.status == 404 and reply.body["code"] == "not_found", reply.body


@pytest.mark.parametrize("who", ["operator", "supervisor", "admin"])
def test_verifications_are_for_compliance_keys(request, who):
    api = request.getfixturevalue(who)
    assert api.post("/v1/audit/verifications", {}).status == 403
    assert api.get("/v1/audit/verifications/00000000-0000-4000-8000-000000000000").status == 403
