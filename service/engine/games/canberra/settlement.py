"""A finished house-banked round settled: each bet's stake and what it returns, as bet lines."""
from __future__ import annotations

from ...cards import RANK_OF, SUIT_OF, TEN_VALUED, best_total
from .lines import BetKind, BetLine, DealerResult, Outcome
from .paytable import Paytable
from .rules import CanberraRules, DealerPontoonTakes
from .seats import BUST, FORFEIT, PONTOON, STOOD, SURRENDERED, WON21, Hand, Seat

# Members read for every hand settled, bound once by name rather than looked up on their class.
_MAIN, _SPLIT, _DOUBLE, _INSURANCE, _SUPER_BONUS_LINE, _ENVY_LINE = BetKind
_DEALER_PONTOON, _SUPER_BONUS = Outcome.DEALER_PONTOON, Outcome.SUPER_BONUS
_ALL_STAKES, _PER_HAND = DealerPontoonTakes.ALL_STAKES, DealerPontoonTakes.ONE_WAGER_PER_HAND
_WIN, _DEALER_BUST, _PUSH, _LOSE, _TWENTY_ONE = (Outcome.WIN, Outcome.DEALER_BUST, Outcome.PUSH, Outcome.LOSE,
                                                 Outcome.TWENTY_ONE)


def settle(rules: CanberraRules, pay: Paytable, seats: list[Seat], dealer: list[str],
           dealer_pontoon: bool) -> DealerResult:
    """Settle a complete round onto its seats and hands: each hand's outcome and what its wager,
    double and prize return, each seat's side bets, and each seat's staked and returned totals
    (the sums of its bet lines, which `bet_lines` lists from them)."""
    dealer_total, _ = best_total(dealer)
    upcard = RANK_OF[dealer[0]]
    all_stakes = rules.dealer_pontoon_takes == _ALL_STAKES
    per_hand = rules.dealer_pontoon_takes == _PER_HAND
    super_winners: set[int] = set()
    for seat in seats:
        staked, returned = _side_bets(rules, pay, seat, dealer) if seat.side_bets or seat.insurance else (0, 0)
        one_wager_taken = False
        for hand in seat.hands:
            wager, doubled = hand.wager, hand.double
            main, double, outcome = _settle_hand(rules, pay, seat, hand, upcard, dealer_total, dealer_pontoon,
                                                 super_winners)
            if outcome is _DEALER_PONTOON:
                # A dealer's Pontoon takes all stakes, each waiting hand's wager, or one original
                # wager of the seat's, and leaves its other stakes (the doubles always, the
                # further split wagers under one wager a seat) to it.
                if all_stakes:
                    main, double = 0, 0
                elif per_hand or not one_wager_taken:
                    one_wager_taken = True
                    main, double = 0, doubled
                else:
                    main, double = wager, doubled
            hand.outcome, hand.back, hand.double_back = outcome, main, double
            staked += wager + doubled
            returned += main + double
            if outcome is _SUPER_BONUS and pay.super_bonus is not None:
                hand.prize = pay.super_bonus.prize_for(wager)
                returned += hand.prize
        seat.staked, seat.returned = staked, returned
    envy = pay.super_bonus.envy if pay.super_bonus is not None else 0
    if super_winners and envy:
        for seat in seats:
            if super_winners - {seat.number}:
                seat.envy = envy
                seat.returned += envy
    return DealerResult(dealer_total, dealer_pontoon)


def _side_bets(rules: CanberraRules, pay: Paytable, seat: Seat, dealer: list[str]) -> tuple[int, int]:
    """A seat's side-bet and insurance lines, kept on the seat; (staked, returned) on them. Each
    side bet is settled by its kind's evaluator from the seat's first two cards and the dealer's
    first card."""
    lines = []
    staked = returned = 0
    for name, stake in seat.side_bets.items():
        bet = pay.side_bet(name)
        assert bet is not None, "a seat's side bets were checked against the paytable when it opened"
        back, outcome = bet.settle(stake, seat.first_two, dealer[0], rules.shoe.ranks, rules.rounding)
        lines.append(BetLine(seat.number, None, name, stake, back, outcome))
        staked += stake
        returned += back
    if seat.insurance:
        second_ten = len(dealer) > 1 and RANK_OF[dealer[1]] in TEN_VALUED
        back = seat.insurance + rules.insurance_pays.winnings(seat.insurance, rules.rounding) if second_ten else 0
        lines.append(BetLine(seat.number, None, _INSURANCE, seat.insurance, back,
                             Outcome.INSURANCE_WON if second_ten else Outcome.INSURANCE_LOST))
        returned += back
    seat.side_lines = tuple(lines)
    return staked + seat.insurance, returned


