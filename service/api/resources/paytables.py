"""/v1/paytables and /v1/tables/{table_id}/paytable: paytable versions under change control
(drafts, four-eyes approval, assignment to a table from its next round)."""
from __future__ import annotations

import logging

import psycopg
from flask.views import MethodView
from psycopg_pool import PoolTimeout

from ...operators import paytables
from ...operators.commands import AssignPaytable, DecidePaytableVersion, SubmitPaytableVersion
from ...operators.seed import seed_file_versions
from ...store.repositories.paytables import VersionStatus
from ...store.uow import unit_of_work
from ..auth import READERS, access, principal, require, table_in_path
from ..blueprint import Blueprint
from ..docs import IDEMPOTENCY_KEY, documented
from ..schemas.paytables import (
    AssignPaytableSchema,
    DecisionSchema,
    PaytableVersionsSchema,
    SubmitVersionSchema,
    TablePaytableSchema,
    VersionSchema,
)
from ..transactions import command, request_uow

log = logging.getLogger(__name__)
blp = Blueprint("paytables", __name__, url_prefix="/v1",
                description="Paytable versions: drafts, four-eyes approval, assignment to tables")

PAYTABLE_READERS = ("admin", "operator", "supervisor", "compliance")
SEED_TIMEOUT = 2.0      # seconds to wait for the database at start-up before leaving the seed to first use


@blp.record_once
def _seed_paytable_files(state) -> None:
    """Version 1 of each paytable file into the database as the app starts. A database not
    reachable yet is no reason to refuse to start: every paytable command seeds what it needs."""
    pool = state.app.extensions.get("pontoon.pool")
    if pool is None:
        return
    try:
        with unit_of_work(pool, timeout=SEED_TIMEOUT) as uow:
            with uow.transaction():
                seeded = seed_file_versions(uow.paytables, uow.audit)
        if seeded:
            log.info("paytable versions seeded from files: %s", ", ".join(seeded))
    except (PoolTimeout, psycopg.OperationalError, psycopg.errors.UndefinedTable) as exc:
        log.warning("paytable seed left to first use: %s", type(exc).__name__)


@blp.route("/paytables")
class Paytables(MethodView):
    @require(*PAYTABLE_READERS)
    @blp.response(200, PaytableVersionsSchema(many=True))
    @documented(blp)
    def get(self):
        """Every paytable and its versions (status, author, decision, house edge)."""
        return paytables.list_paytables(request_uow())


@blp.route("/paytables/<paytable_name:name>/versions")
class Versions(MethodView):
    @require(*PAYTABLE_READERS)
    @blp.response(200, PaytableVersionsSchema)
    @documented(blp, 404)
    def get(self, name):
        """The paytable's versions, oldest first."""
        return paytables.list_versions(request_uow(), name)

    @command(access("operator"))
    @blp.arguments(SubmitVersionSchema())
    @blp.response(201, VersionSchema)
    @documented(blp, 404, headers=(IDEMPOTENCY_KEY,))
    def post(self, body, name):
        """Submit the next version as a draft (YAML text or a JSON object) with a reason. It is
        validated as the engine reads it: each bad field is named (422). Another operator must
        approve it before any table can use it."""
        return paytables.submit_version(SubmitPaytableVersion(
            name, body["reason"], principal().actor, yaml_text=body.get("yaml"), content=body.get("content")),
            request_uow())


@blp.route("/paytables/<paytable_name:name>/versions/<int:version>")
class Version(MethodView):
    @require(*PAYTABLE_READERS)
    @blp.response(200, VersionSchema)
    @documented(blp, 404)
    def get(self, name, version):
        """A version: its odds, house edge, what changed from the version it was drafted from, and
        its trail (submitted, approved or rejected, assigned, applied), each step with who, when
        and why. Versions are never edited: a change is a new version."""
        return paytables.version(request_uow(), name, version)


def _decide(decision: VersionStatus, body: dict, name: str, version: int) -> dict:
    return paytables.decide_version(DecidePaytableVersion(name, version, decision, body["reason"], principal().actor),
                                    request_uow())


@blp.route("/paytables/<paytable_name:name>/versions/<int:version>/approve")
class Approve(MethodView):
    @command(access("operator"))
    @blp.arguments(DecisionSchema())
    @blp.response(200, VersionSchema)
    @documented(blp, 404, 409, headers=(IDEMPOTENCY_KEY,))
    def post(self, body, name, version):
        """Approve a draft: never its own author's (403 own_draft). Its house edge and RTP are
        measured and kept with the approval (a second or two)."""
        return _decide(VersionStatus.APPROVED, body, name, version)


@blp.route("/paytables/<paytable_name:name>/versions/<int:version>/reject")
class Reject(MethodView):
    @command(access("operator"))
    @blp.arguments(DecisionSchema())
    @blp.response(200, VersionSchema)
    @documented(blp, 404, 409, headers=(IDEMPOTENCY_KEY,))
    def post(self, body, name, version):
        """Reject a draft (its author may withdraw it this way)."""
        return _decide(VersionStatus.REJECTED, body, name, version)


@blp.route("/tables/<table_id:table_id>/paytable")
class TablePaytable(MethodView):
    @require(*READERS, table_from=table_in_path)
    @blp.response(200, TablePaytableSchema)
    @documented(blp, 404)
    def get(self, table_id):
        """The table's paytable version in force, the one waiting for its next round, and every
        assignment."""
        return paytables.table_paytable(request_uow(), table_id)

    @command(access("operator"))
    @blp.arguments(AssignPaytableSchema())
    @blp.response(200, TablePaytableSchema)
    @documented(blp, 404, 409, headers=(IDEMPOTENCY_KEY,))
    def post(self, body, table_id):
        """Assign an approved version of the table's paytable. It applies from the table's next
        round, never to a round in play; assigning the version in force withdraws a pending one."""
        return paytables.assign_paytable(AssignPaytable(table_id, body["version"], body["reason"], principal().actor),
                                         request_uow())
