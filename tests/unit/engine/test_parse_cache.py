"""The YAML parse cache saves time only: same data as a fresh parse, never a different rule."""
from __future__ import annotations

import os

import pytest

from service.rules import parse_cache, parse_rules
from service.rules.registry import _read_yaml


def test_a_parse_is_remembered_by_its_text_and_read_back(tmp_path, monkeypatch):
    monkeypatch.setenv("PONTOON_CACHE_DIR", str(tmp_path))
    text = "game: canberra\nseats: 7\nlist: [1, 2]\n"
    first = _read_yaml("x.yaml", text)
    assert len(os.listdir(tmp_path)) == 1
    assert parse_cache.recall(text) == first == {"game": "canberra", "seats": 7, "list": [1, 2]}
    assert parse_cache.recall(text + " ") is parse_cache.MISS  # another text, another entry


@pytest.mark.parametrize("entry_text", [
    "{not json",                                    # a damaged entry
    '{"text": "a: 2\\n", "data": {"a": 2}}',       # another document (a checksum collision)
], ids=["damaged", "another-text"])
def test_an_entry_that_is_not_this_texts_parse_is_a_miss(tmp_path, monkeypatch, entry_text):
    monkeypatch.setenv("PONTOON_CACHE_DIR", str(tmp_path))
    text = "a: 1\n"
    _read_yaml("x.yaml", text)
    (entry,) = os.listdir(tmp_path)
    (tmp_path / entry).write_text(entry_text)
    assert parse_cache.recall(text) is parse_cache.MISS
    assert _read_yaml("x.yaml", text) == {"a": 1}


def test_data_json_cannot_hold_is_not_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("PONTOON_CACHE_DIR", str(tmp_path))
    text = "7: seven\n"           # an integer key would come back from JSON as "7"
    assert _read_yaml("x.yaml", text) == {7: "seven"}
    assert os.listdir(tmp_path) == []


def test_cached_data_is_still_validated(tmp_path, monkeypatch):
    monkeypatch.setenv("PONTOON_CACHE_DIR", str(tmp_path))
    text = "game: canberra\nname: broken\n"
    parse_cache.remember(text, {"game": "canberra", "name": "broken"})
    try:
        parse_rules("broken.yaml", text)
    except ValueError as exc:
        assert "is required" in str(exc)
    else:
        raise AssertionError("an invalid document read from the cache was accepted")


def test_an_empty_setting_turns_the_cache_off(tmp_path, monkeypatch):
    monkeypatch.setenv("PONTOON_CACHE_DIR", "")
    assert parse_cache.recall("a: 1\n") is parse_cache.MISS
    assert _read_yaml("x.yaml", "a: 1\n") == {"a": 1}


def test_only_the_replay_command_remembers_in_the_users_cache_directory(tmp_path, monkeypatch):
    """The service and the workers read the rules under change control from their files alone."""
    monkeypatch.delenv("PONTOON_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(parse_cache, "_default_directory_in_use", False)
    parse_cache.remember("a: 1\n", {"a": 1})
    assert parse_cache.recall("a: 1\n") is parse_cache.MISS and not any(tmp_path.rglob("*.json"))
    parse_cache.use_default_directory()   # as `pontoon replay` does
    parse_cache.remember("a: 1\n", {"a": 1})
    assert parse_cache.recall("a: 1\n") == {"a": 1}
