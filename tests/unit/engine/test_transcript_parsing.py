"""A transcript's decisions are read exactly: each field checked, none unknown, the first fault named."""
from __future__ import annotations

import pytest

from service.engine.actions import Action
from service.engine.transcript import TranscriptError, parse_transcript


def transcript(*actions: object) -> dict:
    return {"rules": "canberra", "paytable": "canberra-standard", "seats": [{"seat": 1, "wager": 1000}],
            "cards": ["9H", "9S", "KD"], "actions": list(actions)}


def test_decisions_are_read_with_their_hand_and_amount_where_given():
    parsed = parse_transcript(transcript({"seat": 1, "action": "hit"}, {"seat": 1, "hand": 0, "action": "stand"},
                                         {"seat": 2, "hand": None, "action": "double", "amount": 500},
                                         {"seat": 3, "action": "insurance", "amount": None}))
    assert parsed.actions == [Action(1, "hit", None, None), Action(1, "stand", 0, None),
                              Action(2, "double", None, 500), Action(3, "insurance", None, None)]
    assert all(type(action) is Action for action in parsed.actions)


@pytest.mark.parametrize("action, reason", [
    ({"seat": 1, "action": "stand", "note": "x"}, "action 2: unknown fields ['note']"),
    ({"seat": 1, "hand": 0, "amount": 5, "action": "double", "by": "dealer"}, "action 2: unknown fields ['by']"),
    ({"action": "stand"}, "action 2: seat must be a number, not None"),
    ({"seat": 1}, "action 2: action must be a decision name, not None"),
    ({"seat": True, "action": "stand"}, "action 2: seat must be a number, not True"),
    ({"seat": 1, "action": "stand", "hand": -1}, "action 2: hand must be 0 or more, not -1"),
    ({"seat": 1, "action": "double", "amount": 5.5}, "action 2: amount must be a whole number of cents, not 5.5"),
    (["seat", 1], "action 2: must be an object"),
])
def test_a_bad_decision_is_refused_naming_its_position_and_fault(action, reason):
    with pytest.raises(TranscriptError) as caught:
        parse_transcript(transcript({"seat": 1, "action": "hit"}, action))
    assert str(caught.value) == reason
