"""Reads a submitted paytable document (YAML text or a JSON object), validates it as the engine
will read it, and lists what changed between two documents."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, NoReturn

import yaml

from ..refusals import Invalid
from ..rules import Ref, RulesError, parse_paytable
from ..rules.registry import parse_yaml

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
MAX_SOURCE_CHARS = 65_536
_ABSENT = object()


# A paytable nests four levels deep (super_bonus.prizes[0].prize); anything far deeper is refused
# as it is read, before any recursive reader (the YAML constructor, json, the diff) could meet it.
MAX_DEPTH = 16
TOO_DEEP = f"nests lists and mappings more than {MAX_DEPTH} levels deep: a paytable needs four at most"


@dataclass(frozen=True, slots=True)
class Location:
    """Where a field is written in the submitted YAML text, counted from 1."""

    line: int
    column: int

    def as_dict(self) -> dict[str, int]:
        return {"line": self.line, "column": self.column}


@dataclass(frozen=True, slots=True)
class Document:
    content: dict[str, Any]             # JSON-compatible, with name and version set
    source: str                         # what was submitted, as text
    source_format: str                  # yaml | json
    paytable: Any                       # the engine's Paytable the content reads as


def read_submitted(name: str, version: int, *, yaml_text: str | None, content: dict | None) -> Document:
    """The document as version `version` of paytable `name`; Invalid naming every bad field, with
    the line and column each is written at when the document is YAML (Invalid.locations)."""
    locations: dict[str, Location] = {}
    if yaml_text is not None:
        data, locations = _load_yaml(yaml_text)
        source, source_format = yaml_text, "yaml"
    else:
        data, source_format = content, "json"
        too_deep = _too_deep(data)
        if too_deep is not None:
            _refuse({too_deep: TOO_DEEP})
        source = json.dumps(content, ensure_ascii=False, indent=2, sort_keys=True)
    if len(source) > MAX_SOURCE_CHARS:
        _refuse({"(document)": f"is longer than {MAX_SOURCE_CHARS} characters"})
    if not isinstance(data, dict):
        _refuse({"(document)": "must be a mapping of fields (name, odds, bonuses, super_bonus)"}, locations)
    try:
        # What JSONB will hold: refuses dates, sets and the like rather than storing them altered.
        data = json.loads(json.dumps(data, allow_nan=False))
    except (TypeError, ValueError):
        _refuse({"(document)": "must hold only text, numbers, true/false, lists and mappings"})
    errors: dict[str, list[str]] = {}
    if data.get("name", name) != name:
        errors["name"] = [f"this is paytable {name!r}: leave name out or write {name!r}"]
    if data.get("version", version) != version:
        errors["version"] = [f"the next version of {name} is {version}, not {data['version']!r}"]
    data["name"], data["version"] = name, version
    try:
        paytable = parse_paytable(str(Ref(name, version)), data)
    except RulesError as exc:
        errors.update({field: [why] for field, why in exc.errors.items()})
        paytable = None
    if errors:
        _refuse(errors, locations)
    return Document(data, source, source_format, paytable)


def _load_yaml(text: str) -> tuple[Any, dict[str, Location]]:
    """The YAML text as data, and where each field of it is written."""
    if len(text) > MAX_SOURCE_CHARS:
        _refuse({"yaml": [f"is longer than {MAX_SOURCE_CHARS} characters"]})
    try:
        locations = _locate_fields(text)
        return parse_yaml(text), locations
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        at = {"yaml": Location(mark.line + 1, mark.column + 1)} if mark is not None else {}
        _refuse({"yaml": [" ".join(f"is not valid YAML: {exc}".split())]}, at)
    except yaml.YAMLError as exc:
        _refuse({"yaml": [" ".join(f"is not valid YAML: {exc}".split())]})


@dataclass(slots=True)
class _Collection:
    """A mapping or list open while the YAML events are walked."""

    path: str
    is_mapping: bool
    items: int = 0          # nodes met directly inside: in a mapping, keys and values alternate
    field: str = ""         # in a mapping, the path of the field whose key was met last


def _locate_fields(text: str) -> dict[str, Location]:
    """Every field's path (as the paytable reader names it: odds.pontoon, super_bonus.prizes[0])
    with where it is written: a mapping's field at its key, a list's item where the item starts.
    Walks PyYAML's event stream, which holds no nesting on the interpreter's stack, so nesting
    too deep is refused here, naming the top-level field it is under; anchors and aliases too,
    since they could expand a small text into a huge document and a paytable needs none."""
    locations: dict[str, Location] = {}
    open_collections: list[_Collection] = []
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        if isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            open_collections.pop()
            continue
        if not isinstance(event, yaml.NodeEvent):
            continue  # the stream's and document's start and end
        start = event.start_mark
        mark = Location(start.line + 1, start.column + 1) if start is not None else Location(1, 1)
        path = _node_path(open_collections, event, mark, locations)
        if isinstance(event, yaml.AliasEvent) or event.anchor is not None:
            _refuse({"yaml": f"must not use anchors or aliases (& and *): {path or 'the document'} uses one"},
                    {"yaml": mark})
        if isinstance(event, yaml.CollectionStartEvent):
            if len(open_collections) >= MAX_DEPTH:
                field = _top_field(path)
                _refuse({field: TOO_DEEP}, {field: locations.get(field, mark)})
            open_collections.append(_Collection(path, isinstance(event, yaml.MappingStartEvent)))
    return locations


def _node_path(open_collections: list[_Collection], event: yaml.NodeEvent, mark: Location,
               locations: dict[str, Location]) -> str:
    """The path of the node `event` starts, noting where a field is written as it is met."""
    if not open_collections:
        return ""
    parent = open_collections[-1]
    index, parent.items = parent.items, parent.items + 1
    if not parent.is_mapping:
        path = f"{parent.path}[{index}]"
        locations.setdefault(path, mark)
        return path
    if index % 2 == 0:   # a key: the field's name, and where it is written
        key = event.value if isinstance(event, yaml.ScalarEvent) else "(key)"
        parent.field = f"{parent.path}.{key}" if parent.path else key
        locations.setdefault(parent.field, mark)
    return parent.field


def _top_field(path: str) -> str:
    """The top-level field a path lies under: what the person wrote at the left margin."""
    return re.split(r"[.\[]", path, maxsplit=1)[0] or "(document)"


def _too_deep(data: Any) -> str | None:
    """The top-level field of a JSON document under which lists and mappings nest deeper than
    MAX_DEPTH, walked without recursion; None when none does."""
    pending: list[tuple[Any, int, str]] = [(data, 0, "(document)")]
    while pending:
        value, depth, field = pending.pop()
        if isinstance(value, dict):
            children = [(item, str(key) if depth == 0 else field) for key, item in value.items()]
        elif isinstance(value, list):
            children = [(item, field) for item in value]
        else:
            continue
        if depth >= MAX_DEPTH:
            return field
        pending.extend((item, depth + 1, item_field) for item, item_field in children)
    return None


def location_of(field: str, locations: dict[str, Location]) -> Location | None:
    """Where a bad field is written; for a field that is missing, where the mapping that lacks
    it is written (odds.win required: the line of odds); None for the document as a whole."""
    path = field
    while path:
        if path in locations:
            return locations[path]
        path = re.sub(r"(\.[^.\[]*|\[\d+\])$", "", path) if re.search(r"[.\[]", path) else ""
    return None


def _refuse(errors: dict[str, Any], locations: dict[str, Location] | None = None) -> NoReturn:
    errors = {field: why if isinstance(why, list) else [why] for field, why in errors.items()}
    located = {field: where.as_dict() for field in errors
               if (where := location_of(field, locations or {})) is not None}
    raise Invalid("the paytable document is not valid: see errors", code="invalid_paytable", errors=errors,
                  locations=located or None)


def changes(before: dict | None, after: dict | None) -> list[dict[str, Any]]:
    """Every leaf that differs, by path (odds.pontoon, super_bonus.prizes[0].prize), with its value
    before and after: added, removed or changed."""
    old, new = _flatten(before or {}), _flatten(after or {})
    out = []
    for path in sorted(set(old) | set(new)):
        was, now = old.get(path, _ABSENT), new.get(path, _ABSENT)
        if was == now and type(was) is type(now):
            continue
        change = "added" if was is _ABSENT else "removed" if now is _ABSENT else "changed"
        out.append({"path": path, "change": change, "before": None if was is _ABSENT else was,
                    "after": None if now is _ABSENT else now})
    return out


def _flatten(value: Any, path: str = "") -> dict[str, Any]:
    if isinstance(value, dict) and value:
        out: dict[str, Any] = {}
        for key, item in value.items():
            out.update(_flatten(item, f"{path}.{key}" if path else str(key)))
        return out
    if isinstance(value, list) and value:
        out = {}
        for index, item in enumerate(value):
            out.update(_flatten(item, f"{path}[{index}]"))
        return out
    return {path or "(document)": value}
