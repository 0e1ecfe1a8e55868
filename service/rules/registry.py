"""Finds rules and paytable files by name, parses them once per process, and picks the game family."""
from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from functools import lru_cache
from importlib import import_module
from typing import Any, Protocol

import yaml

from ..engine.games.registry import GAME_NAMES, GamePaytable, GameRules, HouseBankedRules
from .errors import RulesError
from .reader import Reader, tab_in_indentation
from .refs import Ref

Rules = GameRules
Paytable = GamePaytable
__all__ = ["HouseBankedRules", "Paytable", "Rules", "load_house_banked_rules", "load_paytable", "load_rules",
           "parse_house_banked_rules", "parse_paytable", "parse_rules"]

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def rules_dir() -> str:
    """The rules files: the project's rules_config/, deployed with the code that reads them."""
    return os.path.join(_ROOT, "rules_config")


def paytables_dir() -> str:
    """The paytable files: the project's paytables/, deployed with the code that reads them."""
    return os.path.join(_ROOT, "paytables")


class UniqueKeysLoader(yaml.CSafeLoader):
    """PyYAML's safe loader (libyaml's) refusing a key written twice in one mapping: YAML keeps
    the last, and a reader of the file would see the first."""


def _construct_unique_mapping(loader: UniqueKeysLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node)
        try:
            written_before = key in seen
        except TypeError:   # an unhashable key: the mapping's own constructor refuses it, naming it
            continue
        if written_before:
            raise yaml.constructor.ConstructorError(
                "while reading a mapping", node.start_mark, f"the key {key!r} is written twice", key_node.start_mark)
        seen.add(key)
    return loader.construct_mapping(node)


UniqueKeysLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_unique_mapping)


def parse_yaml(text: str) -> Any:
    """A YAML document as data, read safely; a key written twice in one mapping is an error
    (yaml.YAMLError), as any other the parser finds."""
    return yaml.load(text, Loader=UniqueKeysLoader)


def _read_yaml(source: str, text: str) -> Any:
    try:
        return parse_yaml(text)
    except yaml.YAMLError as exc:
        tab = tab_in_indentation(text)
        if tab is not None:   # the parser's own words for it name no tab
            raise RulesError(source, {"(document)": f"line {tab} is indented with a tab: "
                                                     "YAML indents with spaces only"}) from None
        raise RulesError(source, {"(document)": f"is not valid YAML: {exc}".replace("\n", " ")}) from None


def _file(directory: str, name: str) -> tuple[str, str]:
    """The YAML file a rules or paytable name (or a reference to its version 1) is read from."""
    stem = Ref.parse(name).name
    if not stem or "/" in stem or "\\" in stem or stem.startswith("."):
        raise RulesError(name, {"(name)": "is not a valid rules or paytable name"})
    path = os.path.join(directory, f"{stem}.yaml")
    try:
        with open(path, encoding="utf-8") as handle:
            return path, handle.read()
    except FileNotFoundError:
        raise RulesError(path, {"(file)": "does not exist"}) from None


def rules_document(name: str) -> Any:
    """A rules file's fields as written (its YAML parsed, not yet read as rules): what a change of
    a table's rules is compared on, knob by knob."""
    return _read_yaml(*_file(rules_dir(), name))


class RulesReader(Protocol):
    """A game's rules reader: the document's fields (every bad one noted on the reader) and a
    transcript's option overrides, into the game's rules object (None when any field is bad)."""

    def __call__(self, doc: Reader, overrides: Mapping[str, object], /) -> Rules | None: ...


def rules_reader(game: object) -> RulesReader | None:
    """The rules reader of the game a rules file names: `read_rules` in this package's module of
    the game's name (rules/<game>.py), for the engine's games only; None for any other name."""
    if not isinstance(game, str) or game not in GAME_NAMES:
        return None
    read: RulesReader = import_module(f"{__package__}.{game}").read_rules
    return read


