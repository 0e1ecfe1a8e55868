"""The player-banked traditional British game as the service plays it: players against a banker who
is one of them, the table's pack, bank and kitty carried from round to round (service.traditional),
and money that moves between the participants as transfers."""
from __future__ import annotations

from typing import Any

from ..catalog import GameRules
from ..engine.shoe import PhysicalShoe
from ..ledger.transfers import audit_records_for, check_stored_result, ledger_rows_for
from ..refusals import Conflict
from ..store.repositories.audit import AuditRecord
from ..store.repositories.ledger import LedgerRow
from ..store.repositories.rounds import RoundRow
from ..store.repositories.shoes import ShoeRow
from ..store.repositories.traditional import RoundSetup
from ..store.uow import UnitOfWork
from ..traditional import GAME
from ..traditional import bank as traditional_bank
from ..traditional import pack as traditional_pack
from ..traditional import rounds as traditional_rounds
from ..traditional import views as traditional_views
from ..traditional.bank_state import BankState
from .family import GameFamily, Note, Opening, RoundChange, RoundRequest, StoredRound, lock_round_shoe


def effective_limits(rules: Any, limits: dict | None) -> dict:
    """The table's own limits as stored: the players' stakes are bounded by the rules."""
    return dict(limits or {})


def start(rules: Any, paytable: Any, players: list[dict], limits: dict | None, kitty: int | None = None) -> Any:
    """A fresh round for these players against `kitty` (Shoot Pontoon); the game has no paytable
    and its table limits nothing the round checks."""
    return traditional_rounds.new_round(rules, players, kitty)


def open_round(uow: UnitOfWork, cmd: RoundRequest, shoe: ShoeRow, game_rules: GameRules,
               limits: dict | None) -> Opening:
    """The players against the table's banker, with the kitty and the pack the table carries from
    round to round (a new pack when the round needs one)."""
    if cmd.players is None:
        # The body is well formed (the house-banked game's shape); this table's game refuses it.
        raise Conflict("this table's game is player-banked: open its rounds with players", code="wrong_game",
                       errors={"players": ["this table's game is player-banked: send players, not wagers"]})
    prepared = traditional_rounds.prepare_round(uow, cmd.table_id, shoe, game_rules, cmd.players, cmd.banker_place)
    return Opening(prepared.game, prepared.shoe, cmd.players, None, prepared.notes,
                   {"banker_place": prepared.setup.banker_place, "kitty": prepared.setup.kitty_before},
                   stored=_keep_setup(prepared.setup))


def _keep_setup(setup: RoundSetup) -> Any:
    """The banker's chair and kitty the round opened with, kept beside its row: its replay needs them."""
    def stored(uow: UnitOfWork, row: RoundRow) -> None:
        traditional_rounds.record_round(uow, row.round_id, row.table_id, setup)
    return stored


def shoe_opened(uow: UnitOfWork, table_id: str, shoe: ShoeRow, rules: Any) -> None:
    """The new shoe is the table's pack from its next round on."""
    traditional_pack.shoe_opened(uow, table_id, shoe, rules.shoe)


def any_seat(seat: int) -> None:
    """Seat 0 is the banker's, who decides as the players do."""


def deal(change: RoundChange, shoe_row: ShoeRow | None) -> None:
    """The pack carries over from round to round: cards come from the table's pack, not the shoe row."""
    traditional_pack.deal_from_pack(change)


def physical_shoe(change: RoundChange) -> PhysicalShoe:
    """The round's pack less the cards on the table (used cards go back under the pack). The table
    is locked first, in the order the round's end takes the locks."""
    change.uow.tables.lock(change.row.table_id)
    lock_round_shoe(change)
    return traditional_pack.physical_pack(change.game)


def round_completed(change: RoundChange) -> None:
    """The bank, the kitty and the pack move on to the next round."""
    traditional_bank.round_completed(change)


def settle(round_: StoredRound, played: Any, result: dict) -> tuple[list[LedgerRow], list[AuditRecord]]:
    """The round's transfers between the banker, the players and the kitty, as ledger rows and
    payout records; ValueError when the result stored at completion disagrees with the replay."""
    check_stored_result(round_.result, result)
    return ledger_rows_for(round_, played.transfers), audit_records_for(round_, played.transfers)


def void(uow: UnitOfWork, row: RoundRow, game: Any) -> tuple[list[dict], list[Note]]:
    """No money changes hands before settlement (stakes, buys and shoot bets are all paid then), so
    a void refunds nothing; a virtual pack that carried the seen cards on would tell the next deal,
    so it is shuffled anew."""
    if row.shoe_mode != "virtual":
        return [], []
    return [], traditional_pack.shuffle_after_void(uow, row.table_id, game)


def table_fields(uow: UnitOfWork, table_id: str, rules: Any) -> dict:
    """Who holds the bank, and the kitty."""
    state = BankState.of(uow.traditional.state(table_id))
    return {"bank": traditional_views.bank_view(table_id, rules, state)}


def transcript(game: Any, rules_ref: str, paytable_ref: str | None) -> dict:
    """The player-banked game's transcript names no paytable."""
    return {**game.transcript(rules_ref), "paytable": None}


FAMILY = GameFamily(
    game=GAME, needs_paytable=False, virtual_shoe_deals=False, evaluates_paytables=False,
    effective_limits=effective_limits, start=start, kitty_before=traditional_rounds.kitty_before,
    open_round=open_round, shoe_opened=shoe_opened, check_seat=any_seat, deal=deal, physical_shoe=physical_shoe,
    round_completed=round_completed, settle=settle, void=void, round_fields=traditional_views.round_fields,
    table_fields=table_fields, transcript=transcript,
)
