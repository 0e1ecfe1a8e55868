"""The punters of a player-banked round: their seats, their hands, and the stakes that open them."""
from __future__ import annotations

from dataclasses import dataclass, field

from ...actions import RuleViolation
from ...round_core import whole_cents
from .hands import HandStatus
from .rules import TraditionalRules

PLAYER_FIELDS = frozenset({"seat", "stake", "shoot"})


@dataclass(slots=True)
class PlayerHand:
    """One hand of a punter: its cards, stakes bought and where it stands."""

    index: int
    stake: int                          # the initial stake (a split hand's equals the seat's)
    cards: list[str] = field(default_factory=list)
    positions: list[int] = field(default_factory=list)   # where each card left the pack
    buys: list[int] = field(default_factory=list)
    twisted: bool = False
    status: HandStatus = HandStatus.PLAYING
    shoot_bets: list[int] = field(default_factory=list)
    fourth_card_shoot: bool = False     # the one extra shoot bet before the fourth card is placed
    must_take_card: bool = False        # that bet binds the hand to take its fourth card
    burned: list[str] = field(default_factory=list)
    outcome: str | None = None          # how it settled: the kind of its stake's transfer

    @property
    def total_stake(self) -> int:
        return self.stake + sum(self.buys)

    @property
    def shoot_total(self) -> int:
        return sum(self.shoot_bets)


@dataclass(slots=True)
class PlayerSeat:
    """A punter in the school: the stake, the shoot bet and the hands."""

    number: int
    stake: int
    shoot: int
    hands: list[PlayerHand]

    @property
    def split(self) -> bool:
        return len(self.hands) > 1


def seats_from(rules: TraditionalRules, players: object) -> list[PlayerSeat]:
    """The punters dealt in, in seat order, from the transcript's `players` (each stake checked)."""
    if not isinstance(players, list) or not players:
        raise RuleViolation("a round needs at least one player with a stake")
    seats: dict[int, PlayerSeat] = {}
    for entry in players:
        seat = _seat_from(rules, entry)
        if seat.number in seats:
            raise RuleViolation(f"seat {seat.number} is listed twice")
        seats[seat.number] = seat
    return [seats[n] for n in sorted(seats)]


def _seat_from(rules: TraditionalRules, entry: object) -> PlayerSeat:
    if not isinstance(entry, dict):
        raise RuleViolation("each player must be an object {seat, stake, shoot?}")
    number, stake, shoot = entry.get("seat"), entry.get("stake"), entry.get("shoot", 0)
    if not whole_cents(number) or not 1 <= number <= rules.max_seats:
        raise RuleViolation(f"seat {number!r} does not exist: player seats are 1 to {rules.max_seats} "
                            "(the banker is seat 0)")
    unknown = set(entry) - PLAYER_FIELDS
    if unknown:
        raise RuleViolation(f"seat {number}: unknown fields {sorted(unknown)}")
    limits = rules.stake_limits
    if not whole_cents(stake) or not limits.contains(stake):
        raise RuleViolation(f"seat {number}: stake {stake!r} is outside the limits "
                            f"{limits.minimum} to {limits.maximum}")
    shoot = 0 if shoot is None else shoot
    if not whole_cents(shoot) or shoot < 0:
        raise RuleViolation(f"seat {number}: shoot bet {shoot!r} must be a whole number of cents")
    if shoot and not rules.shoot:
        raise RuleViolation(f"seat {number}: shoot bets are played only in Shoot Pontoon (shoot: true)")
    most = rules.shoot_bet_maximum
    if shoot and (shoot < rules.shoot_bet_minimum or (most is not None and shoot > most)):
        raise RuleViolation(f"seat {number}: shoot bet {shoot} is outside the limits {rules.shoot_bet_minimum} to "
                            + (str(most) if most is not None else "the room in the kitty"))
    return PlayerSeat(number, stake, shoot, [PlayerHand(0, stake, shoot_bets=[shoot] if shoot else [])])


def kitty_from(rules: TraditionalRules, kitty: object, seats: list[PlayerSeat]) -> int:
    """The kitty the round is played against: none outside Shoot Pontoon, else room for the shoot bets."""
    if not rules.shoot:
        if kitty:
            raise RuleViolation("a kitty is played only in Shoot Pontoon (shoot: true)")
        return 0
    if not whole_cents(kitty) or kitty < 1:
        raise RuleViolation(f"Shoot Pontoon needs a kitty of at least 1 cent, not {kitty!r}: "
                            "an empty kitty must be renewed or the bank sold")
    opened = sum(s.shoot for s in seats)
    if opened > kitty:
        raise RuleViolation(f"the shoot bets ({opened}) exceed the kitty ({kitty})")
    return kitty
