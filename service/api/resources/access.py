"""/v1/access: every API key with its role, table, creator and last use."""
from __future__ import annotations

from flask.views import MethodView

from ...operators.keys import access_list
from ...web.access import Task, roles_for
from ..auth import require
from ..blueprint import Blueprint
from ..docs import documented
from ..schemas.keys import KeySchema
from ..transactions import request_uow

blp = Blueprint("access", __name__, url_prefix="/v1/access", description="Who can call the API")


@blp.route("")
class Access(MethodView):
    @require(*roles_for(Task.SEE_ACCESS))
    @blp.response(200, KeySchema(many=True))
    @documented(blp, "listKeys")
    def get(self):
        """List every API key.

        Revoked ones too: role, table, creator, creation, last use, revocation. Never a secret
        or its hash."""
        return access_list(request_uow())
