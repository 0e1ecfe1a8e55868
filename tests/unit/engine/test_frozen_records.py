"""Frozen records behave as frozen dataclasses do: fields in order, defaults, checks, value equality."""
from __future__ import annotations

import copy
import pickle

import pytest

from service.engine.frozen import FrozenInstanceError, FrozenRecord
from service.engine.odds import Odds
from service.engine.shoe import ShoeSpec
from service.rules import load_paytable, load_rules


class Point(FrozenRecord):
    """A record for the tests: two required fields, one default, and a check."""

    x: int
    y: int
    label: str = "origin"

    def __post_init__(self) -> None:
        if self.x < 0:
            raise ValueError("x must not be negative")


def test_fields_are_the_annotations_in_order_with_their_defaults():
    assert Point._fields == ("x", "y", "label")
    assert Point(1, 2) == Point(x=1, y=2, label="origin")
    assert Point(1, y=2, label="a").label == "a"
    assert Point._defaults == {"label": "origin"}


def test_the_check_runs_on_every_construction():
    with pytest.raises(ValueError, match="^x must not be negative$"):
        Point(-1, 0)
    with pytest.raises(ValueError, match="^x must not be negative$"):
        Point(1, 2).replace(x=-1)


@pytest.mark.parametrize("args, kwargs, message", [
    ((1,), {}, r"Point\(\) missing required arguments: 'y'"),
    ((1, 2, "a", 4), {}, r"Point\(\) takes 3 arguments but 4 were given"),
    ((1, 2), {"z": 3}, r"Point\(\) got an unexpected keyword argument 'z'"),
    ((1, 2), {"x": 3}, r"Point\(\) got multiple values for argument 'x'"),
])
def test_wrong_arguments_are_a_type_error(args, kwargs, message):
    with pytest.raises(TypeError, match=message):
        Point(*args, **kwargs)


def test_no_field_can_be_assigned_deleted_or_added():
    point = Point(1, 2)
    with pytest.raises(FrozenInstanceError):
        point.x = 5   # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del point.y
    with pytest.raises((FrozenInstanceError, AttributeError)):
        point.z = 1   # type: ignore[attr-defined]
    assert isinstance(FrozenInstanceError("x"), AttributeError)
    assert not hasattr(point, "__dict__")


def test_equality_and_hash_go_by_type_and_values():
    assert Point(1, 2) == Point(1, 2) and hash(Point(1, 2)) == hash(Point(1, 2))
    assert Point(1, 2) != Point(2, 1)
    assert Point(1, 2) != (1, 2, "origin")
    assert len({Point(1, 2), Point(1, 2), Point(1, 3)}) == 2
    assert repr(Point(1, 2)) == "Point(x=1, y=2, label='origin')"


def test_replace_changes_only_the_fields_named():
    point = Point(1, 2, "a")
    assert point.replace(y=7) == Point(1, 7, "a")
    assert point == Point(1, 2, "a")


def test_a_record_cannot_extend_another_or_put_a_required_field_after_a_default():
    with pytest.raises(TypeError, match="cannot extend another record"):
        class Point3(Point):
            z: int
    with pytest.raises(TypeError, match="field 'b' without a default follows one with a default"):
        class Bad(FrozenRecord):
            a: int = 0
            b: int


def test_rules_and_paytables_survive_pickling_and_copying_whole():
    rules, paytable = load_rules("canberra"), load_paytable("canberra-standard")
    for value in (rules, paytable, Odds(3, 2), ShoeSpec(4, ("T",))):
        assert pickle.loads(pickle.dumps(value)) == value
        assert copy.copy(value) == value and copy.deepcopy(value) == value
    assert hash(pickle.loads(pickle.dumps(rules))) == hash(rules)
