"""The round's turn order, limits and refusals, its terminal view and its ledger of transfers."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from service.engine.actions import Action, RuleViolation
from service.engine.games.traditional import TraditionalRound
from service.engine.transcript import TranscriptError
from service.replay import replay_data
from service.rules import load_rules
from tests.conftest import ROOT

from .builders import nets, play, transcript


def _round(players, cards, options=None, kitty=None):
    round_ = TraditionalRound(load_rules("british-traditional", options), players, kitty=kitty)
    for card in cards:
        round_.deal_card(card)
    return round_


def test_buy_costs_follow_the_previous_card():
    round_ = _round([{"seat": 1, "stake": 100}], ["2H", "9C", "3D", "8S"])
    assert [a.as_dict() for a in round_.legal_actions() if a.action == "buy"] == \
        [{"seat": 1, "action": "buy", "hand": 0, "min_amount": 100, "max_amount": 200}]
    with pytest.raises(RuleViolation, match="outside 100 to 200"):
        round_.buy(1, 0, 201)
    round_.buy(1, 0, 150)
    round_.deal_card("4S")
    with pytest.raises(RuleViolation, match="outside 100 to 150"):
        round_.buy(1, 0, 160)
    with pytest.raises(RuleViolation, match="outside 100 to 150"):
        round_.buy(1, 0, 99)


def test_split_gives_both_hands_a_card_original_first_and_plays_them_in_index_order():
    round_ = _round([{"seat": 1, "stake": 100}], ["8H", "TC", "8S", "7D"])
    round_.split(1, 0)
    assert round_.card_recipient() == "seat 1 hand 0"
    round_.deal_card("8D")
    assert round_.card_recipient() == "seat 1 hand 1"
    round_.deal_card("9H")
    assert round_.in_turn() == (1, 0)
    with pytest.raises(RuleViolation, match="out of turn: seat 1 hand 0 is in turn"):
        round_.stick(1, 1)
    round_.split(1, 0)               # 8H 8D again
    round_.deal_card("8C")
    round_.deal_card("2C")
    assert [h.cards for h in round_.seats[0].hands] == [["8H", "8C"], ["8S", "9H"], ["8D", "2C"]]
    round_.split(1, 0)               # the fourth and last hand
    round_.deal_card("TD")
    round_.deal_card("TH")
    assert not round_.can_split(1, 0)
    assert len(round_.seats[0].hands) == 4


def test_a_king_and_a_jack_are_not_a_pair():
    round_ = _round([{"seat": 1, "stake": 100}], ["KH", "TC", "JS", "7D"])
    with pytest.raises(RuleViolation, match="of one rank"):
        round_.split(1, 0)


def test_when_every_hand_busts_the_banker_does_not_play():
    result = play(players=[(1, 100), (2, 200)], cards=["TH", "TC", "9H", "6S", "5D", "6D", "KH", "KD"],
                  actions=[(1, "twist", 0), (2, "twist", 0)])
    assert nets(result) == {"banker": 300, 1: -100, 2: -200}
    assert result["banker"]["cards"] == ["9H", "6D"]
    with pytest.raises(TranscriptError, match="action 3 .*already complete"):
        play(players=[(1, 100), (2, 200)], cards=["TH", "TC", "9H", "6S", "5D", "6D", "KH", "KD"],
             actions=[(1, "twist", 0), (2, "twist", 0), (0, "stay")])


def test_a_bust_loses_once_whatever_the_banker_makes_later():
    # Seat 1 busts; seat 2 sticks on 18; the banker then busts: only seat 2 is paid.
    result = play(players=[(1, 100), (2, 100)], cards=["TH", "9H", "TC", "6S", "9D", "5D", "KH", "KS"],
                  actions=[(1, "twist", 0), (2, "stick", 0), (0, "draw")])
    assert result["banker"]["bust"] is True
    assert nets(result) == {"banker": 0, 1: -100, 2: 100}


def test_the_banker_stays_by_itself_on_a_hard_21():
    result = play(players=[(1, 100)], cards=["TH", "9H", "9D", "5S", "7C"], actions=[(1, "stick", 0), (0, "draw")])
    assert result["banker"]["total"] == 21 and nets(result) == {"banker": 100, 1: -100}


def test_banker_decisions_are_the_banker_s_alone_and_only_in_the_banker_s_turn():
    round_ = _round([{"seat": 1, "stake": 100}], ["TH", "9H", "9D", "5S"])
    with pytest.raises(RuleViolation, match="not the banker's turn"):
        round_.act(Action(0, "stay"))
    round_.act(Action(1, "stick", 0))
    with pytest.raises(RuleViolation, match="the players' turns are over"):
        round_.act(Action(1, "twist", 0))
    with pytest.raises(RuleViolation, match="banker's decision"):
        round_.act(Action(1, "draw"))
    assert [a.action for a in round_.legal_actions()] == ["draw", "stay"]


def test_a_transcript_that_stops_early_or_runs_out_of_cards_is_refused():
    with pytest.raises(TranscriptError, match="a decision is awaited from"):
        play(players=[(1, 100)], cards=["TH", "9H", "9D", "5S"], actions=[(1, "stick", 0)])
    with pytest.raises(TranscriptError, match="ran out of cards"):
        play(players=[(1, 100)], cards=["TH", "9H", "9D", "5S"], actions=[(1, "twist", 0)])


def test_one_pack_holds_each_card_once_and_a_big_table_plays_two():
    with pytest.raises(TranscriptError, match="card 3 .*already out"):
        play(players=[(1, 100)], cards=["TH", "9H", "TH", "5S"], actions=[])
    seats = [(s, 100) for s in range(1, 8)]     # seven players and the banker: two packs
    firsts, seconds = ["TH", "TH", "TD", "TD", "TS", "TS", "TC"], ["9H", "9H", "9D", "9D", "9S", "9S", "9C"]
    result = play(players=seats, cards=[*firsts, "2C", *seconds, "TC"],
                  actions=[(s, "stick", 0) for s in range(1, 8)] + [(0, "stay")])
    assert result["banker"]["net"] == -700


def test_stakes_kitty_and_seats_are_checked_at_the_start():
    with pytest.raises(TranscriptError, match="outside the limits 100 to 10000"):
        play(players=[(1, 50)], cards=[], actions=[])
    with pytest.raises(TranscriptError, match="seat 0 does not exist"):
        play(players=[(0, 100)], cards=[], actions=[])
    with pytest.raises(TranscriptError, match="only in Shoot Pontoon"):
        play(players=[(1, 100)], cards=[], actions=[], kitty=500)
    with pytest.raises(TranscriptError, match="needs a kitty"):
        play(players=[(1, 100)], cards=[], actions=[], options={"shoot": True})


def test_the_snapshot_shows_what_a_terminal_needs():
    round_ = _round([{"seat": 1, "stake": 100, "shoot": 200}], ["2H", "9C", "3D", "8S"],
                    options={"shoot": True}, kitty=500)
    round_.twist(1, 0)
    round_.deal_card("4C")
    view = json.loads(json.dumps(round_.snapshot()))
    assert view["phase"] == "play" and view["awaiting"] == "decision"
    assert view["in_turn"] == {"seat": 1, "hand": 0}
    assert view["banker"]["cards"] == ["9C", "8S"] and view["kitty"] == 500 and view["shoot_room"] == 300
    assert view["players"][0]["hands"][0] == {"hand": 0, "cards": ["2H", "3D", "4C"], "stake": 100, "buys": [],
                                              "twisted": True, "twists": 1, "shoot": 200, "total": 9,
                                              "status": "playing", "burned": []}
    assert {"seat": 1, "action": "shoot", "hand": 0, "min_amount": 100, "max_amount": 300} in view["legal_actions"]
    assert not any(a["action"] == "buy" for a in view["legal_actions"])


def test_the_transfers_name_who_paid_whom_and_balance():
    round_ = _round([{"seat": 1, "stake": 100, "shoot": 200}, {"seat": 2, "stake": 100, "shoot": 300}],
                    ["TH", "5C", "9C", "9D", "QD", "8S"], options={"shoot": True}, kitty=500)
    round_.stick(1, 0)
    round_.twist(2, 0)
    round_.deal_card("KH")
    round_.stay()
    moved = [(t.from_party, t.to_party, t.amount, t.kind) for t in round_.transfers]
    assert moved == [("seat 2", "banker", 100, "bust"), ("seat 2", "kitty", 300, "shoot-lost"),
                     ("banker", "seat 1", 100, "win"), ("kitty", "seat 1", 200, "shoot-won")]
    parties = {"banker", "kitty", "seat 1", "seat 2"}
    assert sum(round_.net(p) for p in parties) == 0


def test_an_error_through_the_command_is_one_line_naming_the_position(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(transcript([(1, 100)], ["TH", "9H", "9D", "5S"], [(1, "stick", 0), (1, "twist", 0)])))
    proc = subprocess.run([sys.executable, "-m", "service.cli", "replay", str(path)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "action 2" in proc.stderr and "Traceback" not in proc.stderr


def test_a_player_banked_transcript_naming_a_paytable_or_both_seats_and_players_is_refused():
    with pytest.raises(TranscriptError, match="the player-banked game takes no paytable"):
        replay_data({**transcript(players=[(1, 100)], cards=["TH", "9H", "9D", "5S"], actions=[(1, "stick", 0)]),
                     "paytable": "canberra-standard"})
    with pytest.raises(TranscriptError, match="seats and players"):
        replay_data({**transcript(players=[(1, 100)], cards=["TH", "9H", "9D", "5S"], actions=[(1, "stick", 0)]),
                     "seats": [{"seat": 1, "stake": 100}]})
