"""Every knob a rules file accepts is followed by each analysis, or that analysis refuses the file
naming the knob: no knob is silently ignored.

Each knob is set otherwise than in a base rule set, and each analysis (the exact analysis's two
recursions and the simulation of the derived chart) is run on the changed rules: its figure must
move, or it must refuse with the knob's name in its reason. A knob that cannot bear on a figure
(a name, a side bet priced apart) is declared below with why, and the test holds the figure equal.
"""
from __future__ import annotations

import dataclasses
from functools import cache

import numpy as np
import pytest

from service.analysis.exact.report import analyse
from service.analysis.fastsim import FastGame
from service.analysis.strategy import derive
from service.engine.games.canberra.rules import CanberraRules, DealerPontoonTakes, DoubleMaximum, DoubleMinimum
from service.engine.limits import Limits
from service.engine.odds import Odds, Rounding
from service.engine.shoe import ShoeSpec
from service.rules import load_paytable, load_rules

WAGER = 501     # an odd wager, so that rounding a 3:2 payout to the cent is a choice that tells

# The rules object's fields as a rules file writes them (RULES_FIELD_PATHS and the file's sections).
PATHS = {
    "name": "name", "shoe": "shoe", "max_seats": "seats", "main_limits": "limits.main",
    "pontoon_ranks": "pontoon.ranks", "split_hand_pontoon": "pontoon.on_split_hands",
    "player_pontoon_paid_at_once": "pontoon.paid_at_once", "stand_minimum": "stand_minimum",
    "twenty_one_wins_at_once": "twenty_one_wins_at_once", "surrender_upcards": "surrender.upcards",
    "surrender_returns": "surrender.returns", "surrender_lost_to_dealer_pontoon": "surrender.lost_to_dealer_pontoon",
    "double_after_split": "double.after_split", "double_on_split_aces": "double.on_split_aces",
    "double_max_cards": "double.max_cards", "double_totals": "double.totals", "double_minimum": "double.minimum",
    "double_maximum": "double.maximum", "double_aces_count_one": "double.aces_count_one",
    "forfeit_after_double": "double.forfeit", "split_max_hands": "split.max_hands",
    "split_aces_resplit": "split.aces_resplit", "split_aces_one_card": "split.aces_one_card",
    "split_same_rank_only": "split.same_rank_only", "insurance_upcards": "insurance.upcards",
    "insurance_minimum": "insurance.minimum", "insurance_max_fraction": "insurance.max_fraction",
    "insurance_pays": "insurance.pays", "dealer_stands_on": "dealer.stands_on",
    "dealer_hits_soft_17": "dealer.hits_soft_17",
    "dealer_draws_when_no_hand_waiting": "dealer.draws_when_no_hand_waiting",
    "dealer_pontoon_takes": "dealer.pontoon_takes", "rounding": "rounding",
    "bonuses_on_split_hands": "bonuses.on_split_hands", "bonuses_on_doubled_hands": "bonuses.on_doubled_hands",
}


def other_value(rules: CanberraRules, knob: str) -> dict:
    """The changes that set `knob` otherwise than `rules` have it (with what it needs to stay valid)."""
    shoe = rules.shoe
    flip = {name: not getattr(rules, name) for name in PATHS if isinstance(getattr(rules, name), bool)}
    if knob in flip:
        change: dict = {knob: flip[knob]}
        if knob == "double_on_split_aces":      # a split ace that takes one card takes no decision
            change["split_aces_one_card"] = False
        if knob == "split_aces_one_card" and rules.double_on_split_aces:
            change["double_on_split_aces"] = False
        if knob == "split_aces_resplit":
            change["split_max_hands"] = max(rules.split_max_hands, 4)
        return change
    return {
        "name": {"name": "another-name"},
        "shoe.decks": {"shoe": dataclasses.replace(shoe, decks=shoe.decks + 2)},
        "shoe.ranks_removed": {"shoe": dataclasses.replace(shoe, ranks_removed=() if shoe.ranks_removed else ("9",))},
        "shoe.penetration": {"shoe": dataclasses.replace(shoe, penetration=0.5)},
        "max_seats": {"max_seats": 5},
        "main_limits": {"main_limits": Limits(100, rules.main_limits.maximum)},
        "pontoon_ranks": {"pontoon_ranks": rules.pontoon_ranks[1:]},
        "stand_minimum": {"stand_minimum": 17 if rules.stand_minimum < 17 else 12},
        "surrender_upcards": {"surrender_upcards": ("7", "8", "9", *rules.surrender_upcards)},
        "surrender_returns": {"surrender_returns": Odds(1, 4) if rules.surrender_returns != Odds(1, 4) else Odds(1, 2)},
        "double_max_cards": {"double_max_cards": 2 if rules.double_max_cards != 2 else 3},
        "double_totals": {"double_totals": frozenset({11})},
        "double_minimum": {"double_minimum": DoubleMinimum.ONE_CENT if rules.double_minimum != DoubleMinimum.ONE_CENT
                           else DoubleMinimum.WAGER},
        "split_max_hands": {"split_max_hands": 2 if rules.split_max_hands != 2 else 4},
        "insurance_upcards": {"insurance_upcards": () if rules.insurance_upcards else ("A",)},
        "insurance_minimum": {"insurance_minimum": 100},
        "insurance_max_fraction": {"insurance_max_fraction": Odds(1, 4)},
        "insurance_pays": {"insurance_pays": Odds(3, 1)},
        "dealer_stands_on": {"dealer_stands_on": 18},
        # Every stake (doubles too) where the base takes less; each waiting hand's wager where it takes all.
        "dealer_pontoon_takes": {"dealer_pontoon_takes": DealerPontoonTakes.ALL_STAKES
                                 if rules.dealer_pontoon_takes is not DealerPontoonTakes.ALL_STAKES
                                 else DealerPontoonTakes.ONE_WAGER_PER_HAND},
        "rounding": {"rounding": Rounding.UP},
    }[knob]