def parse_rules(source: str, text_or_data: Any, overrides: dict[str, Any] | None = None) -> Rules:
    """Rules object of the right game family from YAML text (or already-parsed data)."""
    data = _read_yaml(source, text_or_data) if isinstance(text_or_data, str) else text_or_data
    if not isinstance(data, dict):
        raise RulesError(source, {"(document)": "must be a mapping of fields"})
    game = data.get("game")
    read = rules_reader(game)
    if read is None:
        raise RulesError(source, {"game": f"must be {' or '.join(GAME_NAMES)}, not {game!r}"})
    reader = Reader(data)
    rules = read(reader, overrides or {})
    if reader.errors or rules is None:
        raise _refusal(source, reader)
    return rules


def _refusal(source: str, reader: Reader) -> RulesError:
    """The error naming every bad field a reader found in the document."""
    return RulesError(source, reader.errors or {"(document)": "is not valid"})


def _paytable_reader() -> Callable[[Reader], Paytable | None]:
    """Paytables are the house-banked game's: its rules module (rules/<game>.py) reads them too."""
    read: Callable[[Reader], Paytable | None] = import_module(f"{__package__}.{HouseBankedRules.game}").read_paytable
    return read


def parse_paytable(source: str, text_or_data: Any) -> Paytable:
    data = _read_yaml(source, text_or_data) if isinstance(text_or_data, str) else text_or_data
    reader = Reader(data)
    table = _paytable_reader()(reader)
    if reader.errors or table is None:
        raise _refusal(source, reader)
    return table


def load_house_banked_rules(name: str) -> HouseBankedRules:
    """The rules named `name`, refused unless they are the house-banked game's: the strategy and
    house-edge analyses are of that game alone."""
    return _load_house_banked_cached(rules_dir(), name)


@lru_cache(maxsize=16)
def _load_house_banked_cached(directory: str, name: str) -> HouseBankedRules:
    source, text = _file(directory, name)
    return parse_house_banked_rules(source, text)


def parse_house_banked_rules(source: str, text: str) -> HouseBankedRules:
    """Rules from a document's text (`source` names it in errors), refused unless they are the
    house-banked game's."""
    data = _read_yaml(source, text)
    game = data.get("game") if isinstance(data, dict) else None
    if isinstance(data, dict) and game != HouseBankedRules.game:
        raise RulesError(source, {"game": f"must be {HouseBankedRules.game} (a house-banked game) here, not {game!r}"})
    rules = parse_rules(source, data)
    if not isinstance(rules, HouseBankedRules):   # the reader of the game's name builds its rules
        raise RulesError(source, {"game": f"must be {HouseBankedRules.game} (a house-banked game) here"})
    return rules


@lru_cache(maxsize=64)
def _load_rules_cached(directory: str, name: str) -> Rules:
    source, text = _file(directory, name)
    return parse_rules(source, text)


# A transcript's option overrides as a cache key: (name, type name, value) sorted by name, with
# the type in it because 1 and True are equal to a dict, not to the rules.
OptionsKey = tuple[tuple[str, str, Any], ...]


def load_rules(name: str, overrides: dict[str, Any] | None = None) -> Rules:
    """The rules named `name` (a file stem in rules_config/), parsed once per process."""
    if overrides:
        try:
            key: OptionsKey = tuple(sorted((option, type(value).__name__, value)
                                           for option, value in overrides.items()))
            hash(key)
        except TypeError:  # an unhashable value: parse it (and let validation explain it)
            source, text = _file(rules_dir(), name)
            return parse_rules(source, text, overrides)
        return _load_rules_with_options(rules_dir(), name, key)
    return _load_rules_cached(rules_dir(), name)


@lru_cache(maxsize=256)
def _load_rules_with_options(directory: str, name: str, options: OptionsKey) -> Rules:
    source, text = _file(directory, name)
    return parse_rules(source, text, {option: value for option, _, value in options})


@lru_cache(maxsize=64)
def _load_paytable_cached(directory: str, name: str) -> Paytable:
    source, text = _file(directory, name)
    return parse_paytable(source, text)


def load_paytable(name: str) -> Paytable:
    """The paytable named `name` (a file stem in paytables/), parsed once per process."""
    return _load_paytable_cached(paytables_dir(), name)