def bet_lines(seats: list[Seat]) -> list[BetLine]:
    """A settled round's bet lines, seat by seat (its side bets, then each hand's wager, double
    and prize), then the envy payments: the unit the ledger records."""
    lines: list[BetLine] = []
    for seat in seats:
        number = seat.number
        lines.extend(seat.side_lines)
        for hand in seat.hands:
            index, outcome = hand.index, hand.outcome
            assert outcome is not None, "bet lines are read from a settled round"
            lines.append(BetLine(number, index, _SPLIT if index else _MAIN, hand.wager, hand.back, outcome))
            if hand.double:
                lines.append(BetLine(number, index, _DOUBLE, hand.double, hand.double_back, outcome))
            if outcome is _SUPER_BONUS:
                lines.append(BetLine(number, index, _SUPER_BONUS_LINE, 0, hand.prize, _SUPER_BONUS))
    for seat in seats:
        if seat.envy:
            lines.append(BetLine(seat.number, None, _ENVY_LINE, 0, seat.envy, Outcome.ENVY))
    return lines


def _settle_hand(rules: CanberraRules, pay: Paytable, seat: Seat, hand: Hand, upcard: str, dealer_total: int,
                 dealer_pontoon: bool, super_winners: set[int]) -> tuple[int, int, str]:
    """(returned on the hand's wager, returned on its double, outcome)."""
    rounding = rules.rounding
    w, d, status = hand.wager, hand.double, hand.status
    if status is STOOD:   # waits for the dealer: the commonest, so tried first
        if dealer_pontoon:
            return 0, 0, _DEALER_PONTOON
        total, _ = hand.total(rules.double_aces_count_one)
        dealer_bust = dealer_total > 21
        if dealer_bust or total > dealer_total:
            outcome = _DEALER_BUST if dealer_bust else _WIN
            if d:
                odds = pay.doubled_win
                return w + odds.winnings(w, rounding), d + odds.winnings(d, rounding), outcome
            return w + pay.win.winnings(w, rounding), 0, outcome
        if total == dealer_total:
            return w, d, _PUSH
        return 0, 0, _LOSE
    if status is BUST:
        return 0, 0, Outcome.BUST
    if status is PONTOON:
        if dealer_pontoon and not rules.player_pontoon_paid_at_once:
            return w, d, Outcome.PUSH
        return w + pay.pontoon.winnings(w, rounding), d, Outcome.PONTOON
    if status is FORFEIT:
        return 0, d, Outcome.FORFEIT
    if status is SURRENDERED:
        if dealer_pontoon and rules.surrender_lost_to_dealer_pontoon:
            return 0, 0, Outcome.SURRENDER_DEALER_PONTOON
        return rules.surrender_returns.winnings(w, rounding), 0, Outcome.SURRENDER
    if status is WON21:
        return _pay_twenty_one(rules, pay, seat, hand, upcard, super_winners)
    raise AssertionError(f"seat {seat.number} hand {hand.index} is still {status} at settlement")


def _pay_twenty_one(rules: CanberraRules, pay: Paytable, seat: Seat, hand: Hand, upcard: str,
                    super_winners: set[int]) -> tuple[int, int, str]:
    """A winning 21: a doubled one at the doubled odds, else the super bonus, the best bonus
    line it fits, or a plain win."""
    rounding = rules.rounding
    w, d = hand.wager, hand.double
    ranks = [RANK_OF[c] for c in hand.cards]
    suits = [SUIT_OF[c] for c in hand.cards]
    # The rules say whether the bonus lines pay a split hand's 21 and a doubled one's.
    bonus_paid = (rules.bonuses_on_doubled_hands or not d) and (rules.bonuses_on_split_hands or not seat.split)
    if d:
        line = pay.best_bonus(ranks, suits) if bonus_paid else None
        if line is not None and line.odds.pays_more_than(pay.doubled_win):
            odds, outcome = line.odds, line.name
        else:
            odds, outcome = pay.doubled_win, Outcome.TWENTY_ONE
        return w + odds.winnings(w, rounding), d + odds.winnings(d, rounding), outcome
    if pay.super_bonus is not None and not seat.split and pay.super_bonus.matches(ranks, suits, upcard):
        super_winners.add(seat.number)
        return w, 0, Outcome.SUPER_BONUS
    line = pay.best_bonus(ranks, suits) if bonus_paid else None
    if line is not None and line.odds.pays_more_than(pay.win):
        return w + line.odds.winnings(w, rounding), 0, line.name
    return w + pay.win.winnings(w, rounding), 0, Outcome.TWENTY_ONE
