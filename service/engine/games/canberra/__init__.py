"""Pontoon as dealt at Casino Canberra (banked by the house): rules, paytable, round, settlement."""
from .lines import BetKind, BetLine, DealerResult, Outcome
from .paytable import BonusLine, Paytable, SuperBonus, SuperBonusPrize
from .round import CanberraRound
from .rules import CanberraRules, DealerPontoonTakes, DoubleMaximum, DoubleMinimum
from .seats import Hand, HandStatus, Phase, Seat
from .side_bets import SideBet, SideBetKind

__all__ = ["BetKind", "BetLine", "BonusLine", "CanberraRound", "CanberraRules", "DealerPontoonTakes", "DealerResult",
           "DoubleMaximum", "DoubleMinimum", "Hand", "HandStatus", "Outcome", "Paytable", "Phase",
           "Seat", "SideBet", "SideBetKind", "SuperBonus", "SuperBonusPrize"]
