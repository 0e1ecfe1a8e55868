"""A paytable version's evaluation as a job, against PostgreSQL: queued by the draft's submission,
relayed one message each, run once by a real worker, failed saying why, taken over when its worker
died, and what approval waits for."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from psycopg.types.json import Jsonb

from bench.processes import process_env, wait_for
from service.operators.commands import DecidePaytableVersion, EvaluatePaytableVersion, SubmitPaytableVersion
from service.operators.evaluation_jobs import STALE_AFTER, UnderWayElsewhere, evaluate_version, run_evaluation
from service.operators.paytables import decide_version, submit_version
from service.refusals import Conflict
from service.rules.registry import paytables_dir
from service.settlement.relay import BrokerUnavailable, relay_evaluations
from service.store.repositories.audit import AuditRecord, AuditRepository, chain_for
from service.store.repositories.paytables import VersionStatus
from service.store.uow import UnitOfWork

pytestmark = pytest.mark.integration

NAME = "canberra-standard"
STATUS = "SELECT status, attempts, house_edge_percent IS NOT NULL, error FROM paytable_evaluations " \
         "WHERE paytable = %s AND version = %s"


def draft(conn, pair: str = "12:1", author: str = "staff:olive") -> int:
    """A draft of the standard paytable paying the pair at `pair`, submitted and committed as the
    API submits one; its number."""
    with open(f"{paytables_dir()}/{NAME}.yaml", encoding="utf-8") as handle:
        document = yaml.safe_load(handle)
    document.pop("version")
    document["side_bets"]["pair"]["pays"]["pair"] = pair
    uow = UnitOfWork(conn)
    with uow.transaction():
        submitted = submit_version(SubmitPaytableVersion(NAME, "pair promotion", author, content=document), uow)
    return submitted["version"]


def unpublished_evaluations(admin) -> int:
    return admin.execute("SELECT count(*) FROM outbox WHERE topic = 'evaluate_paytable' "
                         "AND published_at IS NULL").fetchone()[0]


def test_a_submitted_draft_is_evaluated_by_a_worker_once_and_then_approved(admin, app_conn, db_url, redis,
                                                                           processes):
    version = draft(app_conn)
    assert admin.execute(STATUS, (NAME, version)).fetchone() == ("queued", 0, False, None)
    uow = UnitOfWork(app_conn)
    with pytest.raises(Conflict) as early, uow.transaction():
        decide_version(DecidePaytableVersion(NAME, version, VersionStatus.APPROVED, "ok", "staff:otto"), uow)
    assert early.value.code == "evaluation_under_way" and "still being measured" in early.value.message

    processes.env = process_env(db_url, redis.url)
    processes.worker(concurrency=1)
    processes.relay(sweep_after=0)
    wait_for(lambda: admin.execute(STATUS, (NAME, version)).fetchone()[0] not in ("queued", "running"), 120,
             "the worker's figures")
    assert admin.execute(STATUS, (NAME, version)).fetchone() == ("done", 1, True, None)
    assert unpublished_evaluations(admin) == 0

    with uow.transaction():
        approved = decide_version(DecidePaytableVersion(NAME, version, VersionStatus.APPROVED, "ok", "staff:otto"),
                                  uow)
    kept = admin.execute("SELECT house_edge_percent FROM paytable_evaluations WHERE paytable = %s AND version = %s",
                         (NAME, version)).fetchone()[0]
    assert approved["status"] == "approved" and approved["house_edge_percent"] == pytest.approx(kept, abs=1e-4)


def test_evaluations_go_out_one_message_each_and_again_after_the_broker_refused(admin, app_conn):
    versions = [draft(app_conn, pair) for pair in ("12:1", "13:1")]
    sent: list[tuple[str, int]] = []

    def flaky(paytable: str, version: int) -> None:
        if sent:
            raise ConnectionError("broker went away")
        sent.append((paytable, version))

    with pytest.raises(BrokerUnavailable):
        relay_evaluations(app_conn, flaky, (ConnectionError,))
    assert sent == [(NAME, versions[0])] and unpublished_evaluations(admin) == 1
    again: list[tuple[str, int]] = []
    assert relay_evaluations(app_conn, lambda *message: again.append(message)) == 1
    assert again == [(NAME, versions[1])] and unpublished_evaluations(admin) == 0


def test_an_evaluation_that_cannot_finish_fails_saying_why_and_may_be_asked_for_again(admin, app_conn):
    # A version no submission would take (its measuring rules are not a house-banked game), put
    # in by hand as an older release could have kept it.
    content = {**yaml.safe_load(Path(paytables_dir(), f"{NAME}.yaml").read_text(encoding="utf-8")), "name": NAME,
               "version": 90, "measured_under": "british-traditional"}
    with admin.transaction():   # with its chained submission, as every stored version has one
        admin.execute("INSERT INTO paytable_versions (name, version, content, source, source_format, author, "
                      "reason) VALUES (%s, 90, %s, '{}', 'json', 'staff:olive', 'kept from before')",
                      (NAME, Jsonb(content)))
        AuditRepository(admin).append(chain_for(None), [AuditRecord("paytable_version_submitted", {
            "paytable": NAME, "version": 90, "status": "draft", "reason": "kept from before"},
            actor="staff:olive")])
    uow = UnitOfWork(app_conn)
    with uow.transaction():
        assert evaluate_version(EvaluatePaytableVersion(NAME, 90, "staff:olive"), uow)["status"] == "queued"
    assert run_evaluation(app_conn, NAME, 90) == "failed"
    status, attempts, measured, error = admin.execute(STATUS, (NAME, 90)).fetchone()
    assert (status, attempts, measured) == ("failed", 1, False) and "measured_under" in error
    with pytest.raises(Conflict) as refused, uow.transaction():
        decide_version(DecidePaytableVersion(NAME, 90, VersionStatus.APPROVED, "ok", "staff:otto"), uow)
    assert refused.value.code == "evaluation_failed" and "could not finish" in refused.value.message

    with uow.transaction():
        asked = evaluate_version(EvaluatePaytableVersion(NAME, 90, "staff:otto"), uow)
    assert asked["status"] == "queued" and asked["requested_by"] == "staff:otto" and asked["error"] is None
    assert unpublished_evaluations(admin) == 2, "the first message, and the one sending it again"


def test_an_evaluation_in_another_workers_hands_waits_and_one_whose_worker_died_is_taken_over(admin, app_conn):
    version = draft(app_conn)
    admin.execute("UPDATE paytable_evaluations SET status = 'running', attempts = 1, started_at = now() "
                  "WHERE paytable = %s AND version = %s", (NAME, version))
    with pytest.raises(UnderWayElsewhere) as taken:
        run_evaluation(app_conn, NAME, version)
    assert 0 < taken.value.look_again_in <= STALE_AFTER + 1
    uow = UnitOfWork(app_conn)
    with uow.transaction():
        assert evaluate_version(EvaluatePaytableVersion(NAME, version, "staff:otto"), uow)["requested_by"] == \
            "staff:olive", "one live stands"

    admin.execute("UPDATE paytable_evaluations SET started_at = now() - make_interval(secs => %s) "
                  "WHERE paytable = %s AND version = %s", (STALE_AFTER + 1, NAME, version))
    assert run_evaluation(app_conn, NAME, version) == "done"
    assert admin.execute(STATUS, (NAME, version)).fetchone() == ("done", 2, True, None)
    assert run_evaluation(app_conn, NAME, version) is None, "a message delivered again finds it done"
