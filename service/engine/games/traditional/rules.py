"""The player-banked game's rules as a frozen record: the pack, the limits and every named option."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import ClassVar

from ...limits import Limits
from ...round_core import whole_cents
from ...rule_errors import RuleFieldError
from ...shoe import ShoeSpec

__all__ = ["BURN_TOTALS", "LIMIT_KINDS", "MAX_MULTIPLE", "OPTION_DEFAULTS", "RuleFieldError", "SPLIT_PAIRS",
           "SplitPairs", "TraditionalRules"]


class SplitPairs(StrEnum):
    """Which pairs a school lets a player split."""

    ANY = "any"
    ACES = "aces"


# The spec's Options table, in its order, with its defaults. A transcript's `options` object may
# override exactly these names; everything else in a rules file is the card room's fixed data.
OPTION_DEFAULTS: dict[str, object] = {
    "stick_min": 15,
    "split_pairs": "any",
    "pontoon_pays": 2,
    "five_card_trick_pays": 2,
    "banker_pontoon_collects": 2,
    "ace_ten_is_pontoon": True,
    "natural_beats_plain": False,
    "royal_pontoon": False,
    "no_buy_fifth_on_eleven": False,
    "burn": None,
    "banker_may_double": False,
    "shoot": False,
}
SPLIT_PAIRS = tuple(choice.value for choice in SplitPairs)
BURN_TOTALS = (13, 14)
_BOOLEAN_OPTIONS = ("ace_ten_is_pontoon", "natural_beats_plain", "royal_pontoon",
                    "no_buy_fifth_on_eleven", "banker_may_double", "shoot")
_MULTIPLE_OPTIONS = ("pontoon_pays", "five_card_trick_pays", "banker_pontoon_collects")
MAX_MULTIPLE = 10


class LimitKind(StrEnum):
    """What a table of this game limits, by the name its limits give it: each initial stake, each
    buy, each shoot bet, and the kitty as the banker puts it up (the last two in Shoot Pontoon)."""

    STAKE = "stake"
    BUY = "buy"
    SHOOT = "shoot"
    KITTY = "kitty"


LIMIT_KINDS = tuple(kind.value for kind in LimitKind)
SHOOT_ONLY_LIMITS = frozenset({LimitKind.SHOOT, LimitKind.KITTY})


@dataclass(frozen=True, slots=True)
class TraditionalRules:
    """Rules of British player-banked Pontoon (and its school variants, named by option)."""

    game: ClassVar[str] = "traditional"   # the game family that plays these rules

    name: str
    shoe: ShoeSpec                     # the pack for an ordinary table
    large_table_shoe: ShoeSpec         # the packs once `large_table_players` sit in
    large_table_players: int           # people dealt in, the banker counted, who need two packs
    max_seats: int                     # player seats 1..max_seats; the banker is seat 0
    stake_limits: Limits               # each initial stake
    kitty_limits: Limits               # a kitty as the banker puts it up
    shoot_bet_minimum: int             # the smallest shoot bet; the room in the kitty caps it
    split_max_hands: int
    first_buy_max_multiple: int        # the third card costs up to this many initial stakes
    royal_pontoon_pays: int
    banker_five_card_trick_collects: int
    stick_min: int = 15
    split_pairs: SplitPairs = SplitPairs.ANY
    pontoon_pays: int = 2
    five_card_trick_pays: int = 2
    banker_pontoon_collects: int = 2
    ace_ten_is_pontoon: bool = True
    natural_beats_plain: bool = False
    royal_pontoon: bool = False
    no_buy_fifth_on_eleven: bool = False
    burn: int | None = None
    banker_may_double: bool = False
    shoot: bool = False
    # Limits a table (or a rules file) may set beyond the stake's and the kitty's: a buy's, within
    # the range the buy rule gives (None: that range alone), and the most one shoot bet may be,
    # within the room left in the kitty (None: the room alone).
    buy_limits: Limits | None = None
    shoot_bet_maximum: int | None = None

    def __post_init__(self) -> None:
        self._check_table()
        self._check_options()
        # A rules file names the choice as text; the record holds the choice itself (equal to its text).
        object.__setattr__(self, "split_pairs", SplitPairs(self.split_pairs))

    def _check_table(self) -> None:
        """The card room's fixed data: the packs, the seats, the limits and the fixed multiples."""
        if not isinstance(self.name, str) or not self.name:
            raise RuleFieldError("name", "must name the rules")
        if not isinstance(self.shoe, ShoeSpec) or not isinstance(self.large_table_shoe, ShoeSpec):
            raise RuleFieldError("shoe", "must describe a pack")
        if self.shoe.ranks_removed or self.large_table_shoe.ranks_removed:
            raise RuleFieldError("shoe", "must be whole packs: this game removes no ranks")
        if self.large_table_shoe.decks < self.shoe.decks:
            raise RuleFieldError("large_table.decks", "must be at least the ordinary table's decks")
        if not whole_cents(self.large_table_players) or self.large_table_players < 2:
            raise RuleFieldError("large_table.players", "must be a whole number of at least 2")
        if not whole_cents(self.max_seats) or not 1 <= self.max_seats <= 12:
            raise RuleFieldError("seats", "must be a whole number from 1 to 12")
        if not whole_cents(self.shoot_bet_minimum) or self.shoot_bet_minimum < 1:
            raise RuleFieldError("limits.shoot_bet_min", "must be at least 1 cent")
        if not whole_cents(self.split_max_hands) or not 1 <= self.split_max_hands <= 4:
            raise RuleFieldError("split_max_hands", "must be a whole number from 1 to 4")
        if not whole_cents(self.first_buy_max_multiple) or not 1 <= self.first_buy_max_multiple <= MAX_MULTIPLE:
            raise RuleFieldError("first_buy_max_multiple", f"must be a whole number from 1 to {MAX_MULTIPLE}")
        for field, limits in (("limits.stake", self.stake_limits), ("limits.kitty", self.kitty_limits),
                              ("limits.buy", self.buy_limits)):
            if limits is not None and not isinstance(limits, Limits):
                raise RuleFieldError(field, "must be limits {min, max} in cents")
        if self.shoot_bet_maximum is not None and (not whole_cents(self.shoot_bet_maximum)
                                                   or self.shoot_bet_maximum < self.shoot_bet_minimum):
            raise RuleFieldError("limits.shoot_bet_max", f"must be whole cents of at least the shoot bet's minimum "
                                                         f"{self.shoot_bet_minimum}")

    def _check_options(self) -> None:
        """The named options, each within what the spec's Options table allows."""
        for field in ("royal_pontoon_pays", "banker_five_card_trick_collects", *_MULTIPLE_OPTIONS):
            if not whole_cents(getattr(self, field)) or not 1 <= getattr(self, field) <= MAX_MULTIPLE:
                raise RuleFieldError(field, f"must be a whole number from 1 to {MAX_MULTIPLE}")
        if not whole_cents(self.stick_min) or not 2 <= self.stick_min <= 21:
            raise RuleFieldError("stick_min", "must be a whole number from 2 to 21")
        if self.split_pairs not in SPLIT_PAIRS:
            raise RuleFieldError("split_pairs", f"must be one of {', '.join(SPLIT_PAIRS)}, not {self.split_pairs!r}")
        for field in _BOOLEAN_OPTIONS:
            if not isinstance(getattr(self, field), bool):
                raise RuleFieldError(field, f"must be true or false, not {getattr(self, field)!r}")
        if self.burn is not None and (not whole_cents(self.burn) or self.burn not in BURN_TOTALS):
            raise RuleFieldError("burn", f"must be 13, 14 or null, not {self.burn!r}")

    def shoe_for(self, players: int) -> ShoeSpec:
        """The pack for a table of `players` punters (the banker makes one more person)."""
        return self.large_table_shoe if players + 1 >= self.large_table_players else self.shoe

    def options(self) -> dict[str, object]:
        """Every named option's value, as a transcript's `options` object writes them."""
        return {name: getattr(self, name) for name in OPTION_DEFAULTS}

    # ----- limits --------------------------------------------------------------------------
    def limit_kinds(self) -> tuple[str, ...]:
        """The bets (and the kitty) a table of these rules may limit: shoot and kitty only in Shoot Pontoon."""
        return tuple(kind for kind in LIMIT_KINDS if self.shoot or kind not in SHOOT_ONLY_LIMITS)

    def with_limits(self, limits: Mapping[str, Limits]) -> TraditionalRules:
        """These rules under a table's own limits, by kind (each replaces the rules' own); a kind
        the game has not (a pair bet, or a kitty outside Shoot Pontoon) is a RuleFieldError."""
        if not limits:
            return self
        for kind, limit in limits.items():
            if kind not in self.limit_kinds():
                raise RuleFieldError(f"limits.{kind}", self.no_such_limit(kind))
            if not isinstance(limit, Limits):
                raise RuleFieldError(f"limits.{kind}", "must be limits {min, max} in cents")
        shoot = limits.get(LimitKind.SHOOT)
        return replace(self, stake_limits=limits.get(LimitKind.STAKE, self.stake_limits),
                       buy_limits=limits.get(LimitKind.BUY, self.buy_limits),
                       kitty_limits=limits.get(LimitKind.KITTY, self.kitty_limits),
                       shoot_bet_minimum=shoot.minimum if shoot else self.shoot_bet_minimum,
                       shoot_bet_maximum=shoot.maximum if shoot else self.shoot_bet_maximum)

    def no_such_limit(self, kind: str) -> str:
        """Why a table of these rules cannot limit `kind`."""
        if kind in SHOOT_ONLY_LIMITS:
            return f"is not limited here: {self.name} plays no Shoot Pontoon, so it has no {kind}"
        return f"is not a bet of the player-banked game: a table limits its {', '.join(self.limit_kinds())}"

    def limit_figures(self) -> dict[str, tuple[int, int]]:
        """(least, most) of each kind this table takes, in cents, as the rules and limits set them: a
        buy's most is the dearest any buy can be (twice the largest stake, by default); a shoot bet's
        most, without one of its own, is the largest kitty (each is further held to the room left)."""
        stake = self.stake_limits
        buy = self.buy_limits or Limits(stake.minimum, stake.maximum * self.first_buy_max_multiple)
        figures = {LimitKind.STAKE.value: (stake.minimum, stake.maximum),
                   LimitKind.BUY.value: (buy.minimum, buy.maximum)}
        if self.shoot:
            shoot_max = self.shoot_bet_maximum if self.shoot_bet_maximum is not None else self.kitty_limits.maximum
            figures[LimitKind.SHOOT.value] = (self.shoot_bet_minimum, shoot_max)
            figures[LimitKind.KITTY.value] = (self.kitty_limits.minimum, self.kitty_limits.maximum)
        return figures
