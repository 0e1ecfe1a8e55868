"""The person behind an actor: a console session's `staff:<username>`, or an API key's id (the key
belongs to a staff account). Four eyes compares people, never the strings they act under: one
person's session and every key of theirs are the same pair of eyes."""
from __future__ import annotations

import uuid

from ..store.repositories.staff import StaffRow
from ..store.uow import UnitOfWork

STAFF_PREFIX = "staff:"


def person_of(uow: UnitOfWork, actor: str | None) -> StaffRow | None:
    """The staff account acting as `actor`, or None when it is nobody's (a terminal's key, the
    service's own processes, a name from before keys belonged to people)."""
    if not actor:
        return None
    if actor.startswith(STAFF_PREFIX):
        return uow.staff.get(actor[len(STAFF_PREFIX):])
    try:
        key_id = uuid.UUID(actor)
    except ValueError:
        return None
    key = uow.keys.get(key_id)
    if key is None or key.owner_id is None:
        return None
    return uow.staff.get_by_id(key.owner_id)


def same_person(uow: UnitOfWork, first: str | None, second: str | None) -> StaffRow | None:
    """The one person both actors are (through any of their identities), or None when they are two
    (actors that are no person's are the same only when they are the same actor: returned as None
    too, so callers compare those themselves with `first == second`)."""
    one, other = person_of(uow, first), person_of(uow, second)
    if one is not None and other is not None and one.user_id == other.user_id:
        return one
    return None


def one_pair_of_eyes(uow: UnitOfWork, first: str | None, second: str | None) -> bool:
    """Whether two actors are one pair of eyes: the same person, or the same actor."""
    return first == second or same_person(uow, first, second) is not None


def who(person: StaffRow | None, actor: str | None) -> str:
    """How a refusal names the person (or the actor, when it is nobody's)."""
    return f"{person.display_name} ({person.username})" if person is not None else repr(actor)
