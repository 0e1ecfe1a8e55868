"""The rules and paytable a command names: a file stem in rules_config/ or paytables/, or a path to a YAML file."""
from __future__ import annotations

from pathlib import Path

from ..rules import (
    HouseBankedRules,
    Paytable,
    RulesError,
    load_house_banked_rules,
    load_paytable,
    parse_house_banked_rules,
    parse_paytable,
)


def _path(argument: str) -> Path | None:
    """The file an argument names when it is a path (it has a folder or ends in .yaml), else None."""
    if argument.endswith((".yaml", ".yml")) or "/" in argument or "\\" in argument:
        return Path(argument)
    return None


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RulesError(str(path), {"(file)": f"cannot be read: {exc.strerror or exc}"}) from None


def house_banked_rules(argument: str) -> HouseBankedRules:
    """The house-banked rules a stem or a file path names (the analyses are of that game alone)."""
    path = _path(argument)
    return load_house_banked_rules(argument) if path is None else parse_house_banked_rules(str(path), _text(path))


def paytable(argument: str) -> Paytable:
    """The paytable a stem or a file path names."""
    path = _path(argument)
    return load_paytable(argument) if path is None else parse_paytable(str(path), _text(path))
