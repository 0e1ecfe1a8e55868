"""Traditional British Pontoon (banked by one of the players): rules, hands, round, pack across rounds."""
from .pack import TraditionalPack
from .round import TraditionalRound
from .rules import OPTION_DEFAULTS, RuleFieldError, TraditionalRules
from .transfers import Transfer

__all__ = ["TraditionalRules", "TraditionalRound", "TraditionalPack", "Transfer", "OPTION_DEFAULTS",
           "RuleFieldError"]
