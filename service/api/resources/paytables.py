"""/v1/paytables and /v1/tables/{table_id}/paytable: paytable versions under change control
(drafts, four-eyes approval, assignment to a table from its next round)."""
from __future__ import annotations

from flask import current_app, request
from flask.views import MethodView

from ...operators import evaluation_jobs, paytables
from ...operators.commands import (
    AssignPaytable,
    DecidePaytableVersion,
    EvaluatePaytableVersion,
    SubmitPaytableVersion,
)
from ...staff.confirmation import Confirmation
from ...store.repositories.paytables import VersionStatus
from ...web.access import Task, roles_for
from ...web.schemas.paytables import ApprovalSchema, AssignPaytableSchema, DecisionSchema
from ..auth import access, principal, require, table_in_path
from ..blueprint import Blueprint
from ..docs import IDEMPOTENCY_KEY, documented
from ..schemas.paytables import (
    EvaluationSchema,
    PaytableVersionsSchema,
    SubmitVersionSchema,
    TablePaytableSchema,
    VersionSchema,
)
from ..transactions import command, request_uow

blp = Blueprint("paytables", __name__, url_prefix="/v1",
                description="Paytable versions: drafts, four-eyes approval, assignment to tables")



@blp.route("/paytables")
class Paytables(MethodView):
    @require(*roles_for(Task.SEE_PAYTABLES))
    @blp.response(200, PaytableVersionsSchema(many=True))
    @documented(blp, "listPaytables")
    def get(self):
        """List every paytable and its versions.

        Each version's status, author, decision and house edge."""
        return paytables.list_paytables(request_uow())


@blp.route("/paytables/<paytable_name:name>/versions")
class Versions(MethodView):
    @require(*roles_for(Task.SEE_PAYTABLES))
    @blp.response(200, PaytableVersionsSchema)
    @documented(blp, "listPaytableVersions", 404)
    def get(self, name):
        """List a paytable's versions.

        Oldest first, each with its status, author, decision and house edge."""
        return paytables.list_versions(request_uow(), name)

    @command(access(*roles_for(Task.CHANGE_PAYTABLES)))
    @blp.arguments(SubmitVersionSchema())
    @blp.response(201, VersionSchema)
    @documented(blp, "submitPaytableVersion", 404, headers=(IDEMPOTENCY_KEY,))
    def post(self, body, name):
        """Submit a paytable's next version as a draft.

        The draft is sent (YAML text or a JSON object) with a reason. It is
        validated as the engine reads it: each bad field is named (422). Another operator must
        approve it before any table can use it."""
        return paytables.submit_version(SubmitPaytableVersion(
            name, body["reason"], principal().actor, yaml_text=body.get("yaml"), content=body.get("content")),
            request_uow())


@blp.route("/paytables/<paytable_name:name>/versions/<int:version>")
class Version(MethodView):
    @require(*roles_for(Task.SEE_PAYTABLES))
    @blp.response(200, VersionSchema)
    @documented(blp, "getPaytableVersion", 404)
    def get(self, name, version):
        """Read a paytable version.

        Its odds, house edge, what changed from the version it was drafted from, and
        its trail (submitted, approved or rejected, assigned, applied), each step with who, when
        and why. Versions are never edited: a change is a new version."""
        return paytables.version(request_uow(), name, version)


@blp.route("/paytables/<paytable_name:name>/versions/<int:version>/evaluation")
class Evaluation(MethodView):
    @require(*roles_for(Task.SEE_PAYTABLES))
    @blp.response(200, EvaluationSchema)
    @documented(blp, "getPaytableEvaluation", 404)
    def get(self, name, version):
        """Read a paytable version's evaluation.

        Queued for a worker, running, done with its house edge and RTP
        (the figures its approval keeps), or failed saying why. A draft's submission asks for it."""
        return evaluation_jobs.evaluation_of(request_uow(), name, version)

    @command(access(*roles_for(Task.CHANGE_PAYTABLES)))
    @blp.response(202, EvaluationSchema)
    @documented(blp, "requestPaytableEvaluation", 404, headers=(IDEMPOTENCY_KEY,))
    def post(self, name, version):
        """Ask a worker to evaluate a paytable version.

        One never asked for (a version seeded from
        its file), failed, or gone quiet for five minutes is queued again; one under way or done
        stands and is returned as it is."""
        return evaluation_jobs.evaluate_version(EvaluatePaytableVersion(name, version, principal().actor),
                                                request_uow())


def _decide(decision: VersionStatus, body: dict, name: str, version: int) -> dict:
    confirmation = (Confirmation(body["password"], body.get("totp", ""), request.remote_addr)
                    if "password" in body else None)
    return paytables.decide_version(DecidePaytableVersion(name, version, decision, body["reason"], principal().actor,
                                                          confirmation),
                                    request_uow(), current_app.extensions["pontoon.staff_policy"])


@blp.route("/paytables/<paytable_name:name>/versions/<int:version>/approve")
class Approve(MethodView):
    @command(access(*roles_for(Task.CHANGE_PAYTABLES)))
    @blp.arguments(ApprovalSchema())
    @blp.response(200, VersionSchema)
    @documented(blp, "approvePaytableVersion", 404, 409, headers=(IDEMPOTENCY_KEY,))
    def post(self, body, name, version):
        """Approve a paytable draft.

        By the person the key belongs to, who confirms it is them: their password (and their
        TOTP code when enrolled) again, in the body (403 not_confirmed when wrong; each failure
        counts toward their sign-in lock). Never by its author through any identity of theirs,
        console or key (403 own_draft); never by a person whose password an admin set until they
        set their own (403 password_not_own); and only once its evaluation is done (409
        evaluation_under_way, evaluation_failed or not_evaluated, in words): the house edge and
        RTP it measured are kept with the approval."""
        return _decide(VersionStatus.APPROVED, body, name, version)


@blp.route("/paytables/<paytable_name:name>/versions/<int:version>/reject")
class Reject(MethodView):
    @command(access(*roles_for(Task.CHANGE_PAYTABLES)))
    @blp.arguments(DecisionSchema())
    @blp.response(200, VersionSchema)
    @documented(blp, "rejectPaytableVersion", 404, 409, headers=(IDEMPOTENCY_KEY,))
    def post(self, body, name, version):
        """Reject a paytable draft.

        Its author may withdraw it this way."""
        return _decide(VersionStatus.REJECTED, body, name, version)


@blp.route("/tables/<table_id:table_id>/paytable")
class TablePaytable(MethodView):
    @require(*roles_for(Task.SEE_TABLES), table_from=table_in_path)
    @blp.response(200, TablePaytableSchema)
    @documented(blp, "getTablePaytable", 404)
    def get(self, table_id):
        """Read a table's paytable versions.

        The version in force, the one waiting for its next round, and every assignment."""
        return paytables.table_paytable(request_uow(), table_id)

    @command(access(*roles_for(Task.CHANGE_PAYTABLES)))
    @blp.arguments(AssignPaytableSchema())
    @blp.response(200, TablePaytableSchema)
    @documented(blp, "assignPaytable", 404, 409, headers=(IDEMPOTENCY_KEY,))
    def post(self, body, table_id):
        """Assign an approved version of the table's paytable.

        It applies from the table's next
        round, never to a round in play; assigning the version in force withdraws a pending one."""
        return paytables.assign_paytable(AssignPaytable(table_id, body["version"], body["reason"], principal().actor),
                                         request_uow())
