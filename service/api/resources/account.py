"""/v1/account: what a key's person does to their own account over the API: set their own
password (one an admin set must be replaced before they approve anything)."""
from __future__ import annotations

from flask import current_app, request
from flask.views import MethodView

from ...roles import KEY_ROLES
from ...staff.commands import SetOwnPassword
from ...staff.credentials import set_own_password
from ...web.access import Task, roles_for
from ..auth import access, principal
from ..blueprint import Blueprint
from ..docs import IDEMPOTENCY_KEY, documented
from ..schemas.account import OwnPasswordSchema, OwnPasswordSetSchema
from ..transactions import command, request_uow

blp = Blueprint("account", __name__, url_prefix="/v1/account", description="The key's person's own account")


@blp.route("/password")
class OwnPassword(MethodView):
    @command(access(*roles_for(Task.OWN_ACCOUNT, KEY_ROLES)))
    @blp.arguments(OwnPasswordSchema())
    @blp.response(200, OwnPasswordSetSchema)
    @documented(blp, "setOwnPassword", 404, 409, headers=(IDEMPOTENCY_KEY,))
    def post(self, body):
        """Set the key's person's own password.

        As the console's Your account does: the current password (and the authenticator's code
        when enrolled) confirms it is them (403 not_confirmed, counted toward their sign-in lock),
        the new one is theirs from now on, and their console sessions end. A key of nobody's has
        no password (409 key_of_nobody)."""
        caller = principal()
        return set_own_password(SetOwnPassword(caller.owner_id, caller.key_id, body["current_password"],
                                               body["new_password"], body["totp"], request.remote_addr),
                                request_uow(), current_app.extensions["pontoon.staff_policy"])
