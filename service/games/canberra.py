"""The house-banked Canberra game as the service plays it: wagers against the house, a virtual shoe
dealing to the round directly, a paytable, and bet lines the ledger settles seat by seat."""
from __future__ import annotations

import uuid
from collections import defaultdict
from typing import Any

from ..catalog import GameRules, rules_and_paytable
from ..engine.actions import RuleViolation
from ..engine.games.canberra import CanberraRound
from ..engine.games.canberra.seats import side_bet_limits
from ..engine.shoe import PhysicalShoe, ShoeError, VirtualShoe
from ..ledger.bets import rows_for_bets
from ..ledger.transcripts import bet_totals, seat_totals
from ..refusals import Conflict
from ..store.repositories.audit import AuditRecord
from ..store.repositories.ledger import LedgerRow
from ..store.repositories.rounds import RoundRow, RoundStatus
from ..store.repositories.shoes import ShoeRow
from ..store.uow import UnitOfWork
from .family import GameFamily, Note, Opening, RoundChange, RoundRequest, StoredRound, lock_round_shoe, table_limits

GAME = "canberra"
SETTLEMENT_ACTOR = "settlement"


def effective_limits(rules: Any, limits: dict | None) -> dict:
    """What a table accepts: its main wager's limits (its own, else the rules'), and any side bet's
    limits it sets for itself (a side bet's own are in its paytable)."""
    own = table_limits(limits)
    main = own.get("main", rules.main_limits)
    return {"main": {"min": main.minimum, "max": main.maximum},
            **{kind: {"min": lim.minimum, "max": lim.maximum} for kind, lim in own.items() if kind != "main"}}


def start(rules: Any, paytable: Any, wagers: list[dict], limits: dict | None, kitty: int | None = None) -> Any:
    """A fresh round with these wagers under the table's limits; Conflict (409) when the table's
    rules or limits refuse them, as a double outside them is (the house-banked game has no kitty)."""
    try:
        return CanberraRound(rules, paytable, wagers, limits=table_limits(limits))
    except RuleViolation as exc:
        raise Conflict(str(exc), code="wager_refused") from None


def open_round(uow: UnitOfWork, cmd: RoundRequest, shoe: ShoeRow, game_rules: GameRules,
               limits: dict | None) -> Opening:
    """The players' wagers against the house, on the table's shoe unless it is past its cut card."""
    if cmd.wagers is None:
        # The body is well formed (the player-banked game's shape); this table's game refuses it.
        raise Conflict("this table's game is house-banked: open its rounds with wagers", code="wrong_game",
                       errors={"wagers": ["this table's game is house-banked: send wagers, not players"]})
    game = start(game_rules.rules, game_rules.paytable, cmd.wagers, limits)
    if shoe.mode == "virtual" and _virtual(game_rules, shoe).past_cut_card:
        raise Conflict("the shoe is past its cut card: open a new shoe", code="shoe_past_cut_card")
    return Opening(game, shoe, cmd.wagers, game_rules.paytable_ref)


def check_seat(seat: int) -> None:
    if seat == 0:
        raise Conflict("seat 0 is the banker's, and this game has no banker", code="decision_refused",
                       errors={"seat": ["the house-banked game's seats are 1 to 9"]})


def _virtual(game_rules: GameRules, shoe_row: ShoeRow) -> VirtualShoe:
    return VirtualShoe(game_rules.rules.shoe, order=shoe_row.card_order, salt=shoe_row.salt,
                       position=shoe_row.position)


def deal(change: RoundChange, shoe_row: ShoeRow | None) -> None:
    """Deal from the top of the table's virtual shoe for as long as the round awaits a card
    (`shoe_row`: the shoe, when the caller holds its lock already). With the table's shoe in hand,
    the answer then says whether it has passed its cut card: the terminal opens a new shoe after
    the round instead of being refused the next one."""
    owed = change.game.awaiting == "card"
    if not owed and shoe_row is None:
        return
    if shoe_row is None:
        shoe_row = lock_round_shoe(change)
    shoe = _virtual(change.game_rules, shoe_row)
    while change.game.awaiting == "card":
        try:
            card = shoe.deal()
        except ShoeError:
            raise Conflict("the shoe ran out of cards in the middle of the round", code="shoe_empty") from None
        change.card(change.game.deal_card(card))
    if owed:
        change.shoe_position = (shoe_row.shoe_id, shoe.position)  # written with the round's events
    change.shoe_past_cut_card = shoe.past_cut_card


def physical_shoe(change: RoundChange) -> PhysicalShoe:
    """What a reported card must fit, its shoe row locked: the table's shoe less every card it has given."""
    shoe_row = lock_round_shoe(change)
    return PhysicalShoe(change.game_rules.rules.shoe, dealt=shoe_row.dealt)


