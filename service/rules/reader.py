"""Reads a YAML mapping field by field, collecting every bad or unknown field with its path."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ..engine.odds import Odds
from ..engine.rule_errors import RuleFieldError

T = TypeVar("T")

# A field's absence, told apart from a field written as null.
_MISSING: Any = object()

# No count or amount in a rules file or paytable is larger: amounts stay inside PostgreSQL's bigint
# and the house-edge simulation's 64-bit arithmetic, and JSON readers keep them exact.
LARGEST_WHOLE_NUMBER = 10**12

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")


def rank_of(item: object) -> str:
    """A rank as a file may write it (10 for T, lower case) in the engine's spelling."""
    return "T" if str(item) == "10" else str(item).upper()


def unquoted_odds(number: int) -> str:
    """Why a number is refused where odds belong. YAML 1.1 reads unquoted odds such as 3:1 as a
    number in base 60 (181): the reason names the odds the file most likely meant."""
    whole, rest = divmod(number, 60)
    if whole:
        return (f"is the number {number} (YAML reads {whole}:{rest} unquoted as {number}): "
                f"write the odds in quotes, as \"{whole}:{rest}\"")
    return f"is the number {number}, not odds: write the odds in quotes, as \"{number}:1\""


def tab_in_indentation(text: str) -> int | None:
    """The first line (from 1) whose indentation holds a tab, which YAML does not allow; None if none."""
    for number, line in enumerate(text.splitlines(), start=1):
        indentation = line[:len(line) - len(line.lstrip(" \t"))]
        if "\t" in indentation and line.strip():
            return number
    return None


class Reader:
    """A view of one mapping at `path`; errors land in the shared `errors` dict."""

    def __init__(self, data: Any, path: str = "", errors: dict[str, str] | None = None) -> None:
        self.errors: dict[str, str] = {} if errors is None else errors
        self.path = path
        self.seen: set[str] = set()
        if not isinstance(data, dict):
            self.errors[path or "(document)"] = "must be a mapping of fields"
            data = {}
        self.data: dict[Any, Any] = data

    def where(self, key: str) -> str:
        """The field's path in the whole document."""
        return f"{self.path}.{key}" if self.path else key

    def value(self, key: str, default: Any = _MISSING) -> Any:
        """The field as written (marked as read); a missing field without a default is an error."""
        self.seen.add(key)
        value = self.data.get(key, _MISSING)
        if value is _MISSING:
            if default is _MISSING:
                self.errors[self.where(key)] = "is required"
            return default
        return value

    def fail(self, key: str, why: str) -> None:
        self.errors.setdefault(self.where(key), why)

    def section(self, key: str, default: Any = _MISSING) -> Reader:
        value = self.value(key, default)
        return Reader({} if value is _MISSING else value, self.where(key), self.errors)

    def integer(self, key: str, default: Any = _MISSING, minimum: int | None = None,
                allow_none: bool = False, maximum: int = LARGEST_WHOLE_NUMBER) -> Any:
        value = self.value(key, default)
        if value is _MISSING or (value is None and allow_none):
            return value if value is not _MISSING else None
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(key, f"must be a whole number, not {value!r}")
            return minimum or 0
        if minimum is not None and value < minimum:
            self.fail(key, f"must be at least {minimum}, not {value}")
        if value > maximum:
            self.fail(key, f"must be at most {maximum}, not {value}")
        return value

    def number(self, key: str, default: Any = _MISSING) -> float:
        value = self.value(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            if value is not _MISSING:
                self.fail(key, f"must be a number, not {value!r}")
            return 0.0
        return float(value)

    def boolean(self, key: str, default: Any = _MISSING) -> bool:
        value = self.value(key, default)
        if not isinstance(value, bool):
            if value is not _MISSING:
                self.fail(key, f"must be true or false, not {value!r}")
            return False
        return value

    def text(self, key: str, default: Any = _MISSING, choices: tuple[str, ...] | None = None) -> str:
        value = self.value(key, default)
        if value is _MISSING:
            return ""
        if not isinstance(value, str):
            self.fail(key, f"must be text, not {value!r}")
            return ""
        if choices and value not in choices:
            self.fail(key, f"must be one of {', '.join(choices)}, not {value!r}")
        return value

    def ranks(self, key: str, default: Any = _MISSING) -> tuple[str, ...]:
        value = self.value(key, default)
        if value is _MISSING:
            return ()
        if not isinstance(value, list):
            self.fail(key, "must be a list of ranks such as [J, Q, K]")
            return ()
        out = []
        for item in value:
            rank = rank_of(item)
            if rank not in RANKS:
                self.fail(key, f"{item!r} is not a rank (A 2-9 T J Q K)")
                return ()
            out.append(rank)
        return tuple(out)

    def odds(self, key: str, default: Any = _MISSING) -> Odds:
        value = self.value(key, default)
        if value is _MISSING:
            return Odds(1, 1)
        if type(value) is int:
            self.fail(key, unquoted_odds(value))
            return Odds(1, 1)
        try:
            return Odds.parse(value)
        except ValueError as exc:
            self.fail(key, str(exc))
            return Odds(1, 1)

    def build(self, key: str, factory: Callable[..., T], *args: Any, paths: dict[str, str] | None = None,
              **kwargs: Any) -> T | None:
        """Construct an engine object; its own validation message is filed under the field it
        names: by `paths` (the object's field name to its path below this mapping), else a field
        of this mapping by the same name, else `key`."""
        try:
            return factory(*args, **kwargs)
        except RuleFieldError as exc:
            where = (paths or {}).get(exc.field) or (exc.field if exc.field in self.seen else None)
            if where is None:
                self.fail(key, str(exc))
            else:
                self.fail(where, exc.reason)
            return None
        except (ValueError, TypeError) as exc:
            self.fail(key, str(exc))
            return None

    def refuse_unknown(self) -> None:
        for key in self.data:
            if key not in self.seen:
                self.errors[self.where(str(key))] = "is not a known field"
