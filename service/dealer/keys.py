"""The screen's keyboard: a key for every decision and every step, shown on its button."""
from __future__ import annotations

# Each decision the games have, by the API's name, and its key. A hand never has two decisions
# sharing a key: `stand` and `stick` are the two games' words for the same thing.
KEY_OF_DECISION: dict[str, str] = {
    "hit": "h", "stand": "s", "double": "d", "split": "p", "surrender": "r", "insurance": "i", "forfeit": "f",
    "buy": "b", "twist": "t", "stick": "s", "burn": "u", "shoot": "o",
    "draw": "w", "stay": "y", "double_stakes": "x",
}

# The steps between decisions.
KEY_OF_STEP: dict[str, str] = {
    "deal": "Enter", "next_round": "n", "physical_shoe": "p", "virtual_shoe": "v", "close_shoe": "c",
    "call_supervisor": "m", "kitty": "k", "card": "/",
}
