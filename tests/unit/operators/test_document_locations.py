"""A submitted paytable's bad fields come with the line they are written on, and a document
nested however deep is refused naming its field, never crashing the reader."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.operators.documents import MAX_DEPTH, read_submitted
from service.refusals import Invalid

STANDARD = (Path(__file__).parents[3] / "paytables" / "canberra-standard.yaml").read_text(encoding="utf-8")


def refusal(yaml_text: str | None = None, content: dict | None = None) -> Invalid:
    with pytest.raises(Invalid) as caught:
        read_submitted("canberra-standard", 2, yaml_text=yaml_text, content=content)
    return caught.value


def line_of(text: str, fragment: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), 1) if fragment in line)


def test_a_valid_draft_reads():
    document = read_submitted("canberra-standard", 2, yaml_text=STANDARD.replace("version: 1", "version: 2"),
                              content=None)
    assert document.content["odds"]["pontoon"] == "3:2"


def test_each_bad_field_is_located_at_its_own_line():
    draft = (STANDARD.replace('pontoon: "3:2"', 'pontoon: "3:x"')
             .replace("{wager_below: 2500, prize: 100000}", "{wager_below: 2500, prize: -5}")
             .replace("  777_spades:", "  lucky_line:").replace("version: 1", "version: 2"))
    refused = refusal(draft)
    assert set(refused.errors) >= {"odds.pontoon", "super_bonus.prizes[0].prize", "bonuses.lucky_line"}
    assert refused.locations["odds.pontoon"] == {"line": line_of(draft, "pontoon:"), "column": 3}
    assert refused.locations["super_bonus.prizes[0].prize"]["line"] == line_of(draft, "prize: -5")
    assert refused.locations["bonuses.lucky_line"]["line"] == line_of(draft, "lucky_line")


def test_a_missing_field_is_located_at_the_mapping_that_lacks_it():
    draft = STANDARD.replace('  win: "1:1"\n', "")
    refused = refusal(draft)
    assert refused.errors["odds.win"] == ["is required"]
    assert refused.locations["odds.win"]["line"] == line_of(draft, "odds:")


def test_a_yaml_syntax_error_is_located_where_the_parser_stopped():
    refused = refusal("odds:\n  pontoon: 3:2\n  win: [1:1\nbonuses: {}\n")
    assert list(refused.errors) == ["yaml"]
    assert refused.locations["yaml"]["line"] in (3, 4)


def test_a_key_written_twice_is_located_at_its_second_writing():
    refused = refusal("odds:\n  pontoon: 3:2\n  pontoon: 2:1\n")
    assert "written twice" in refused.errors["yaml"][0]
    assert refused.locations["yaml"]["line"] == 3


def test_an_alias_is_refused_where_it_is_written():
    refused = refusal("a: 1\nb: &x 1\nc: *x\n")
    assert list(refused.errors) == ["yaml"] and "anchors or aliases" in refused.errors["yaml"][0]
    assert "b uses one" in refused.errors["yaml"][0] and refused.locations["yaml"]["line"] == 2


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 100, 960, 970, 1000, 5000, 30000])
def test_yaml_nested_too_deep_is_refused_naming_its_field(depth):
    refused = refusal("a: " + "[" * depth + "]" * depth)
    assert list(refused.errors) == ["a"] and "levels deep" in refused.errors["a"][0]
    assert refused.locations == {"a": {"line": 1, "column": 1}}


@pytest.mark.parametrize("depth", [2, MAX_DEPTH - 2])
def test_yaml_nested_within_bounds_is_read_and_refused_as_an_unknown_field(depth):
    refused = refusal(STANDARD.replace("version: 1", "version: 2") + "a: " + "[" * depth + "]" * depth + "\n")
    assert refused.errors == {"a": ["is not a known field"]}


def test_block_nesting_too_deep_names_the_top_level_field():
    draft = "deep:\n" + "".join("  " * level + "k:\n" for level in range(1, 40))
    refused = refusal(draft)
    assert list(refused.errors) == ["deep"]


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 900])
def test_json_content_nested_too_deep_is_refused_naming_its_field(depth):
    refused = refusal(content=json.loads('{"odds": ' + "[" * depth + "]" * depth + "}"))
    assert list(refused.errors) == ["odds"] and refused.locations is None
