"""The traditional rules files load with the spec's options, and bad overrides name their field."""
from __future__ import annotations

import dataclasses

import pytest
import yaml

from service.engine.games.traditional import OPTION_DEFAULTS, TraditionalRules
from service.engine.games.traditional.rules import RuleFieldError
from service.engine.shoe import ShoeSpec
from service.rules import RulesError, load_rules, parse_rules
from service.rules.registry import rules_dir

SPEC_DEFAULTS = {  # copied from the spec's Options table, not from the code
    "stick_min": 15, "split_pairs": "any", "pontoon_pays": 2, "five_card_trick_pays": 2,
    "banker_pontoon_collects": 2, "ace_ten_is_pontoon": True, "natural_beats_plain": False,
    "royal_pontoon": False, "no_buy_fifth_on_eleven": False, "burn": None, "banker_may_double": False,
    "shoot": False,
}


def _doc(name: str) -> dict:
    with open(f"{rules_dir()}/{name}.yaml", encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def test_the_british_file_lists_every_option_at_the_spec_default():
    doc = _doc("british-traditional")
    assert doc["game"] == "traditional" and doc["name"] == "british-traditional"
    assert {k: doc[k] for k in SPEC_DEFAULTS} == SPEC_DEFAULTS
    assert doc["shoe"] == {"decks": 1}
    assert OPTION_DEFAULTS == SPEC_DEFAULTS


def test_the_british_file_loads_into_rules():
    rules = load_rules("british-traditional")
    assert isinstance(rules, TraditionalRules)
    assert rules.name == "british-traditional"
    assert rules.shoe == ShoeSpec(1)
    assert rules.options() == SPEC_DEFAULTS
    assert (rules.stake_limits.minimum, rules.stake_limits.maximum) == (100, 10000)


def test_two_packs_for_eight_players_the_banker_counted():
    rules = load_rules("british-traditional")
    assert rules.shoe_for(6).decks == 1
    assert rules.shoe_for(7).decks == 2


def test_the_school_files():
    school = load_rules("british-school-16-aces")
    assert (school.name, school.stick_min, school.split_pairs) == ("british-school-16-aces", 16, "aces")
    shoot = load_rules("shoot-pontoon")
    assert (shoot.name, shoot.shoot) == ("shoot-pontoon", True)


def test_an_override_changes_only_its_option():
    rules = load_rules("british-traditional", {"pontoon_pays": 3, "burn": 14})
    assert rules.pontoon_pays == 3 and rules.burn == 14
    assert rules.stick_min == 15


@pytest.mark.parametrize("overrides, field", [
    ({"pontoon_payz": 3}, "options.pontoon_payz"),
    ({"stick_min": 22}, "options.stick_min"),
    ({"stick_min": "16"}, "options.stick_min"),
    ({"split_pairs": "tens"}, "options.split_pairs"),
    ({"burn": 15}, "options.burn"),
    ({"shoot": 1}, "options.shoot"),
    ({"pontoon_pays": 0}, "options.pontoon_pays"),
    ({"shoe": {"decks": 2}}, "options.shoe"),
])
def test_a_bad_override_is_refused_naming_its_field(overrides, field):
    with pytest.raises(RulesError) as caught:
        load_rules("british-traditional", overrides)
    assert field in caught.value.errors, caught.value.errors


def test_a_bad_file_value_and_an_unknown_field_are_named():
    doc = _doc("british-traditional")
    doc["stick_min"] = 30
    doc["surprise"] = 1
    with pytest.raises(RulesError) as caught:
        parse_rules("test.yaml", doc)
    assert set(caught.value.errors) == {"surprise"}  # field errors come first; the rules are not built
    del doc["surprise"]
    with pytest.raises(RulesError) as caught:
        parse_rules("test.yaml", doc)
    assert caught.value.errors == {"stick_min": "stick_min must be a whole number from 2 to 21"}


def test_the_rules_object_validates_itself_with_exact_messages():
    rules = load_rules("british-traditional")
    with pytest.raises(RuleFieldError, match="^burn must be 13, 14 or null, not 12$"):
        dataclasses.replace(rules, burn=12)
    with pytest.raises(RuleFieldError, match="^split_pairs must be one of any, aces, not 'none'$"):
        dataclasses.replace(rules, split_pairs="none")
    with pytest.raises(RuleFieldError, match="^shoot must be true or false, not 1$"):
        dataclasses.replace(rules, shoot=1)