KNOBS = [name for name in PATHS if name != "shoe"] + ["shoe.decks", "shoe.ranks_removed", "shoe.penetration"]


def path_of(knob: str) -> str:
    return knob if knob.startswith("shoe.") else PATHS[knob]


# What each analysis leaves out of its figure on purpose, and why.
SIDE_BETS = {"insurance_upcards": "insurance is a side bet, priced apart", "insurance_minimum": "a side bet",
             "insurance_max_fraction": "a side bet", "insurance_pays": "a side bet",
             "name": "a name", "max_seats": "one seat is analysed; envy per extra seat is reported apart",
             "double_maximum": "one choice only: the wager",
             # Splitting two ten-valued cards is never best, so pairs of value and of rank play alike.
             "split_same_rank_only": "ten-valued cards are never split"}
NOT_IN_THE_FIGURE = {
    "exact canberra": {**SIDE_BETS, "shoe.penetration": "off the top of a full shoe",
                       # The recursion values a double for the least the minimum allows beside one
                       # for the wager (test_exact_doubles); doubling for less is never best here.
                       "main_limits": "the table minimum bears only on the least a double may stake",
                       "double_minimum": "a double for less than the wager is valued, and never best here",
                       "dealer_draws_when_no_hand_waiting": "cards no hand waits for settle no money"},
    "exact even money": {**SIDE_BETS, "shoe.penetration": "off the top of a full shoe",
                         "dealer_draws_when_no_hand_waiting": "cards no hand waits for settle no money",
                         "main_limits": "doubles are for the whole wager: the minimum bears on nothing",
                         "bonuses_on_split_hands": "the paytable has no bonus lines",
                         "bonuses_on_doubled_hands": "the paytable has no bonus lines",
                         "rounding": "priced per unit of wager, before payouts are rounded to the cent"},
    "simulation": {**SIDE_BETS, "max_seats": "the run deals the seats it is asked for (one here)",
                   "double_minimum": "the derived chart doubles for the whole wager, which any minimum allows",
                   "main_limits": "the derived chart doubles for the whole wager, which any minimum allows"},
}
# The rule sets each analysis is walked from, with a surrender worth taking (as the files stand,
# none is ever best, and a choice no play takes moves no figure).
BASES = {"exact canberra": ("canberra", "canberra-standard", {"surrender_returns": Odds(3, 4)}),
         "exact even money": ("blackjack-enhc", "blackjack", {"surrender_upcards": ("T", "J", "Q", "K", "A")}),
         "simulation": ("canberra", "canberra-standard", {"surrender_returns": Odds(3, 4)})}


def figure(analysis: str, rules: CanberraRules, paytable) -> float:
    """The analysis's figure for the rules: the exact return, or the simulated net of a fixed run."""
    if analysis == "simulation":
        block = FastGame(derive(rules, paytable, WAGER)).run(np.random.default_rng(2024), 20_000)
        return float(block.net)
    return analyse(rules, paytable, wager=WAGER, use_cache=False)["return"]


@cache
def base(analysis: str) -> tuple[CanberraRules, object, float]:
    rules_name, paytable_name, changes = BASES[analysis]
    rules, paytable = load_rules(rules_name), load_paytable(paytable_name)
    assert isinstance(rules, CanberraRules)
    rules = dataclasses.replace(rules, **changes)
    return rules, paytable, figure(analysis, rules, paytable)


def test_the_walk_names_every_knob_of_the_rules():
    fields = {field.name for field in dataclasses.fields(CanberraRules) if field.init}
    assert fields == set(PATHS)
    shoe_fields = {field.name for field in dataclasses.fields(ShoeSpec) if field.init}
    assert shoe_fields == {"decks", "ranks_removed", "penetration"}
    assert list(DoubleMaximum) == [DoubleMaximum.WAGER]     # a second choice would need walking


@pytest.mark.parametrize("analysis", list(BASES))
@pytest.mark.parametrize("knob", [knob for knob in KNOBS if knob != "double_maximum"])
def test_each_knob_is_followed_or_refused_by_name(analysis, knob):
    if analysis != "simulation" and knob in NOT_IN_THE_FIGURE[analysis]:
        # Left out on purpose (the simulation's walk holds such figures equal; an exact analysis
        # takes seconds a run, so it is not asked again what it does not read).
        assert NOT_IN_THE_FIGURE[analysis][knob]
        return
    rules, paytable, before = base(analysis)
    changed = dataclasses.replace(rules, **other_value(rules, knob))
    try:
        after = figure(analysis, changed, paytable)
    except ValueError as refusal:
        assert path_of(knob) in str(refusal), str(refusal)
        return
    if knob in NOT_IN_THE_FIGURE[analysis]:
        assert after == pytest.approx(before, abs=1e-12), f"{knob} moved the figure it is declared not to bear on"
    else:
        assert after != pytest.approx(before, abs=1e-12), f"{path_of(knob)} is silently ignored"
