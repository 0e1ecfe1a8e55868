"""/v1/audit/verifications: have a worker verify the whole audit log, and follow it to its verdict."""
from __future__ import annotations

import uuid

from flask import url_for
from flask.views import MethodView

from ...audit.jobs import request_verification
from ...web.access import Task, roles_for
from ..auth import access, principal, require
from ..blueprint import Blueprint
from ..docs import IDEMPOTENCY_KEY, documented
from ..errors import fail
from ..schemas.audit_verifications import VerificationSchema
from ..transactions import command, request_uow

blp = Blueprint("audit_verifications", __name__, url_prefix="/v1/audit/verifications",
                description="Verifications of the whole audit log, run by a worker")


def _location(verification: dict) -> dict[str, str]:
    """Where a verification is followed (GET, getAuditVerification)."""
    return {"Location": url_for("audit_verifications.Verification", verification_id=verification["verification_id"])}


@blp.route("")
class Verifications(MethodView):
    @command(access(*roles_for(Task.AUDIT)), replayed_headers=_location)
    @blp.response(202, VerificationSchema, headers={
        "Location": {"description": "the verification, to follow (also on a replayed answer)",
                     "schema": {"type": "string", "format": "uri-reference"}}})
    @documented(blp, "requestAuditVerification", headers=(IDEMPOTENCY_KEY,))
    def post(self):
        """Ask for a verification of the whole audit log.

        A settlement worker verifies the whole log, as `pontoon audit verify` does in place:
        every chain to its head, every closed shoe's commitment, every round against the ledger.
        Answers at once with the verification, queued; follow it at its Location. One runs at a
        time: asking while one is waiting or running answers that one (sent to the workers again
        if it has shown no progress for a minute). The verdict is also recorded in the log
        (audit_verified)."""
        verification = request_verification(request_uow(), principal().actor).verification
        return verification, 202, _location({"verification_id": verification.verification_id})


@blp.route("/<uuid:verification_id>")
class Verification(MethodView):
    @require(*roles_for(Task.AUDIT))
    @blp.response(200, VerificationSchema)
    @documented(blp, "getAuditVerification", 404)
    def get(self, verification_id: uuid.UUID):
        """Read a verification of the audit log.

        Queued, running (records and rounds checked so far), or its verdict,
        with the first 200 problems of a broken log."""
        found = request_uow().verifications.get(verification_id)
        if found is None:
            fail(404, "not_found", f"no verification {verification_id}")
        return found
