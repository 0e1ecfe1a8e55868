"""The engine's records are frozen dataclasses: checks on every construction, value equality,
no assignment, and they survive pickling and copying whole."""
from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from service.engine.odds import Odds, Rounding
from service.engine.rule_errors import RuleFieldError
from service.engine.shoe import ShoeSpec
from service.rules import load_paytable, load_rules


def test_the_check_runs_on_every_construction_and_replace():
    with pytest.raises(ValueError, match="must be positive"):
        Odds(-1, 2)
    with pytest.raises(ValueError, match="must be positive"):
        dataclasses.replace(Odds(3, 2), numerator=0)
    with pytest.raises(RuleFieldError):
        dataclasses.replace(load_rules("canberra"), max_seats=10)


def test_no_field_can_be_assigned_deleted_or_added():
    spec = ShoeSpec(4, ("T",))
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.decks = 5   # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del spec.decks
    with pytest.raises((dataclasses.FrozenInstanceError, AttributeError, TypeError)):
        spec.z = 1   # type: ignore[attr-defined]
    assert not hasattr(spec, "__dict__")


def test_equality_and_hash_go_by_type_and_values():
    assert Odds(3, 2) == Odds(3, 2) and hash(Odds(3, 2)) == hash(Odds(3, 2))
    assert Odds(3, 2) != Odds(2, 3)
    assert Odds(3, 2) != (3, 2)
    assert len({ShoeSpec(4), ShoeSpec(4), ShoeSpec(6)}) == 2
    assert repr(Odds(3, 2)) == "Odds(numerator=3, denominator=2)"


def test_replace_changes_only_the_fields_named():
    spec = ShoeSpec(4, ("T",), 0.5)
    assert dataclasses.replace(spec, decks=6) == ShoeSpec(6, ("T",), 0.5)
    assert spec == ShoeSpec(4, ("T",), 0.5)


def test_rule_choices_are_their_enums_and_equal_their_text():
    rules = load_rules("canberra")
    assert rules.game == "canberra"
    assert type(rules.rounding) is Rounding and rules.rounding == "down"
    assert dataclasses.replace(rules, rounding=Rounding.UP).rounding is Rounding.UP
    # The loader turns the file's text into the choice; the rules record takes only the choice.
    with pytest.raises(RuleFieldError, match="rounding"):
        dataclasses.replace(rules, rounding="up")


def test_rules_and_paytables_survive_pickling_and_copying_whole():
    rules, paytable = load_rules("canberra"), load_paytable("canberra-standard")
    for value in (rules, paytable, Odds(3, 2), ShoeSpec(4, ("T",))):
        assert pickle.loads(pickle.dumps(value)) == value
        assert copy.copy(value) == value and copy.deepcopy(value) == value
    assert hash(pickle.loads(pickle.dumps(rules))) == hash(rules)
