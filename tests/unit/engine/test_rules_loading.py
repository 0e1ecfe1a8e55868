"""Rules and paytables load into frozen objects; a bad file is refused naming file, field and why."""
from __future__ import annotations

from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest
import yaml

from service.engine.odds import Odds
from service.rules import RulesError, load_paytable, load_rules, parse_paytable, parse_rules

ROOT = Path(__file__).resolve().parents[3]


def canberra_doc() -> dict:
    return yaml.safe_load((ROOT / "rules_config" / "canberra.yaml").read_text())


def paytable_doc() -> dict:
    return yaml.safe_load((ROOT / "paytables" / "canberra-standard.yaml").read_text())


def test_rules_are_frozen():
    rules = load_rules("canberra")
    with pytest.raises(FrozenInstanceError):
        rules.stand_minimum = 12  # type: ignore[misc]


def test_canberra_shoe_is_four_decks_without_tens():
    rules = load_rules("canberra")
    assert rules.shoe.size == 192
    composition = rules.shoe.composition()
    by_rank: dict[str, int] = {}
    for card, count in composition.items():
        by_rank[card[0]] = by_rank.get(card[0], 0) + count
    assert by_rank == {r: 16 for r in "A23456789JQK"}


@pytest.mark.parametrize("path, value, field, why", [
    (("stand_minimum",), "thirteen", "stand_minimum", "whole number"),
    (("shoe", "decks"), 0, "shoe.decks", "at least 1"),
    (("shoe", "ranks_removed"), ["X"], "shoe.ranks_removed", "not a rank"),
    (("surrender", "upcards"), "JQK", "surrender.upcards", "list of ranks"),
    (("double", "minimum"), "half", "double.minimum", "must be one of"),
    (("insurance", "pays"), "two to one", "insurance.pays", "not odds"),
    (("insurance", "pays"), "0:1", "insurance.pays", "positive"),
    (("dealer", "hits_soft_17"), "yes", "dealer.hits_soft_17", "true or false"),
    (("limits", "main", "max"), 100, "limits.main", "below the minimum"),
    (("dealer", "pontoon_takes"), "everything", "dealer.pontoon_takes", "must be one of"),
    (("rounding",), "sideways", "rounding", "must be one of"),
    # Checks the rules object makes itself name the file's field too, not the object's.
    (("seats",), 12, "seats", "from 1 to 9"),
    (("shoe", "decks"), 17, "shoe.decks", "from 1 to 16"),
    (("shoe", "penetration"), 0.05, "shoe.penetration", "between 0.1 and 1.0"),
    (("pontoon", "ranks"), ["A", "T"], "pontoon.ranks", "ranks the shoe removes"),
    (("stand_minimum",), 22, "stand_minimum", "from 2 to 21"),
    (("split", "max_hands"), 9, "split.max_hands", "from 1 to 8"),
    (("surrender", "returns"), "3:2", "surrender.returns", "more than the wager"),
    (("dealer", "stands_on"), 22, "dealer.stands_on", "from 12 to 21"),
    # Rules that could never apply, or a game without its namesake, are refused too.
    (("pontoon", "ranks"), [], "pontoon.ranks", "at least one rank"),
    (("double", "totals"), [], "double.totals", "list of totals"),
    (("double", "totals"), [9, 21], "double.totals", "from 2 to 20"),
    (("bonuses",), {"on_split_hands": "no"}, "bonuses.on_split_hands", "true or false"),
    (("double", "on_split_aces"), True, "double.on_split_aces", "no decision to double"),
    # A side bet's limits are declared with it, in the paytable: the rules' old place is refused.
    (("limits", "pair_bet"), {"min": 500, "max": 50000}, "limits.pair_bet", "declared with it in the paytable"),
])
def test_bad_rules_are_refused_with_file_field_and_reason(path, value, field, why):
    doc = canberra_doc()
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with pytest.raises(RulesError) as err:
        parse_rules("rules_config/broken.yaml", doc)
    assert field in err.value.errors, err.value.errors
    assert why in err.value.errors[field]
    assert str(err.value).startswith("rules_config/broken.yaml: ")


def test_unknown_rules_field_is_refused():
    doc = canberra_doc()
    doc["double"]["on_anything"] = True
    with pytest.raises(RulesError) as err:
        parse_rules("x.yaml", doc)
    assert err.value.errors == {"double.on_anything": "is not a known field"}


def test_missing_field_is_named():
    doc = canberra_doc()
    del doc["split"]["max_hands"]
    with pytest.raises(RulesError) as err:
        parse_rules("x.yaml", doc)
    assert err.value.errors == {"split.max_hands": "is required"}


def test_every_bad_field_is_listed_at_once():
    doc = canberra_doc()
    doc["stand_minimum"] = "x"
    doc["seats"] = -1
    with pytest.raises(RulesError) as err:
        parse_rules("x.yaml", doc)
    assert set(err.value.errors) == {"stand_minimum", "seats"}


