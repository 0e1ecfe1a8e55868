"""Builds the house-banked game's rules and paytable objects from their YAML documents."""
from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from ..engine.games.canberra.paytable import FIXED_LINES, BonusLine, Paytable, SuperBonus, SuperBonusPrize
from ..engine.games.canberra.rules import CanberraRules, DealerPontoonTakes, DoubleMaximum, DoubleMinimum, Limits
from ..engine.games.canberra.side_bets import KINDS, SideBet, SideBetKind
from ..engine.odds import Rounding
from ..engine.shoe import ShoeSpec
from .reader import RANKS, Reader, rank_of


def _limits(reader: Reader, key: str) -> Limits | None:
    section = reader.section(key)
    low, high = section.integer("min", minimum=1), section.integer("max", minimum=1)
    section.refuse_unknown()
    return reader.build(key, Limits, low, high)


# The rule choices a file writes as text, and the enum each becomes.
_CHOICES: dict[str, type[StrEnum]] = {"double_minimum": DoubleMinimum, "double_maximum": DoubleMaximum,
                                      "dealer_pontoon_takes": DealerPontoonTakes, "rounding": Rounding}


def _choices(choice: type[StrEnum]) -> tuple[str, ...]:
    return tuple(member.value for member in choice)


def _totals(section: Reader, key: str) -> frozenset[int] | None:
    """A list of hand totals (doubling on 9 to 11 only is [9, 10, 11]), or null for any total."""
    value = section.value(key, None)
    if value is None:
        return None
    if not isinstance(value, list) or not value or not all(type(t) is int for t in value):
        section.fail(key, f"must be a list of totals such as [9, 10, 11], or null for any total, not {value!r}")
        return None
    return frozenset(value)


def read_rules(doc: Reader, overrides: Mapping[str, object]) -> CanberraRules | None:
    """The game's rules as the registry reads every game's: this one takes no option overrides."""
    if overrides:
        doc.fail("options", "this game takes no option overrides")
        return None
    return read_canberra_rules(doc)


def read_canberra_rules(doc: Reader) -> CanberraRules | None:
    name = doc.text("name")
    doc.integer("version", 1, minimum=1)
    doc.text("game")
    shoe_r = doc.section("shoe")
    shoe = shoe_r.build("decks", ShoeSpec, shoe_r.integer("decks", minimum=1), shoe_r.ranks("ranks_removed", []),
                        shoe_r.number("penetration", 0.75))
    shoe_r.refuse_unknown()
    seats = doc.integer("seats", minimum=1)
    limits = doc.section("limits")
    main = _limits(limits, "main")
    if "pair_bet" in limits.data:
        limits.fail("pair_bet", "a side bet's limits are declared with it in the paytable "
                                "(side_bets.pair.limits), not in the rules")
        limits.seen.add("pair_bet")
    limits.refuse_unknown()
    pontoon = doc.section("pontoon")
    surrender = doc.section("surrender")
    double = doc.section("double")
    split = doc.section("split")
    insurance = doc.section("insurance")
    dealer = doc.section("dealer")
    # Where the paytable's bonus lines pay: a house rule, not a price (the paytable names the lines).
    bonuses = doc.section("bonuses", {})
    fields = dict(
        name=name, shoe=shoe, max_seats=seats, main_limits=main,
        pontoon_ranks=pontoon.ranks("ranks"),
        split_hand_pontoon=pontoon.boolean("on_split_hands"),
        player_pontoon_paid_at_once=pontoon.boolean("paid_at_once"),
        stand_minimum=doc.integer("stand_minimum", minimum=2),
        twenty_one_wins_at_once=doc.boolean("twenty_one_wins_at_once"),
        surrender_upcards=surrender.ranks("upcards", []),
        surrender_returns=surrender.odds("returns", "1:2"),
        surrender_lost_to_dealer_pontoon=surrender.boolean("lost_to_dealer_pontoon", True),
        double_after_split=double.boolean("after_split"),
        double_on_split_aces=double.boolean("on_split_aces"),
        double_max_cards=double.integer("max_cards", None, minimum=2, allow_none=True),
        double_totals=_totals(double, "totals"),
        double_minimum=double.text("minimum", choices=_choices(DoubleMinimum)),
        double_maximum=double.text("maximum", choices=_choices(DoubleMaximum)),
        double_aces_count_one=double.boolean("aces_count_one"),
        forfeit_after_double=double.boolean("forfeit"),
        split_max_hands=split.integer("max_hands", minimum=1),
        split_same_rank_only=split.boolean("same_rank_only", True),
        split_aces_resplit=split.boolean("aces_resplit"),
        split_aces_one_card=split.boolean("aces_one_card"),
        insurance_upcards=insurance.ranks("upcards", []),
        insurance_minimum=insurance.integer("minimum", 1, minimum=1),
        insurance_max_fraction=insurance.odds("max_fraction", "1:2"),
        insurance_pays=insurance.odds("pays", "2:1"),
        dealer_stands_on=dealer.integer("stands_on", minimum=12),
        dealer_hits_soft_17=dealer.boolean("hits_soft_17"),
        dealer_draws_when_no_hand_waiting=dealer.boolean("draws_when_no_hand_waiting", False),
        dealer_pontoon_takes=dealer.text("pontoon_takes", choices=_choices(DealerPontoonTakes)),
        rounding=doc.text("rounding", "down", choices=_choices(Rounding)),
        bonuses_on_split_hands=bonuses.boolean("on_split_hands", True),
        bonuses_on_doubled_hands=bonuses.boolean("on_doubled_hands", False),
    )
    for section in (pontoon, surrender, double, split, insurance, dealer, bonuses, doc):
        section.refuse_unknown()
    if doc.errors:
        return None
    # The file names each choice as text (checked above against the choices); the rules hold the
    # choice itself.
    for key, choice in _CHOICES.items():
        fields[key] = choice(fields[key])
    return doc.build("(rules)", CanberraRules, paths=RULES_FIELD_PATHS, **fields)


