"""Rules and paytables: YAML read at the edge and validated into the engine's frozen records."""
from .errors import RulesError
from .refs import Ref
from .registry import (
    HouseBankedRules,
    Paytable,
    Rules,
    load_house_banked_rules,
    load_paytable,
    load_rules,
    parse_house_banked_rules,
    parse_paytable,
    parse_rules,
)

__all__ = ["HouseBankedRules", "Paytable", "Ref", "RulesError", "Rules", "load_house_banked_rules", "load_rules",
           "load_paytable", "parse_house_banked_rules", "parse_rules", "parse_paytable"]