@pytest.mark.parametrize("mutate, field, why", [
    (lambda d: d["bonuses"].update({"5_card_21": "0:1"}), "bonuses.5_card_21", "positive"),
    (lambda d: d["bonuses"].update({"royal_flush": "3:1"}), "bonuses.royal_flush", "unknown hand name"),
    (lambda d: d["odds"].update({"pontoon": "-3:2"}), "odds.pontoon", "positive"),
    (lambda d: d["super_bonus"]["prizes"][0].update({"wager_below": 0}), "super_bonus.prizes[0].wager_below",
     "positive amount"),
    (lambda d: d["super_bonus"]["prizes"][0].update({"wager_below": "lots"}), "super_bonus.prizes[0].wager_below",
     "whole number"),
    (lambda d: d["odds"].update({"blackjack": "3:2"}), "odds.blackjack", "unknown hand name"),
    (lambda d: d["super_bonus"].update({"prizes": []}), "super_bonus.prizes", "at least one prize"),
    (lambda d: d["super_bonus"]["prizes"].pop(), "super_bonus.prizes", "last prize must have no wager_below"),
    (lambda d: d["bonuses"].update({"6_card_21": "1:1"}), "bonuses", "6_card_21 pays 1:1, no more than a win (1:1)"),
    (lambda d: d["bonuses"].update({"678_mixed": "1:2"}), "bonuses", "must pay more than a win"),
    (lambda d: d["side_bets"]["pair"].update({"kind": "pairs"}), "side_bets.pair.kind", "must be one of pair"),
    (lambda d: d["side_bets"]["pair"]["pays"].update({"pair": "11"}), "side_bets.pair.pays.pair", "not odds"),
    (lambda d: d["side_bets"]["pair"]["pays"].update({"suited_pair": "25:1"}), "side_bets.pair.pays",
     "'suited_pair' is not a pair hand"),
    (lambda d: d["side_bets"]["pair"].pop("limits"), "side_bets.pair.limits", "is required"),
    (lambda d: d["side_bets"]["pair"]["limits"].update({"max": 100}), "side_bets.pair.limits", "below the minimum"),
    (lambda d: d["side_bets"].update({"main": d["side_bets"]["pair"]}), "side_bets.main", "names another bet"),
    (lambda d: d["side_bets"].update({"pair bet": d["side_bets"]["pair"]}), "side_bets.pair bet",
     "may hold letters, digits"),
    (lambda d: d["odds"].update({"pair": "11:1"}), "odds.pair", "declared under side_bets"),
])
def test_bad_paytables_are_refused(mutate, field, why):
    doc = paytable_doc()
    mutate(doc)
    with pytest.raises(RulesError) as err:
        parse_paytable("paytables/broken.yaml", doc)
    assert field in err.value.errors, err.value.errors
    assert why in err.value.errors[field]


def test_the_pair_bet_is_the_standard_paytables_declared_side_bet():
    [pair] = load_paytable("canberra-standard").side_bets
    assert (pair.name, pair.kind, pair.pays, (pair.limits.minimum, pair.limits.maximum)) == (
        "pair", "pair", (("pair", Odds(11, 1)),), (500, 50_000))
    # A document written before side bets were declared gives the pair bet's odds under odds.
    older = paytable_doc()
    del older["side_bets"]
    older["odds"]["pair"] = "11:1"
    assert parse_paytable("paytables/older.yaml", older).side_bets == (pair,)


def test_paytable_lines_come_from_the_yaml():
    table = load_paytable("canberra-standard")
    names = {line.name: str(line.odds) for line in table.bonuses}
    assert names["5_card_21"] == "3:1" and names["678_spades"] == "3:1" and names["777_mixed"] == "3:2"
    assert table.super_bonus.prize_for(2499) == 100000 and table.super_bonus.prize_for(2500) == 500000
    assert table.super_bonus.envy == 5000


def test_a_missing_file_is_named():
    with pytest.raises(RulesError) as err:
        load_rules("no-such-rules")
    assert "no-such-rules.yaml" in str(err.value)


def test_invalid_yaml_is_refused_not_crashed():
    with pytest.raises(RulesError) as err:
        parse_rules("bad.yaml", "game: [canberra\n")
    assert "not valid YAML" in str(err.value)


def test_a_key_written_twice_is_refused():
    """YAML keeps the last value; a reader of the file would see the first."""
    text = (ROOT / "rules_config" / "canberra.yaml").read_text() + "stand_minimum: 2\n"
    with pytest.raises(RulesError) as err:
        parse_rules("twice.yaml", text)
    assert "twice.yaml" in str(err.value) and "'stand_minimum' is written twice" in str(err.value)


@pytest.mark.parametrize("odds", [[True, True], [True, 1], [2, False]])
def test_odds_of_booleans_are_refused(odds):
    document = paytable_doc()
    document["odds"]["pontoon"] = odds
    with pytest.raises(RulesError) as err:
        parse_paytable("p.yaml", document)
    assert "odds.pontoon" in str(err.value)


@pytest.mark.parametrize("text, why", [("? [a, b]\n: 1\n", "unhashable key"),
                                       ("odds: {win: '1:1', win: '2:1'}\n", "'win' is written twice")])
def test_yaml_a_mapping_cannot_read_is_refused_as_yaml(text, why):
    with pytest.raises(RulesError) as err:
        parse_rules("odd.yaml", text)
    assert "not valid YAML" in str(err.value) and why in str(err.value)


def test_a_rules_field_error_crosses_processes_whole():
    import pickle

    from service.engine.rule_errors import RuleFieldError
    error = pickle.loads(pickle.dumps(RuleFieldError("max_seats", "must be from 1 to 9")))
    assert (error.field, error.reason, str(error)) == (
        "max_seats", "must be from 1 to 9", "max_seats must be from 1 to 9")
