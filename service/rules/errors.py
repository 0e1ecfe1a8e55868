"""The error a bad rules or paytable document raises: every bad field with its reason."""
from __future__ import annotations


class RulesError(ValueError):
    def __init__(self, source: str, errors: dict[str, str]) -> None:
        self.source = source
        self.errors = dict(errors)
        listed = "; ".join(f"{field}: {why}" for field, why in self.errors.items())
        super().__init__(f"{source}: {listed}")
