"""Ref: a rules set or paytable named with its version, written `name@version` (as in canberra@1).

Three readers meet a written reference, and each asks `Ref.parse` for the same thing:
- a stored round or table (rounds.rules_ref, a table's view) always writes both parts;
- a transcript (docs/transcript-format.md) may leave the version out, meaning version 1, the YAML
  file every copy of the rules has;
- loading a file needs the name only (`Ref.parse(text).name`): version 1 is the file, and a later
  paytable version is a row in the database, found by the catalog, not a file.
A version is a whole number from 1; anything else after the `@` is refused, never read as 1."""
from __future__ import annotations

from dataclasses import dataclass

from .errors import RulesError

SEPARATOR = "@"


@dataclass(frozen=True, slots=True, order=True)
class Ref:
    name: str
    version: int = 1

    def __post_init__(self) -> None:
        if not self.name or SEPARATOR in self.name:
            raise RulesError(f"{self.name}{SEPARATOR}{self.version}", {"(name)": "is not a rules or paytable name"})
        if isinstance(self.version, bool) or not isinstance(self.version, int) or self.version < 1:
            raise RulesError(f"{self.name}{SEPARATOR}{self.version}",
                             {"(version)": "a version is a whole number from 1, as in name@2"})

    @classmethod
    def parse(cls, text: str) -> Ref:
        """`name` (version 1, the file) or `name@version`; RulesError names what is wrong."""
        name, separator, version = text.partition(SEPARATOR)
        if not separator:
            return cls(name)
        if not version.isascii() or not version.isdigit():
            raise RulesError(text, {"(version)": "a version is a whole number from 1, as in name@2"})
        return cls(name, int(version))

    def __str__(self) -> str:
        return f"{self.name}{SEPARATOR}{self.version}"
