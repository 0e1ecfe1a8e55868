"""Rules and paytables: YAML read at the edge and validated into the engine's frozen objects."""
from .errors import RulesError
from .registry import load_paytable, load_rules, parse_paytable, parse_rules

__all__ = ["RulesError", "load_rules", "load_paytable", "parse_rules", "parse_paytable"]
