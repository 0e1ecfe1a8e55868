"""Finds rules and paytable files by name, parses them once per process, and picks the game family."""
from __future__ import annotations

import os
from functools import lru_cache

from . import parse_cache
from .errors import RulesError
from .reader import Reader

TYPE_CHECKING = False   # typing.TYPE_CHECKING, without importing typing on replay's start-up path
if TYPE_CHECKING:
    from typing import Any

# os.path rather than pathlib: this module is on `pontoon replay`'s start-up path.
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def rules_dir() -> str:
    return os.environ.get("PONTOON_RULES_DIR") or os.path.join(_ROOT, "rules_config")


def paytables_dir() -> str:
    return os.environ.get("PONTOON_PAYTABLES_DIR") or os.path.join(_ROOT, "paytables")


def _read_yaml(source: str, text: str) -> Any:
    data = parse_cache.recall(text)
    if data is not parse_cache.MISS:
        return data
    import yaml  # only on a cache miss: loading the parser is most of a replay's start-up
    try:
        data = parse_yaml(text)
    except yaml.YAMLError as exc:
        raise RulesError(source, {"(document)": f"is not valid YAML: {exc}".replace("\n", " ")}) from None
    parse_cache.remember(text, data)
    return data


def parse_yaml(text: str) -> Any:
    """A YAML document as data, read safely; a key written twice in one mapping is an error
    (yaml.YAMLError), as any other the parser finds."""
    import yaml
    return yaml.load(text, Loader=_unique_keys_loader(yaml))


@lru_cache(maxsize=1)
def _unique_keys_loader(yaml):
    """PyYAML's safe loader (the C one where libyaml is present) refusing a key written twice in
    one mapping: YAML keeps the last, and a reader of the file would see the first."""
    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class UniqueKeysLoader(base):
        def construct_mapping(self, node, deep=False):
            seen = set()
            for key_node, _ in node.value:
                key = self.construct_object(key_node, deep=deep)
                try:
                    written_before = key in seen
                except TypeError:   # an unhashable key: the base loader refuses it, naming it
                    continue
                if written_before:
                    raise yaml.constructor.ConstructorError(
                        "while reading a mapping", node.start_mark, f"the key {key!r} is written twice",
                        key_node.start_mark)
                seen.add(key)
            return super().construct_mapping(node, deep=deep)

    return UniqueKeysLoader


def _file(directory: str, name: str) -> tuple[str, str]:
    stem = name.split("@", 1)[0]
    if not stem or "/" in stem or "\\" in stem or stem.startswith("."):
        raise RulesError(name, {"(name)": "is not a valid rules or paytable name"})
    path = os.path.join(directory, f"{stem}.yaml")
    try:
        with open(path, encoding="utf-8") as handle:
            return path, handle.read()
    except FileNotFoundError:
        raise RulesError(path, {"(file)": "does not exist"}) from None


def parse_rules(source: str, text_or_data: Any, overrides: dict | None = None):
    """Rules object of the right game family from YAML text (or already-parsed data)."""
    data = _read_yaml(source, text_or_data) if isinstance(text_or_data, str) else text_or_data
    if not isinstance(data, dict):
        raise RulesError(source, {"(document)": "must be a mapping of fields"})
    game = data.get("game")
    reader = Reader(data)
    if game == "canberra":
        from .canberra import read_canberra_rules
        if overrides:
            raise RulesError(source, {"options": "this game takes no option overrides"})
        rules = read_canberra_rules(reader)
    elif game == "traditional":
        from .traditional import read_traditional_rules
        rules = read_traditional_rules(reader, overrides or {})
    else:
        raise RulesError(source, {"game": f"must be canberra or traditional, not {game!r}"})
    if reader.errors or rules is None:
        raise RulesError(source, reader.errors or {"(document)": "is not valid"})
    return rules


def parse_paytable(source: str, text_or_data: Any):
    from .canberra import read_paytable
    data = _read_yaml(source, text_or_data) if isinstance(text_or_data, str) else text_or_data
    reader = Reader(data)
    table = read_paytable(reader)
    if reader.errors or table is None:
        raise RulesError(source, reader.errors or {"(document)": "is not valid"})
    return table


@lru_cache(maxsize=64)
def _load_rules_cached(directory: str, name: str):
    source, text = _file(directory, name)
    return parse_rules(source, text)


def load_rules(name: str, overrides: dict | None = None):
    """The rules named `name` (a file stem in rules_config/), parsed once per process."""
    if overrides:
        try:
            # With the type in the key: 1 and True are equal to a dict, not to the rules.
            key = tuple(sorted((name_, type(value).__name__, value) for name_, value in overrides.items()))
            hash(key)
        except TypeError:  # an unhashable value: parse it (and let validation explain it)
            source, text = _file(rules_dir(), name)
            return parse_rules(source, text, overrides)
        return _load_rules_with_options(rules_dir(), name, key)
    return _load_rules_cached(rules_dir(), name)


@lru_cache(maxsize=256)
def _load_rules_with_options(directory: str, name: str, options: tuple) -> Any:
    source, text = _file(directory, name)
    return parse_rules(source, text, {name_: value for name_, _, value in options})


@lru_cache(maxsize=64)
def _load_paytable_cached(directory: str, name: str):
    source, text = _file(directory, name)
    return parse_paytable(source, text)


def load_paytable(name: str):
    return _load_paytable_cached(paytables_dir(), name)
