"""Pontoon as dealt at Casino Canberra (banked by the house): rules, paytable, round, settlement."""
from .paytable import Paytable
from .round import CanberraRound
from .rules import CanberraRules

__all__ = ["CanberraRules", "Paytable", "CanberraRound"]
