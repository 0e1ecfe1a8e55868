"""A transcript may carry the paytable version it ran under: replay plays that document, no database asked."""
from __future__ import annotations

import json

import pytest
import yaml

from service.engine.transcript import TranscriptError, parse_transcript
from service.replay import replay_data
from service.rules import RulesError
from service.rules.registry import paytables_dir
from tests.conftest import TRANSCRIPTS


def version_two(pair: str = "13:1") -> dict:
    with open(f"{paytables_dir()}/canberra-standard.yaml", encoding="utf-8") as handle:
        document = yaml.safe_load(handle)
    document["version"] = 2
    document["side_bets"]["pair"]["pays"]["pair"] = pair
    return document


def version_two_as_first_stored(pair: str = "13:1") -> dict:
    """Version 2 as documents were written before side bets were declared: the pair bet's odds
    under odds, no side_bets."""
    document = version_two()
    del document["side_bets"]
    document["odds"]["pair"] = pair
    return document


def pair_round(**extra) -> dict:
    return {"rules": "canberra", "paytable": "canberra-standard@2", "seats": [{"seat": 1, "wager": 1000,
            "pair_bet": 500}], "cards": ["9H", "7D", "9C", "KD"],
            "actions": [{"seat": 1, "hand": 0, "action": "stand"}], **extra}


def test_the_carried_version_is_played_as_carried(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgresql://nobody@127.0.0.1:1/nowhere?connect_timeout=1")
    result = replay_data(pair_round(paytable_document=version_two("13:1")))
    assert result["seats"][0]["returned"] == 500 + 13 * 500 + 2000
    known: dict = {}
    # Two documents under one name@version are two paytables, even within one batch.
    assert replay_data(pair_round(paytable_document=version_two("13:1")), known)["seats"][0]["returned"] == 9000
    assert replay_data(pair_round(paytable_document=version_two("20:1")), known)["seats"][0]["returned"] == 12500


def test_a_document_stored_before_side_bets_were_declared_plays_its_pair_bet_as_it_did():
    # odds.pair at 13:1 is the side bet `pair`: 500 back with 13 * 500, and 19 beats 17 for 2000.
    result = replay_data(pair_round(paytable_document=version_two_as_first_stored("13:1")))
    assert result["seats"][0]["returned"] == 500 + 13 * 500 + 2000
    side_bets_form = pair_round(paytable_document=version_two_as_first_stored("13:1"))
    side_bets_form["seats"] = [{"seat": 1, "wager": 1000, "side_bets": {"pair": 500}}]
    assert replay_data(side_bets_form)["seats"][0]["returned"] == 9000


def test_a_pair_bet_declared_twice_is_refused():
    document = version_two()
    document["odds"]["pair"] = "12:1"
    with pytest.raises(RulesError) as refused:
        replay_data(pair_round(paytable_document=document))
    assert "odds.pair" in refused.value.errors


@pytest.mark.parametrize("field, value", [("version", 3), ("name", "blackjack")])
def test_a_document_of_another_version_is_refused(field, value):
    document = {**version_two(), field: value}
    with pytest.raises(RulesError) as refused:
        replay_data(pair_round(paytable_document=document))
    assert "paytable_document" in str(refused.value.errors)


def test_a_document_without_a_paytable_named_or_not_an_object_is_refused():
    worked = json.loads((TRANSCRIPTS / "traditional" / "buys-five-card-trick.json").read_text())
    with pytest.raises(TranscriptError, match="paytable_document"):
        parse_transcript({**worked, "paytable_document": version_two()})
    with pytest.raises(TranscriptError, match="paytable_document"):
        parse_transcript(pair_round(paytable_document="canberra-standard@2"))
