"""The strategy is calculated: it finds the known plays of blackjack and the bonus plays of Canberra."""
from __future__ import annotations

import dataclasses

from service.analysis.model import (
    ACTION_LETTERS,
    MIXED,
    ONE_SUIT,
    RANK_INDEX,
    SPLIT_HAND,
    SUIT_INDEX,
    UNSPLIT,
    BonusCards,
    GameModel,
)
from service.analysis.solver import UpcardSolver
from service.analysis.strategy import derive


def play(strategy, upcard, cards, kind=UNSPLIT, may_split=False):
    ranks = [RANK_INDEX[c[0]] for c in cards]
    suits = [SUIT_INDEX[c[1]] for c in cards]
    return ACTION_LETTERS[strategy.decide(RANK_INDEX[upcard], kind, ranks, suits, None, may_split)]


def test_blackjack_basic_strategy_falls_out_of_the_calculation(blackjack):
    _, _, s = blackjack
    assert play(s, "T", ["TH", "6D"]) == "H"          # 16 against a ten: hit
    assert play(s, "4", ["TH", "2D"]) == "S"          # 12 against a 4: stand
    assert play(s, "2", ["TH", "2D"]) == "H"
    assert play(s, "9", ["6H", "5D"]) == "D"          # 11 against a 9: double
    assert play(s, "T", ["6H", "5D"]) == "H"          # no hole card: do not double 11 against a ten
    assert play(s, "6", ["AH", "7D"]) == "D"          # soft 18 against a 6: double
    assert play(s, "9", ["AH", "7D"]) == "H"
    assert play(s, "7", ["AH", "7D"]) == "S"
    assert play(s, "6", ["8H", "8D"], may_split=True) == "P"
    assert play(s, "T", ["8H", "8D"], may_split=True) == "H"   # no hole card: 8-8 against a ten is hit
    assert play(s, "6", ["AH", "AD"], may_split=True) == "P"
    assert play(s, "7", ["9H", "9D"], may_split=True) == "S"
    assert play(s, "5", ["KH", "QD"]) == "S"
    # Doubling is on two cards only: three-card 11 hits.
    assert play(s, "6", ["2H", "4D", "5C"]) == "H"


def test_blackjack_dealer_odds_are_the_known_ones(blackjack):
    rules, paytable, _ = blackjack
    solver = UpcardSolver(GameModel(rules, paytable, 500), RANK_INDEX["6"])
    # Six decks less a six, dealer hits soft 17: busts about 44% of the time.
    assert 0.43 < solver.dealer_outcomes[22] < 0.45
    ace = UpcardSolver(GameModel(rules, paytable, 500), RANK_INDEX["A"])
    assert abs(ace.p_pontoon - 96 / 311) < 1e-12


def test_blackjack_estimate_is_near_the_published_figure(blackjack):
    """The calculation alone (no simulation) lands within 0.05 points of Wizard of Odds' 0.727%."""
    _, _, s = blackjack
    assert abs(-s.estimate * 100 - 0.72705) < 0.05


def test_canberra_super_bonus_keeps_7_7_of_one_suit_against_a_7(canberra):
    _, _, s = canberra
    # 7-7 of one suit against a 7 could still be the super bonus: hit it rather than split.
    assert play(s, "7", ["7H", "7H"], may_split=True) == "H"
    assert play(s, "7", ["7S", "7S"], may_split=True) == "H"
    # Mixed suits cannot make the super bonus: split them.
    assert play(s, "7", ["7H", "7D"], may_split=True) == "P"
    # After a split the super bonus is gone; the re-split decision no longer cares about suits.
    assert play(s, "7", ["7H", "7H"], kind=SPLIT_HAND, may_split=True) == "P"


def test_canberra_rules_shape_the_plays(canberra):
    _, _, s = canberra
    assert play(s, "6", ["5H", "7D"]) == "H"          # no standing below 13
    assert play(s, "6", ["4H", "5D", "2C"]) == "D"    # double on any number of cards
    # Forfeit after a double: against a J the doubled 14 is given up, against a 6 it stands.
    rank = RANK_INDEX
    assert ACTION_LETTERS[s.after_double[rank["J"], UNSPLIT, 14]] == "F"
    assert ACTION_LETTERS[s.after_double[rank["6"], UNSPLIT, 14]] == "S"
    assert ACTION_LETTERS[s.after_double[rank["J"], UNSPLIT, 19]] == "S"


def test_card_count_matters_when_five_cards_pay_more(canberra):
    _, _, s = canberra
    # With five-card 21 paying 3:1 a hand's card count changes some decisions.
    table = s.play[:, UNSPLIT, :, :, 0, 0]
    assert any((table[:, n] != table[:, n + 1]).any() for n in range(2, s.model.n_cap))


def test_paytable_changes_the_strategy(canberra):
    """Take the 5-card bonus away and the four-card chase goes: the chart is calculated, not typed."""
    rules, paytable, s = canberra
    plain = dataclasses.replace(paytable, bonuses=tuple(b for b in paytable.bonuses if b.name != "5_card_21"))
    other = derive(rules, plain)
    assert (other.play != s.play).any()
    assert other.estimate < s.estimate


def test_bonus_cards_graph_follows_the_paytable(canberra):
    _, paytable, _ = canberra
    bonus = BonusCards(paytable)
    node = bonus.node_of([RANK_INDEX["6"], RANK_INDEX["7"]])
    assert bonus.multisets[node] == ("6", "7")
    assert bonus.node_of([RANK_INDEX["6"], RANK_INDEX["6"]]) == 0
    assert bonus.describe(bonus.line_id(node, ONE_SUIT)) == "6-7 one suit"
    assert bonus.line_id(node, MIXED) != bonus.line_id(node, ONE_SUIT)


def test_twenty_one_table_pays_the_best_line(canberra):
    rules, paytable, _ = canberra
    m = GameModel(rules, paytable, 1000)
    bonus = m.bonus
    spades = bonus.line_id(bonus.index[("6", "7", "8")], 0)
    assert m.pay21[3, spades] == 3000                  # 6-7-8 spades 3:1
    assert m.pay21[5, 0] == 3000                       # five-card 21 3:1
    assert m.pay21[4, 0] == 1000                       # four-card 21 even money
    assert m.pay21[m.n_cap, 0] == 3000                 # seven or more cards 3:1
    assert m.super_prize == 100000 and GameModel(rules, paytable, 2500).super_prize == 500000


def test_every_upcard_and_hand_has_a_legal_first_decision(blackjack, canberra):
    for _, _, s in (blackjack, canberra):
        for key, evs in s.states.items():
            decision = s.play[key]
            assert decision in evs, (key, evs, decision)
            assert evs[decision] == max(evs.values())
