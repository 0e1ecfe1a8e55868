"""Reads a submitted paytable document (YAML text or a JSON object), validates it as the engine
will read it, and lists what changed between two documents."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import yaml

from ..rounds.errors import Invalid
from ..rules import RulesError, parse_paytable
from ..rules.registry import parse_yaml

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
MAX_SOURCE_CHARS = 65_536
_ABSENT = object()


@dataclass(frozen=True, slots=True)
class Document:
    content: dict[str, Any]             # JSON-compatible, with name and version set
    source: str                         # what was submitted, as text
    source_format: str                  # yaml | json
    paytable: Any                       # the engine's Paytable the content reads as


def read_submitted(name: str, version: int, *, yaml_text: str | None, content: dict | None) -> Document:
    """The document as version `version` of paytable `name`; Invalid naming every bad field."""
    if yaml_text is not None:
        data, source, source_format = _load_yaml(yaml_text), yaml_text, "yaml"
    else:
        data, source_format = content, "json"
        source = json.dumps(content, ensure_ascii=False, indent=2, sort_keys=True)
    if len(source) > MAX_SOURCE_CHARS:
        _refuse({"(document)": f"is longer than {MAX_SOURCE_CHARS} characters"})
    if not isinstance(data, dict):
        _refuse({"(document)": "must be a mapping of fields (name, odds, bonuses, super_bonus)"})
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
        paytable = parse_paytable(f"{name}@{version}", data)
    except RulesError as exc:
        errors.update({field: [why] for field, why in exc.errors.items()})
        paytable = None
    if errors:
        _refuse(errors)
    return Document(data, source, source_format, paytable)


def _load_yaml(text: str) -> Any:
    if len(text) > MAX_SOURCE_CHARS:
        _refuse({"yaml": [f"is longer than {MAX_SOURCE_CHARS} characters"]})
    try:
        # Anchors and aliases could expand a small text into a huge document: a paytable needs none.
        if any(isinstance(token, (yaml.AliasToken, yaml.AnchorToken)) for token in yaml.scan(text)):
            _refuse({"yaml": ["must not use anchors or aliases (& and *)"]})
        return parse_yaml(text)
    except yaml.YAMLError as exc:
        _refuse({"yaml": [" ".join(f"is not valid YAML: {exc}".split())]})


def _refuse(errors: dict[str, Any]) -> None:
    errors = {field: why if isinstance(why, list) else [why] for field, why in errors.items()}
    raise Invalid("the paytable document is not valid: see errors", code="invalid_paytable", errors=errors)


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
