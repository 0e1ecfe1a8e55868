"""/v1/keys: admins create keys (the secret answered once) and revoke them (at once)."""
from __future__ import annotations

from flask.views import MethodView

from ...command_runner import run_command
from ...operators.commands import CreateKey, RevokeKey
from ...operators.keys import create_key, revoke_key
from ...web.access import Task, roles_for
from ..auth import access, principal, require
from ..blueprint import Blueprint
from ..docs import IDEMPOTENCY_KEY, documented
from ..schemas.keys import CreatedKeySchema, CreateKeySchema, KeySchema, RevokeKeySchema
from ..transactions import command, request_uow

blp = Blueprint("keys", __name__, url_prefix="/v1/keys", description="API keys")


@blp.route("")
class Keys(MethodView):
    @require(*roles_for(Task.MANAGE_ACCESS))
    @blp.arguments(CreateKeySchema())
    @blp.response(201, CreatedKeySchema)
    @documented(blp, "createKey", 404, 409)
    def post(self, body):
        """Create an API key.

        The answer carries its secret, the only time it is shown (only its hash is
        kept). A terminal's key names its table, which must exist (404 otherwise). An admin's,
        operator's or supervisor's key names the person it belongs to (`owner`, a staff account of
        the key's role: 404 owner_not_found, 409 owner_deactivated or owner_role): its requests
        are that person's. Not replayed
        by Idempotency-Key: a stored response would be a stored secret, so
        a retry creates another key (revoke the spare)."""
        uow = request_uow()
        return run_command(uow, lambda: create_key(
            CreateKey(body["role"], body["table_id"], body["name"], principal().actor, body["owner"]), uow))


@blp.route("/<uuid:key_id>/revoke")
class Revoke(MethodView):
    @command(access(*roles_for(Task.MANAGE_ACCESS)))
    @blp.arguments(RevokeKeySchema())
    @blp.response(200, KeySchema)
    @documented(blp, "revokeKey", 404, 409, headers=(IDEMPOTENCY_KEY,))
    def post(self, body, key_id):
        """Revoke an API key.

        At once: its next request is refused (401 key_revoked)."""
        return revoke_key(RevokeKey(key_id, body["reason"], principal().actor), request_uow())
