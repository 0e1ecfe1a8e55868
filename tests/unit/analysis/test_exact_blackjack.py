"""The exact recursion against Wizard of Odds' Blackjack Appendix 9 (European no hole card), hand by hand."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from service.analysis.exact.blackjack import analyse_even_money
from service.analysis.exact.shoe import VALUE_RANKS
from service.rules import load_house_banked_rules, load_paytable

# Michael Shackleford, Wizard of Odds, "Blackjack Appendix 9 — Six deck, dealer hits on soft 17,
# no hole card" and "— Eight decks, ...", last updated 31 October 2019:
# https://wizardofodds.com/games/blackjack/appendix/9/euro-6dh17r4/ and .../euro-8dh17r4/
# (read from copies at ourgyn.com/games/blackjack/appendix/9/euro-6dh17r4/ and
# photoeditorx.com/games/blackjack/appendix/9/euro-8dh17r4/). Rules: H17, no hole card, the player
# loses everything (doubles and splits too) to a dealer blackjack, re-split to four hands except
# aces, one card to each split ace. Rows: upcard, hand, stand, hit, double.
PUBLISHED_ROWS = {
    6: """A 2,A -0.722356 -0.379910 -1.024099
A 3,A -0.722119 -0.403855 -1.023717
A 3,2 -0.721887 -0.529734 -1.443774
A 4,A -0.721866 -0.429265 -1.025989
A 4,2 -0.721646 -0.548031 -1.434834
A 4,3 -0.721415 -0.554273 -1.369282
A 5,A -0.721965 -0.454867 -1.030051
A 5,2 -0.721740 -0.553211 -1.369970
A 5,3 -0.721499 -0.493960 -1.193807
A 5,4 -0.721243 -0.396287 -0.932671
A 6,A -0.665166 -0.463296 -0.999484
A 6,2 -0.721308 -0.493965 -1.194523
A 6,3 -0.721068 -0.396571 -0.933570
A 6,4 -0.720814 -0.286818 -0.639108
A 6,5 -0.720879 -0.235772 -0.535879
A 7,A -0.466029 -0.421285 -0.909374""",
    8: """A 2,A -0.722307 -0.378980 -1.024082
