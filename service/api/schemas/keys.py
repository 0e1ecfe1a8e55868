"""API keys: creating one (its secret answered once), revoking one, and the access list."""
from __future__ import annotations

import marshmallow as ma

from ...roles import CONSOLE_ROLES, KEY_ROLES, PERSONAL_KEY_ROLES, Role
from ...staff.accounts import USERNAME
from ...web.schemas.base import (
    RequestSchema,
    one_line_text,
    storable_text,
    table_id_text,
)
from .variants import Catalog, Variant

# The validator's choices, as the OpenAPI document lists them: a dealer signs in at a screen, never with a key.
ROLE_NAMES = [role.value for role in KEY_ROLES]


class CreateKeySchema(RequestSchema):
    role = ma.fields.String(required=True, validate=ma.validate.OneOf(ROLE_NAMES))
    table_id = ma.fields.String(load_default=None, allow_none=True,
                                validate=table_id_text(),
                                metadata={"description": "the table a terminal key is bound to (terminals only)"})
    name = ma.fields.String(load_default=None, allow_none=True, validate=[ma.validate.Length(min=1, max=128),
                                                                          storable_text, one_line_text()],
                            metadata={"description": "who or what holds the key"})
    owner = ma.fields.String(load_default=None, allow_none=True,
                             validate=[ma.validate.Length(min=2, max=32), ma.validate.Regexp(USERNAME)],
                             metadata={"description": "the username of the staff account the key belongs to, "
                                                      "whose role it has: required for admin, operator and "
                                                      "supervisor keys (their actions are that person's), "
                                                      "never given for a terminal's"})

    @classmethod
    def openapi_variants(cls, _catalog: Catalog) -> list[Variant]:
        """A terminal key is bound to one table and belongs to nobody; an admin's, operator's or
        supervisor's key belongs to a person; any other may name one."""
        return [
            Variant("CreateTerminalKey", "a dealer terminal's key, bound to its table", required=("role", "table_id"),
                    narrowed={"role": {"type": "string", "enum": [Role.TERMINAL.value]}}, null=("owner",)),
            Variant("CreatePersonalKey", "an admin's, operator's or supervisor's key: it belongs to the person "
                                         "named, whose role it has", required=("role", "owner"),
                    narrowed={"role": {"type": "string", "enum": [role.value for role in PERSONAL_KEY_ROLES]}},
                    null=("table_id",)),
            Variant("CreateStaffKey", "another role's key, bound to no table (it may name its person)",
                    required=("role",),
                    narrowed={"role": {"type": "string", "enum": [role.value for role in CONSOLE_ROLES
                                                                  if role not in PERSONAL_KEY_ROLES]}},
                    null=("table_id",)),
        ]


class RevokeKeySchema(RequestSchema):
    reason = ma.fields.String(load_default=None, allow_none=True, validate=[ma.validate.Length(max=2000),
                                                                            storable_text, one_line_text()])


class KeySchema(ma.Schema):
    key_id = ma.fields.UUID(required=True)
    role = ma.fields.String(required=True, validate=ma.validate.OneOf(ROLE_NAMES))
    table_id = ma.fields.String(allow_none=True, required=True)
    name = ma.fields.String(allow_none=True, required=True)
    created_by = ma.fields.String(allow_none=True, required=True, metadata={"description": "the key (or cli) "
                                                                           "that created it"})
    created_at = ma.fields.DateTime(required=True)
    last_used_at = ma.fields.DateTime(allow_none=True, required=True)
    revoked_at = ma.fields.DateTime(allow_none=True, required=True)
    revoke_reason = ma.fields.String(allow_none=True, required=True)
    owner_id = ma.fields.UUID(allow_none=True, required=True, metadata={"description": "the staff account the key "
                                                                                       "belongs to"})
    owner = ma.fields.String(allow_none=True, required=True, metadata={"description": "that account's username: "
                                                                                      "the key's actions are theirs"})


class CreatedKeySchema(KeySchema):
    secret = ma.fields.String(required=True, metadata={"description": "shown this once: only its hash is kept"})
