"""A key's person's own account: setting their own password."""
from __future__ import annotations

import marshmallow as ma

from ...web.schemas.base import RequestSchema


class OwnPasswordSchema(RequestSchema):
    current_password = ma.fields.String(required=True, validate=ma.validate.Length(min=1, max=1024),
                                        metadata={"description": "the password now (an admin's, at first)"})
    new_password = ma.fields.String(required=True, validate=ma.validate.Length(min=12, max=1024),
                                    metadata={"description": "the person's own: at least 12 characters, not the "
                                                             "username"})
    totp = ma.fields.String(load_default="", validate=ma.validate.Length(max=16),
                            metadata={"description": "the authenticator's code, when one is enrolled"})


class OwnPasswordSetSchema(ma.Schema):
    username = ma.fields.String(required=True)
    password_own = ma.fields.Boolean(required=True, metadata={"description": "the password is the person's own"})
    sessions_ended = ma.fields.Integer(required=True, metadata={"description": "their console sessions ended"})
