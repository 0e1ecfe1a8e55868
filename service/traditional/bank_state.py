"""What a player-banked table carries between rounds (kept in tables.state)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True, slots=True)
class BankState:
    banker_place: int = 0             # the chair holding the bank; a new table's bank is at chair 0
    kitty: int = 0                    # Shoot Pontoon: the kitty the banker has up, in cents
    pack: dict | None = None          # a virtual pack between rounds (TraditionalPack.to_state); None: physical
    # A physical pack since its last shuffle: {"decks", "dealt": cards dealt, "returned": cards gone
    # under it}, each in order (None: nothing known yet, as after a shuffle).
    used: dict | None = None

    @classmethod
    def of(cls, stored: dict[str, Any] | None) -> BankState:
        stored = stored or {}
        return cls(stored.get("banker_place", 0), stored.get("kitty", 0), stored.get("pack"), stored.get("used"))

    def as_json(self) -> dict[str, Any]:
        return {"banker_place": self.banker_place, "kitty": self.kitty, "pack": self.pack, "used": self.used}

    def with_(self, **changes: Any) -> BankState:
        return replace(self, **changes)
