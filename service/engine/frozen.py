"""Frozen value records for the rules objects: fields, defaults, checks, equality and no assignment.

A record's fields are its class's annotations, in order, with the class's values as defaults. It
is built by position or by name, runs `__post_init__` (where rules check themselves), compares and
hashes by its fields, and refuses any assignment afterwards. That is what a frozen dataclass
gives; a dataclass, though, writes and compiles its methods as its class is defined and imports
`inspect` to do it, which made up half of `pontoon replay`'s start-up for the handful of rules
classes a batch loads. These methods are written once, here, and cost nothing to define."""
from __future__ import annotations

TYPE_CHECKING = False   # typing.TYPE_CHECKING, without importing typing on replay's start-up path
if TYPE_CHECKING:
    from typing import Any, TypeVar

    R = TypeVar("R", bound="FrozenRecord")


class FrozenInstanceError(AttributeError):
    """An assignment to, or deletion of, a field of a frozen record."""


class _FrozenRecordType(type):
    """Makes each annotation of a record's class a slot, its value (if any) the field's default."""

    def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **kwargs: Any) -> type:
        if any(getattr(base, "_fields", ()) for base in bases):
            raise TypeError(f"{name}: a record's fields are its own; it cannot extend another record")
        fields = tuple(namespace.get("__annotations__", {}))
        defaults = {}
        for field in fields:
            if field in namespace:
                defaults[field] = namespace.pop(field)   # a class value and a slot cannot share a name
            elif defaults:
                raise TypeError(f"{name}: field {field!r} without a default follows one with a default")
        namespace["__slots__"] = (*fields, "_hash") if fields else ()
        namespace["_fields"] = fields
        namespace["_defaults"] = defaults
        return super().__new__(mcs, name, bases, namespace, **kwargs)


class FrozenRecord(metaclass=_FrozenRecordType):
    """Base of a frozen record; every annotation of a subclass is a field, held in a slot."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        fields, name = self._fields, type(self).__name__
        if len(args) > len(fields):
            raise TypeError(f"{name}() takes {len(fields)} arguments but {len(args)} were given")
        values = dict(zip(fields, args))
        for key, value in kwargs.items():
            if key not in fields:
                raise TypeError(f"{name}() got an unexpected keyword argument {key!r}")
            if key in values:
                raise TypeError(f"{name}() got multiple values for argument {key!r}")
            values[key] = value
        missing = [key for key in fields if key not in values and key not in self._defaults]
        if missing:
            raise TypeError(f"{name}() missing required arguments: {', '.join(map(repr, missing))}")
        assign, defaults = object.__setattr__, self._defaults
        for key in fields:
            assign(self, key, values[key] if key in values else defaults[key])
        self.__post_init__()

    def __post_init__(self) -> None:
        """A subclass checks its fields here, raising on a value it refuses."""

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def _values(self) -> tuple:
        return tuple(map(self.__getattribute__, self._fields))

    def _asdict(self) -> dict[str, Any]:
        return dict(zip(self._fields, self._values()))

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        # Kept once worked out: a shoe's description is looked up by hash for every round replayed.
        try:
            return self._hash
        except AttributeError:
            value = hash(self._values())
            object.__setattr__(self, "_hash", value)
            return value

    def __repr__(self) -> str:
        fields = ", ".join(f"{key}={value!r}" for key, value in zip(self._fields, self._values()))
        return f"{type(self).__name__}({fields})"

    def __reduce__(self) -> tuple:
        # Rebuilt through __init__ (and its checks): a slot cannot be restored by assignment.
        return type(self), self._values()

    def replace(self: R, **changes: Any) -> R:
        """A copy with some fields changed, checked as any new record is."""
        return type(self)(**{**self._asdict(), **changes})