# Where CanberraRules' fields are written in a rules file under another name, for the refusals
# its own checks raise (a field of the same name at the top, such as rounding, needs no entry).
RULES_FIELD_PATHS = {
    "max_seats": "seats", "pontoon_ranks": "pontoon.ranks",
    "surrender_upcards": "surrender.upcards", "surrender_returns": "surrender.returns",
    "double_max_cards": "double.max_cards", "double_totals": "double.totals", "double_minimum": "double.minimum",
    "double_maximum": "double.maximum",
    "split_max_hands": "split.max_hands", "split_aces_resplit": "split.aces_resplit",
    "double_on_split_aces": "double.on_split_aces", "insurance_upcards": "insurance.upcards",
    "insurance_minimum": "insurance.minimum", "dealer_stands_on": "dealer.stands_on",
    "dealer_pontoon_takes": "dealer.pontoon_takes",
}


def read_paytable(doc: Reader) -> Paytable | None:
    name = doc.text("name")
    doc.integer("version", 1, minimum=1)
    measured_under = doc.text("measured_under", "canberra")
    odds = doc.section("odds")
    pontoon, win = odds.odds("pontoon"), odds.odds("win")
    doubled = odds.odds("doubled_win", "1:1")
    # Paytables written before side bets were declared gave the pair bet's odds here (odds.pair);
    # such a document, stored or carried by a transcript, is read as declaring the side bet `pair`.
    legacy_pair = odds.odds(LEGACY_PAIR) if LEGACY_PAIR in odds.data else None
    for key in odds.data:
        if key not in FIXED_LINES and key not in ("doubled_win", LEGACY_PAIR):
            odds.fail(key, f"unknown hand name {key!r} here: odds takes pontoon, win and doubled_win; "
                           "bonus lines go under bonuses, side bets under side_bets")
            odds.seen.add(key)
    odds.refuse_unknown()
    side_bets = _side_bets(doc)
    if legacy_pair is not None:
        if any(bet.name == LEGACY_PAIR for bet in side_bets):
            odds.fail(LEGACY_PAIR, "the pair bet is declared under side_bets: its odds go there, not here")
        else:
            side_bets.insert(0, SideBet(LEGACY_PAIR, SideBetKind.PAIR, ((LEGACY_PAIR, legacy_pair),),
                                        LEGACY_PAIR_LIMITS))
    bonuses_r = doc.section("bonuses", {})
    lines = []
    for key in bonuses_r.data:
        value = bonuses_r.odds(str(key))
        line = bonuses_r.build(str(key), BonusLine.from_name, str(key), value)
        if line is not None:
            lines.append(line)
    super_bonus = None
    if "super_bonus" in doc.data and doc.data["super_bonus"] is not None:
        sb = doc.section("super_bonus")
        prizes_raw = sb.value("prizes", [])
        prizes = []
        if not isinstance(prizes_raw, list):
            sb.fail("prizes", "must be a list of {wager_below?, prize}")
            prizes_raw = []
        for i, item in enumerate(prizes_raw):
            pr = Reader(item, f"{sb.path}.prizes[{i}]", doc.errors)
            below = pr.integer("wager_below", None, allow_none=True)
            if below is not None and below <= 0:
                pr.fail("wager_below", "must be a positive amount of cents")
            prize = pr.integer("prize")
            if isinstance(prize, int) and prize <= 0:
                pr.fail("prize", "must be a positive amount of cents")
            pr.refuse_unknown()
            prizes.append(SuperBonusPrize(below, prize))
        ranks, upcard_r = sb.ranks("ranks"), sb.value("upcard", None)
        upcard = rank_of(upcard_r)
        if upcard not in RANKS:
            sb.fail("upcard", f"{upcard_r!r} is not a rank")
        one_suit, envy = sb.boolean("one_suit", True), sb.integer("envy", 0, minimum=0)
        sb.refuse_unknown()
        if not any(k.startswith(sb.path) for k in doc.errors):
            super_bonus = sb.build("prizes", SuperBonus, ranks, upcard, one_suit, tuple(prizes), envy)
    else:
        doc.seen.add("super_bonus")
    doc.refuse_unknown()
    if doc.errors:
        return None
    return doc.build("(paytable)", Paytable, name, pontoon, win, doubled, tuple(lines), super_bonus,
                     tuple(side_bets), measured_under)


# The pair bet as paytables wrote it before side bets were declared (odds.pair), with the limits
# every rules file gave it then.
LEGACY_PAIR = "pair"
LEGACY_PAIR_LIMITS = Limits(500, 50_000)


def _side_bets(doc: Reader) -> list[SideBet]:
    """The side bets a paytable declares, in its order: each by name, with its kind (an evaluator
    in the engine), what each of the kind's hands pays, and its limits."""
    section = doc.section("side_bets", {})
    out: list[SideBet] = []
    for name in section.data:
        declared = section.section(str(name))
        kind = declared.text("kind", choices=KINDS)
        pays_r = declared.section("pays")
        pays = tuple((str(hand), pays_r.odds(str(hand))) for hand in pays_r.data)
        limits = _limits(declared, "limits")
        declared.refuse_unknown()
        if kind in KINDS and limits is not None:
            bet = section.build(str(name), SideBet, str(name), SideBetKind(kind), pays, limits,
                                paths={"pays": f"{name}.pays"})
            if bet is not None:
                out.append(bet)
    return out