def settle(round_: StoredRound, played: Any, result: dict) -> tuple[list[LedgerRow], list[AuditRecord]]:
    """The replayed round's bet lines as ledger rows and payout records; ValueError when the
    result stored at completion disagrees with the replay."""
    if round_.result is not None and seat_totals(round_.result) != seat_totals(result):
        raise ValueError(f"the stored result {seat_totals(round_.result)} disagrees with the replay "
                         f"{seat_totals(result)}")
    bets = played.bets   # listed anew at each reading: read once
    ledger = rows_for_bets(round_.round_id, round_.table_id, round_.shoe_id, round_.rules_ref,
                           round_.paytable_ref, bets)
    return ledger, payout_records(round_, bets)


def payout_records(round_: StoredRound, bets: list[Any]) -> list[AuditRecord]:
    """One payout record per seat (its bets, stake and return), and a super_bonus_won record
    for each super bonus paid."""
    by_seat: dict[int, list[Any]] = defaultdict(list)
    for bet in bets:
        by_seat[bet.seat].append(bet)
    totals = bet_totals(bets)
    records = []
    for seat in sorted(by_seat):
        staked, returned = totals[seat]
        records.append(AuditRecord("payout", {
            "seat": seat, "staked": staked, "returned": returned, "net": returned - staked,
            "shoe_id": round_.shoe_id, "rules": round_.rules_ref, "paytable": round_.paytable_ref,
            "bets": [{"hand": bet.hand, "kind": bet.kind, "stake": bet.stake, "returned": bet.returned,
                      "outcome": bet.outcome} for bet in by_seat[seat]],
        }, SETTLEMENT_ACTOR, round_.table_id, round_.round_id))
    for bet in bets:
        if bet.kind == "super_bonus":
            records.append(AuditRecord("super_bonus_won", {"seat": bet.seat, "hand": bet.hand, "prize": bet.returned},
                                       SETTLEMENT_ACTOR, round_.table_id, round_.round_id))
    return records


def stakes_placed(game: Any) -> list[dict]:
    """Each seat's stakes so far, bet by bet, as the engine holds them after replaying the round:
    main wager, split wagers, doubles, side bets (by name) and insurance."""
    seats = []
    for seat in game.snapshot()["seats"]:
        bets = []
        for hand in seat["hands"]:
            kind = "main" if hand["hand"] == 0 else "split"
            bets.append({"kind": kind, "hand": hand["hand"], "stake": hand["wager"]})
            if hand["double"]:
                bets.append({"kind": "double", "hand": hand["hand"], "stake": hand["double"]})
        for name, stake in seat["side_bets"].items():
            bets.append({"kind": name, "hand": None, "stake": stake})
        if seat["insurance"]:
            bets.append({"kind": "insurance", "hand": None, "stake": seat["insurance"]})
        seats.append({"seat": seat["seat"], "bets": bets, "refunded": sum(bet["stake"] for bet in bets)})
    return seats


def void(uow: UnitOfWork, row: RoundRow, game: Any) -> tuple[list[dict], list[Note]]:
    """Every stake placed so far goes back to its seat; the shoe never deals a card twice, so
    nothing about it changes."""
    return stakes_placed(game), []


def round_fields(row: RoundRow, game: Any, snapshot: dict) -> dict:
    """The dealer, the seats, and each seat's money once the ledger has it."""
    return {"dealer": snapshot["dealer"], "seats": snapshot["seats"], "settlement": settlement(row)}


def settlement(row: RoundRow) -> dict | None:
    """Each seat's money, shown only once the settlement worker has written the ledger."""
    if row.status != RoundStatus.SETTLED or not row.result:
        return None
    return {"seats": [{key: seat[key] for key in ("seat", "staked", "returned", "net")}
                      for seat in row.result["seats"]]}


def transcript(game: Any, rules_ref: str, paytable_ref: str | None) -> dict:
    return game.transcript(rules_ref, paytable_ref)


def _nothing(*_: Any) -> None:
    """What the house-banked game does where the player-banked one moves its bank, kitty or pack."""


def _no_kitty(uow: UnitOfWork, round_id: uuid.UUID) -> None:
    return None


def table_fields(uow: UnitOfWork, table_id: str, rules: Any) -> dict:
    """The side bets the table's next round takes, by name, with their limits (the table's own,
    else its paytable's)."""
    row = uow.tables.get(table_id)
    if row is None:
        return {}
    paytable = rules_and_paytable(uow.paytables, row).paytable
    if paytable is None:
        return {}
    limits = side_bet_limits(paytable, table_limits(row.limits))
    return {"side_bets": {name: {"min": lim.minimum, "max": lim.maximum} for name, lim in limits.items()}}


FAMILY = GameFamily(
    game=GAME, needs_paytable=True, virtual_shoe_deals=True, evaluates_paytables=True,
    effective_limits=effective_limits, start=start, kitty_before=_no_kitty, open_round=open_round,
    shoe_opened=_nothing, check_seat=check_seat, deal=deal, physical_shoe=physical_shoe, round_completed=_nothing,
    settle=settle, void=void, round_fields=round_fields, table_fields=table_fields, transcript=transcript,
)