A 3,A -0.722128 -0.403033 -1.023795
A 3,2 -0.721955 -0.528987 -1.443909
A 4,A -0.721938 -0.428099 -1.025496
A 4,2 -0.721771 -0.546899 -1.434987
A 4,3 -0.721595 -0.553054 -1.369253
A 5,A -0.722008 -0.453214 -1.028535
A 5,2 -0.721838 -0.552263 -1.369770
A 5,3 -0.721657 -0.492985 -1.193543
A 5,4 -0.721465 -0.395636 -0.932679
A 6,A -0.665036 -0.462428 -0.998987
A 6,2 -0.721522 -0.492995 -1.194090
A 6,3 -0.721341 -0.395857 -0.933368
A 6,4 -0.721150 -0.286345 -0.639456
A 6,5 -0.721201 -0.235977 -0.537869
A 7,A -0.465508 -0.420237 -0.908247""",
}
# "Expected return of game", by decks and whether a split hand may double.
PUBLISHED_RETURN = {(6, True): -0.0072705, (6, False): -0.0086975, (8, True): -0.007562, (8, False): -0.0089865}
# The same game by an independent implementation of the same split method: Hugues Hoppe,
# "Blackjack game probabilistic analysis", https://github.com/hhoppe/blackjack,
# `probabilistic_house_edge` with its composition-dependent strategy (a split hand's cards and the
# number of hands split so far), no surrender, re-split to four but not aces, at its effort level 3
# with its tracking of the other split hands' second cards turned off (see docs/notes/appendix-9.md).
INDEPENDENT_RETURN = {(6, True): -0.0072677968, (6, False): -0.0086949748,
                      (8, True): -0.0075584114, (8, False): -0.0089833470}
# The same appendix's tables with a hole card (six decks: every hand; eight: the pairs), from which
# the no-hole-card pages' rows against a ten and an ace follow exactly (see `_as_hole_card`): the
# file, the values compared and how many of them print as ours to the published digit.
TABLE_FOLDER = Path(__file__).parents[2] / "fixtures" / "published"
HOLE_CARD_TABLES = {6: (TABLE_FOLDER / "appendix9-6d-h17-hole-card.txt", 10 * 54 * 3 + 10, 1589),
                    8: (TABLE_FOLDER / "appendix9-8d-h17-hole-card-pairs.txt", 10 * 10 * 3 + 10, 306)}
# The published "Probability" column is the chance of the upcard and hand with no dealer blackjack.
PUBLISHED_CHANCE = {(6, "2,A"): 0.00060719, (6, "3,2"): 0.00063359, (8, "2,A"): 0.00061298, (8, "3,2"): 0.00063275}


def _rules(decks: int, after_split: bool):
    rules = load_house_banked_rules("blackjack-enhc")
    return dataclasses.replace(rules, shoe=dataclasses.replace(rules.shoe, decks=decks),
                               double_after_split=after_split)


@pytest.fixture(scope="module", params=[(6, True), (6, False), (8, True), (8, False)],
                ids=lambda p: f"{p[0]}decks-das-{p[1]}")
def game(request):
    decks, after_split = request.param
    return decks, after_split, analyse_even_money(_rules(decks, after_split), load_paytable("blackjack"))


def _by_hand(values):
    return {(VALUE_RANKS[h.upcard], f"{VALUE_RANKS[h.first]},{VALUE_RANKS[h.second]}"): h for h in values.hands}


def test_every_published_hand_value_to_the_published_digit(game):
    decks, _, values = game
    hands = _by_hand(values)
    for line in PUBLISHED_ROWS[decks].splitlines():
        upcard, cards, stand, hit, double = line.split()
        hand = hands[(upcard, cards)]
        for decision, published in (("stand", stand), ("hit", hit), ("double", double)):
            assert f"{hand.values[decision]:.6f}" == published, (upcard, cards, decision)


def test_chance_of_each_hand_matches_the_published_column(game):
    decks, _, values = game
    hands = _by_hand(values)
    for (published_decks, cards), published in PUBLISHED_CHANCE.items():
        if published_decks != decks:
            continue
        hand = hands[("A", cards)]
        no_dealer_blackjack = 1 - _dealer_blackjack_chance(decks, "A", cards)
        assert hand.probability * no_dealer_blackjack == pytest.approx(published, abs=5e-9)


def test_overall_return_within_four_millionths_of_the_published(game):
    # The published stand, hit and double values agree to their sixth decimal; the overall return
    # differs by 2.5 to 3.6 millionths of a wager for a cause not found (docs/notes/appendix-9.md), which
    # the tolerance states rather than hides.
    decks, after_split, values = game
    assert values.expected_return == pytest.approx(PUBLISHED_RETURN[(decks, after_split)], abs=4e-6)


def test_overall_return_equals_an_independent_implementation_of_the_same_method(game):
    # Its caps on the cards it tracks leave it within a few hundredths of a millionth.
    decks, after_split, values = game
    assert values.expected_return == pytest.approx(INDEPENDENT_RETURN[(decks, after_split)], abs=1e-7)


def _dealer_blackjack_chance(decks: int, upcard: str, cards: str) -> float:
    """Chance the dealer's second card makes a blackjack, given the upcard and the player's two cards."""
    completing = {"A": "T", "T": "A"}.get(upcard)
    if completing is None:
        return 0.0
    left = (16 if completing == "T" else 4) * decks - cards.split(",").count(completing)
    return left / (52 * decks - 3)


def _as_hole_card(value: float, stake: int, dealer_blackjack: float) -> float:
    # Without a hole card every stake is lost to a dealer blackjack and play is otherwise the same
    # game, so a value is (1 - p) times the hole-card value given no blackjack, less stake times p.
    return (value + stake * dealer_blackjack) / (1.0 - dealer_blackjack)


def _held_to_hole_card_table(values, decks: int, after_split: bool, table: Path) -> tuple[int, int]:
    """Each stand, hit and double value of the table's hands, each split of aces and each chance,
    against ours; (values compared, values printing as ours to the published digit). The values
    that do not print as ours sit within 0.62 millionths of it, the published figure rounding one
    a tenth of a millionth from ours, either way. The tables' other split values are not ours (see
    docs/notes/appendix-9.md)."""
    hands = _by_hand(values)
    compared = to_the_digit = 0
    for line in table.read_text().splitlines():
        if line.startswith("#"):
            continue
        upcard, cards, stand, hit, double, *rest = line.split()
        hand = hands[(upcard, cards)]
        p = _dealer_blackjack_chance(decks, upcard, cards)
        if hand.best == "pontoon":
            assert f"{_as_hole_card(hand.values['pontoon'], 0, p):.6f}" == stand
            continue
        published = {"stand": (stand, 1), "hit": (hit, 1), "double": (double, 2)}
        if cards == "A,A":
            published["split"] = (rest[1] if after_split else rest[0], 2)
        for decision, (value, stake) in published.items():
            ours = _as_hole_card(hand.values[decision], stake, p)
            assert ours == pytest.approx(float(value), abs=0.65e-6), (upcard, cards, decision)
            compared += 1
            to_the_digit += f"{ours:.6f}" == value
        if len(rest) == 1:
            assert hand.probability * (1.0 - p) == pytest.approx(float(rest[0]), abs=5e-9), (upcard, cards)
    return compared, to_the_digit


def test_every_hand_of_the_published_hole_card_tables(game):
    # Every hand against every upcard, the rows against a ten and an ace too.
    decks, after_split, values = game
    table, expected, least_to_the_digit = HOLE_CARD_TABLES[decks]
    compared, to_the_digit = _held_to_hole_card_table(values, decks, after_split, table)
    assert compared == expected
    assert to_the_digit >= least_to_the_digit


def test_the_published_pairs_with_the_dealer_standing_on_soft_17():
    rules = dataclasses.replace(_rules(6, True), dealer_hits_soft_17=False)
    values = analyse_even_money(rules, load_paytable("blackjack"))
    table = TABLE_FOLDER / "appendix9-6d-s17-hole-card-pairs.txt"
    compared, to_the_digit = _held_to_hole_card_table(values, 6, True, table)
    assert compared == 10 * 10 * 3 + 10
    assert to_the_digit >= 302


def test_the_well_known_european_plays(game):
    _, after_split, values = game
    hands = _by_hand(values)
    assert hands[("T", "6,5")].best == "hit"          # no doubling 11 against a ten ...
    assert hands[("A", "6,5")].best == "hit"          # ... or an ace
    assert hands[("T", "8,8")].best == "hit"          # no splitting 8s against a ten
    assert hands[("6", "8,8")].best == "split"
    assert hands[("5", "T,T")].best == "stand"
    assert hands[("6", "6,5")].best == "double"
    assert hands[("A", "T,A")].best == "pontoon"
    assert values.variance > 1.0
