"""Every house variant of the player-banked game is a knob in a rules file: each shipped variant
file sets its knob, and a round under it plays the variant (money worked out by hand)."""
from __future__ import annotations

import pytest

from service.engine.actions import RuleViolation
from service.engine.games.traditional import OPTION_DEFAULTS, TraditionalRound
from service.games import family_of
from service.rules import load_rules
from tests.conftest import ROOT

PLAYER_BANKED = sorted(path.stem for path in (ROOT / "rules_config").glob("*.yaml")
                       if family_of(load_rules(path.stem)).game == "traditional")


def _round(rules: str, players, cards):
    round_ = TraditionalRound(load_rules(rules), players)
    for card in cards:
        round_.deal_card(card)
    return round_


def _legal(round_) -> set[str]:
    return {action.action for action in round_.legal_actions()}


def test_every_option_is_set_otherwise_than_its_default_by_some_shipped_file():
    unset = {name for name, default in OPTION_DEFAULTS.items()
             if all(load_rules(rules).options()[name] == default for rules in PLAYER_BANKED)}
    assert not unset, f"no shipped rules file plays {sorted(unset)} otherwise than by default"


def test_each_variant_file_differs_from_the_british_file_by_its_knobs_alone():
    british = load_rules("british-traditional").options()
    expected = {
        "british-royal-pontoon": {"royal_pontoon": True},
        "british-burn-13": {"burn": 13},
        "british-burn-14": {"burn": 14},
        "british-natural-beats-plain": {"natural_beats_plain": True},
        "british-banker-doubles": {"banker_may_double": True},
        "british-no-buy-fifth-on-eleven": {"no_buy_fifth_on_eleven": True},
        "british-ace-picture-pontoon": {"ace_ten_is_pontoon": False},
        "british-pays-three": {"pontoon_pays": 3, "five_card_trick_pays": 3, "banker_pontoon_collects": 3},
        "shoot-pontoon": {"shoot": True},
        "british-school-16-aces": {"stick_min": 16, "split_pairs": "aces"},
    }
    for rules, knobs in expected.items():
        options = load_rules(rules).options()
        assert {name: value for name, value in options.items() if british[name] != value} == knobs, rules


def test_royal_pontoon_three_sevens_win_three_times_the_stake():
    for rules, outcome, net in (("british-royal-pontoon", "royal-pontoon", 300), ("british-traditional", "win", 100)):
        round_ = _round(rules, [{"seat": 1, "stake": 100}], ["7H", "5C", "7D", "9S"])
        round_.twist(1, 0)
        round_.deal_card("7C")   # 21 in three cards either way: no card more can be taken
        round_.stay(0)
        hand = round_.result()["players"][0]
        assert (hand["hands"][0]["outcome"], hand["net"]) == (outcome, net), rules


@pytest.mark.parametrize(("rules", "cards", "burnable"), [
    ("british-burn-13", ["6H", "5C", "7D", "9S"], True), ("british-burn-13", ["9H", "5C", "5D", "9S"], False),
    ("british-burn-14", ["9H", "5C", "5D", "9S"], True), ("british-traditional", ["6H", "5C", "7D", "9S"], False)])
def test_burning_follows_the_files_total(rules, cards, burnable):
    assert ("burn" in _legal(_round(rules, [{"seat": 1, "stake": 100}], cards))) == burnable


def test_a_natural_beats_a_plain_bankers_pontoon_only_where_the_file_says_so():
    for rules, net in (("british-natural-beats-plain", 200), ("british-traditional", -200)):
        round_ = _round(rules, [{"seat": 1, "stake": 100}], ["AH", "AC", "KD", "JS"])
        assert round_.complete and round_.result()["players"][0]["net"] == net, rules


def test_the_banker_doubles_only_where_the_file_lets_them():
    doubles = _round("british-banker-doubles", [{"seat": 1, "stake": 100}], ["9H", "5C", "7D", "9S"])
    assert "double_stakes" in _legal(doubles)
    plain = _round("british-traditional", [{"seat": 1, "stake": 100}], ["9H", "5C", "7D", "9S"])
    assert "double_stakes" not in _legal(plain)
    with pytest.raises(RuleViolation, match="do not let the banker double"):
        plain.double_stakes(0)


def test_four_cards_on_eleven_or_less_only_twist_where_the_file_says_so():
    for rules, may_buy in (("british-no-buy-fifth-on-eleven", False), ("british-traditional", True)):
        round_ = _round(rules, [{"seat": 1, "stake": 100}], ["2H", "5C", "3D", "9S"])
        round_.buy(1, 0, 100)
        round_.deal_card("2C")
        round_.buy(1, 0, 100)
        round_.deal_card("3C")   # 2 3 2 3, bought: hard 10 on four cards
        assert ("buy" in _legal(round_)) == may_buy and "twist" in _legal(round_), rules


def test_ace_and_ten_is_a_plain_21_where_only_pictures_make_pontoon():
    picture_only = _round("british-ace-picture-pontoon", [{"seat": 1, "stake": 100}], ["AH", "5C", "TD", "9S"])
    assert picture_only.snapshot()["players"][0]["hands"][0]["status"] == "playing"
    british = _round("british-traditional", [{"seat": 1, "stake": 100}], ["AH", "5C", "TD", "9S"])
    assert british.snapshot()["players"][0]["hands"][0]["status"] == "pontoon"


def test_a_pontoon_pays_three_times_the_stake_where_the_file_says_so():
    for rules, net in (("british-pays-three", 300), ("british-traditional", 200)):
        round_ = _round(rules, [{"seat": 1, "stake": 100}], ["AH", "5C", "KD", "9S"])
        round_.stay(0)
        assert round_.result()["players"][0]["net"] == net, rules
