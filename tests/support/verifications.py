"""Running a verification of the audit log as the worker's task does, in-process, for the tests
that ask for one over the console or the API."""
from __future__ import annotations

import uuid

from service.audit.jobs import run_verification
from service.settlement.connection import connect
from service.store.repositories.verifications import VerificationStatus


def run_worker(database_url: str, verification_id: uuid.UUID | str) -> VerificationStatus | None:
    """What the worker's task does with the relayed message, on a connection of the application's own."""
    with connect(database_url, "test-verifier") as conn:
        return run_verification(conn, uuid.UUID(str(verification_id)))


def finish_those_under_way(database_url: str, owner) -> None:
    """Run to its end any verification another test left waiting or running (the role matrices
    press Verify too), so the next test asks for one of its own."""
    for (verification_id,) in owner.execute("SELECT verification_id FROM audit_verifications "
                                            "WHERE status IN ('queued', 'running')").fetchall():
        owner.execute("UPDATE audit_verifications SET status = 'queued' WHERE verification_id = %s",
                      (verification_id,))
        run_worker(database_url, verification_id)
