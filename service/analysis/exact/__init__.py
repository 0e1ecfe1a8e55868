"""Exact analysis of a rule set and paytable: a composition-dependent recursion off the top of a full shoe."""
