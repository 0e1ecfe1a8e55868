"""Traditional British Pontoon (banked by one of the players): rules, hands, round, pack across rounds."""
from .hands import BankerStatus, HandStatus
from .pack import TraditionalPack
from .round import TraditionalRound
from .rules import OPTION_DEFAULTS, RuleFieldError, SplitPairs, TraditionalRules
from .state import BANKER_SEAT, Phase
from .transfers import Transfer

__all__ = ["TraditionalRules", "TraditionalRound", "TraditionalPack", "Transfer", "OPTION_DEFAULTS",
           "RuleFieldError", "BANKER_SEAT", "Phase", "HandStatus", "BankerStatus", "SplitPairs"]
