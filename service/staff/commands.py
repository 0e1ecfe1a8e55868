"""The commands about staff accounts and their sessions, as plain immutable values."""
from __future__ import annotations

import uuid
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CreateStaff:
    username: str
    role: str
    actor: str
    display_name: str | None = None
    password: str | None = None         # None: one is generated and handed back once


@dataclass(frozen=True, slots=True)
class DeactivateStaff:
    username: str
    actor: str
    reason: str | None = None           # why, kept in the audit record (the console asks for it)


@dataclass(frozen=True, slots=True)
class ResetPassword:
    username: str
    actor: str
    password: str | None = None         # None: one is generated and handed back once
    reason: str | None = None           # why, kept in the audit record (the console asks for it)


@dataclass(frozen=True, slots=True)
class ChangeRole:
    username: str
    role: str
    actor: str


@dataclass(frozen=True, slots=True)
class SignIn:
    username: str
    password: str
    totp: str = ""
    address: str | None = None          # where the attempt came from, for the audit record


@dataclass(frozen=True, slots=True)
class SignOut:
    token: str
    address: str | None = None


@dataclass(frozen=True, slots=True)
class TouchSession:
    token: str
    activity: bool = True       # a person's own request; False: a page refreshing itself


@dataclass(frozen=True, slots=True)
class ChangePassword:
    user_id: uuid.UUID
    current_password: str
    new_password: str
    session_id: uuid.UUID | None        # the session asking: it stays open, the others end


@dataclass(frozen=True, slots=True)
class EnrolTotp:
    user_id: uuid.UUID
    secret: str                         # the secret the server made and showed the person (never theirs to choose)
    code: str                           # their authenticator's code from it, proving they hold it
    password: str                       # their password, asked again


@dataclass(frozen=True, slots=True)
class RemoveTotp:
    user_id: uuid.UUID
    password: str


@dataclass(frozen=True, slots=True)
class SetOwnPassword:
    """A person setting their own password with a key of theirs (as the console's Your account
    does): the password they were given, and their authenticator's code when enrolled."""
    owner_id: uuid.UUID | None          # the key's person (none: a key of nobody's)
    key_id: uuid.UUID
    current_password: str
    new_password: str
    totp: str = ""
    address: str | None = None
