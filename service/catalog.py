"""Finds the rules and paytable a round plays under, by "name@version": rules are their YAML file
(version 1); a paytable version is its approved row in paytable_versions (version 1 is the YAML
file until the start-up seed has copied it in)."""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .rules import Ref, RulesError, load_paytable, load_rules, parse_paytable
from .store.repositories.paytables import PaytablesRepository, VersionStatus
from .store.repositories.tables import TableRow


@dataclass(frozen=True, slots=True)
class GameRules:
    rules: Any
    paytable: Any | None
    rules_ref: str                  # name@version, as rounds.rules_ref keeps it
    paytable_ref: str | None


def rules_and_paytable(paytables: PaytablesRepository, table: TableRow) -> GameRules:
    """The versions in force for the table's next round: the paytable version an operator assigned
    if one is pending, else the current one. The round that opens under a pending version makes it
    current in the opener's own transaction (migration 0004's trigger on rounds), so an assignment
    never reaches a round already in play."""
    paytable_version = table.pending_paytable_version or table.paytable_version
    return resolve(paytables, str(Ref(table.rules, table.rules_version)),
                   str(Ref(table.paytable, paytable_version or 1)) if table.paytable else None)


def resolve(paytables: PaytablesRepository, rules_ref: str, paytable_ref: str | None) -> GameRules:
    """The objects a stored reference names. Rules exist as version 1 (the file) only."""
    rules = Ref.parse(rules_ref)
    if rules.version != 1:
        raise RulesError(rules_ref, {"(version)": "only version 1 (the file) exists"})
    paytable = None
    if paytable_ref is not None:
        paytable = approved_paytable(paytables, Ref.parse(paytable_ref))
    return GameRules(load_rules(rules.name), paytable, rules_ref, paytable_ref)


def approved_paytable(paytables: PaytablesRepository, ref: Ref) -> Any:
    """The paytable object of an approved version. Version 1 not seeded into this database yet is
    the file it will be seeded from; any other version must be a row, and approved."""
    key = (*paytables.database(), ref)
    if (cached := _APPROVED.get(key)) is not None:
        return cached
    row = paytables.approved_row(ref.name, ref.version)
    if row is None:
        if ref.version == 1:
            return load_paytable(ref.name)  # not cached: the seed will put a row here
        raise RulesError(str(ref), {"(version)": "no such paytable version"})
    if row.status != VersionStatus.APPROVED:
        raise RulesError(str(ref), {"(version)": f"is {row.status}: only approved versions are played"})
    paytable = _parse_stored(str(ref), row.content)
    # An approved version never changes (migration 0004's trigger refuses edits), so it is read
    # once per process; not one approved by this very transaction, which might still roll back.
    if not row.decided_here:
        _APPROVED[key] = paytable
    return paytable


def exported_transcript(paytables: PaytablesRepository, transcript: dict, paytable_ref: str | None) -> dict:
    """A round's transcript as it leaves the service: under a stored paytable version (2 on) it
    carries that version's document, so a regulator replays it with no database; version 1 is the
    file every copy of the rules has, and a round without a paytable carries nothing."""
    if paytable_ref is None:
        return transcript
    ref = Ref.parse(paytable_ref)
    row = paytables.get(ref.name, ref.version) if ref.version != 1 else None
    if row is None:
        return transcript
    return {**transcript, "paytable_document": row.content}


# (host, port, dbname, Ref) -> parsed approved paytable; filled on first use.
_APPROVED: dict[tuple, Any] = {}


@lru_cache(maxsize=128)
def _parse_stored(source: str, content: str) -> Any:
    # Keyed by the content itself: a version's row never changes, and two databases (tests) may
    # hold different documents under one name@version.
    return parse_paytable(source, json.loads(content))
