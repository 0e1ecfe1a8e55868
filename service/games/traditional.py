"""The player-banked traditional British game as the service plays it: players against a banker who
is one of them, the table's pack, bank and kitty carried from round to round (service.traditional),
and money that moves between the participants as transfers."""
from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from typing import Any

from ..catalog import GameRules
from ..engine.games.registry import GamePaytable
from ..engine.games.traditional import TraditionalRound, TraditionalRules
from ..engine.games.traditional.transcripts import round_from_transcript
from ..engine.transcript import Transcript
from ..ledger.transfers import audit_records_for, check_stored_result, ledger_rows_for
from ..refusals import Conflict
from ..rules import traditional as rules_file
from ..rules.reader import Reader
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
from ..traditional.seating import BANKER_SEAT
from .family import (
    GameFamily,
    Note,
    Opening,
    Refund,
    ReportedCards,
    RoundChange,
    RoundRequest,
    StoredRound,
    View,
    lock_round_shoe,
    table_limits,
)

Change = RoundChange[TraditionalRound]


class TraditionalFamily(GameFamily[TraditionalRules, TraditionalRound]):
    """The player-banked game: players against a banker who is one of them, Shoot Pontoon's kitty."""

    game = GAME
    display_name = "Traditional Pontoon"
    house_banked = False
    needs_paytable = False
    virtual_shoe_deals = False
    evaluates_paytables = False
    decisions = TraditionalRound.DECISIONS
    amount_decisions = TraditionalRound.TAKES_AMOUNT
    templates = f"games/{GAME}"

    def read_rules(self, doc: Reader, overrides: Mapping[str, object]) -> TraditionalRules | None:
        return rules_file.read_rules(doc, overrides)

    def own_limits(self, rules: TraditionalRules, paytable: GamePaytable | None,
                   limits: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
        """A table limits the stake (`main`, every game's name for its first bet, is read as the
        stake), the buy, and in Shoot Pontoon the shoot bet and the kitty; any other kind is refused
        (409), as is a limit the rules could not play."""
        own = dict(limits)
        if "main" in own:
            if "stake" in own:
                raise Conflict("limits: main and stake name the same bet here, the initial stake: give one",
                               code="limits_refused", errors={"limits.main": ["the stake's limits: give stake only"]})
            own["stake"] = own.pop("main")
        unknown = sorted(kind for kind in own if kind not in rules.limit_kinds())
        if unknown:
            raise Conflict(f"{rules.name} limits only {', '.join(rules.limit_kinds())}: it has no "
                           f"{', '.join(map(repr, unknown))}", code="limits_refused",
                           errors={f"limits.{kind}": [rules.no_such_limit(kind)] for kind in unknown})
        return own

    def effective_limits(self, rules: TraditionalRules, limits: dict[str, dict[str, int]] | None) -> View:
        """What the table takes, kind by kind, with its figures: the table's own limits where it
        has them, else the rules' (a buy's most is the dearest a buy can be, a shoot bet's the
        largest kitty; each is held further to the buy rule and the room left in the kitty)."""
        figures = rules.with_limits(table_limits(limits)).limit_figures()
        return {kind: {"min": low, "max": high} for kind, (low, high) in figures.items()}

    def start(self, rules: TraditionalRules, paytable: GamePaytable | None, entries: list[dict[str, int]],
              limits: dict[str, dict[str, int]] | None, kitty: int | None = None) -> TraditionalRound:
        """A fresh round for these players against `kitty` (Shoot Pontoon) under the table's own
        limits; the game has no paytable."""
        return traditional_rounds.new_round(rules, entries, kitty, table_limits(limits))

    def kitty_before(self, uow: UnitOfWork, round_id: uuid.UUID) -> int | None:
        return traditional_rounds.kitty_before(uow, round_id)

    def open_round(self, uow: UnitOfWork, cmd: RoundRequest, shoe: ShoeRow, game_rules: GameRules,
                   limits: dict[str, dict[str, int]] | None) -> Opening[TraditionalRound]:
        """The players against the table's banker, with the kitty and the pack the table carries from
        round to round (a new pack when the round needs one)."""
        if cmd.players is None:
            # The body is well formed (the house-banked game's shape); this table's game refuses it.
            raise Conflict("this table's game is player-banked: open its rounds with players", code="wrong_game",
                           errors={"players": ["this table's game is player-banked: send players, not wagers"]})
        prepared = traditional_rounds.prepare_round(uow, cmd.table_id, shoe, game_rules, cmd.players,
                                                    cmd.banker_place, table_limits(limits))
        return Opening(prepared.game, prepared.shoe, cmd.players, None, prepared.notes,
                       {"banker_place": prepared.setup.banker_place, "kitty": prepared.setup.kitty_before},
                       stored=_keep_setup(prepared.setup))

    def shoe_opened(self, uow: UnitOfWork, table_id: str, shoe: ShoeRow, rules: TraditionalRules) -> None:
        """The new shoe is the table's pack from its next round on."""
        traditional_pack.shoe_opened(uow, table_id, shoe, rules.shoe)

    def rules_changed(self, uow: UnitOfWork, table_id: str, before: TraditionalRules, after: TraditionalRules,
                      actor: str | None) -> list[Note]:
        """Rules without Shoot Pontoon have no kitty: a kitty up goes back to the banker."""
        return traditional_bank.rules_changed(uow, table_id, before, after, actor)

    def check_seat(self, seat: int) -> None:
        """Seat 0 is the banker's, who decides as the players do."""

    def deal(self, change: Change, shoe_row: ShoeRow | None) -> None:
        """The pack carries over from round to round: cards come from the table's pack, not the shoe row."""
        traditional_pack.deal_from_pack(change)

    def physical_shoe(self, change: Change) -> ReportedCards:
        """The pack since its last shuffle: a card out since then comes again only once every card has
        been dealt, in the order it went under the pack. The table is locked first, in the order the
        round's end takes the locks."""
        change.uow.tables.lock(change.row.table_id)
        lock_round_shoe(change)
        state = BankState.of(change.uow.traditional.state(change.row.table_id))
        return traditional_pack.physical_pack(state, change.game)

    def round_completed(self, change: Change) -> None:
        """The bank, the kitty and the pack move on to the next round."""
        traditional_bank.round_completed(change)

    def settle(self, round_: StoredRound, played: TraditionalRound,
               result: dict[str, object]) -> tuple[list[LedgerRow], list[AuditRecord]]:
        """The round's transfers between the banker, the players and the kitty, as ledger rows and
        payout records; ValueError when the result stored at completion disagrees with the replay."""
        check_stored_result(round_.result, result)
        return ledger_rows_for(round_, played.transfers), audit_records_for(round_, played.transfers)

    def void(self, uow: UnitOfWork, row: RoundRow, game: TraditionalRound) -> tuple[list[Refund], list[Note]]:
        """No money changes hands before settlement (stakes, buys and shoot bets are all paid then), so
        a void refunds nothing; a virtual pack that carried the seen cards on would tell the next deal,
        so it is shuffled anew, and the dealer shuffles a physical one."""
        if row.shoe_mode != "virtual":
            return [], traditional_pack.shuffle_physical_after_void(uow, row.table_id, row.shoe_id, game)
        return [], traditional_pack.shuffle_after_void(uow, row.table_id, game)

    def outcome(self, result: Mapping[str, object]) -> str:
        """The round by the bank's net: banker_won, players_won or push."""
        banker = result.get("banker")
        net = banker.get("net", 0) if isinstance(banker, dict) else 0
        return "banker_won" if net > 0 else "players_won" if net < 0 else "push"

    def round_fields(self, row: RoundRow, game: TraditionalRound, snapshot: Mapping[str, object]) -> View:
        return traditional_views.round_fields(row, game, dict(snapshot))

    def recall_fields(self, uow: UnitOfWork, row: RoundRow, game: TraditionalRound,
                      snapshot: Mapping[str, object]) -> View:
        """The banker's hand and the players', and the bank: the chair that held it, where it
        passed, the stakes, the banker's result and the kitty before and after."""
        setup = uow.traditional.round_setup(row.round_id)
        return {"banker": snapshot["banker"], "players": snapshot["players"],
                "bank": traditional_views.round_bank(setup, game)}

    def seat_name(self, seat: int) -> str:
        """Seat 0 is the banker."""
        return "the banker" if seat == BANKER_SEAT else f"seat {seat}"

    def party_name(self, seat: int) -> str:
        return traditional_views.party_name(seat)

    def round_money(self, bets: list[dict[str, Any]]) -> dict[str, int] | None:
        """The players' money alone: the banker and the kitty are the other side of it."""
        players = [bet for bet in bets if bet["seat"] > BANKER_SEAT]
        if not bets:
            return None
        staked, returned = sum(bet["stake"] for bet in players), sum(bet["returned"] for bet in players)
        return {"staked": staked, "returned": returned, "net": returned - staked}

    def hands_shown(self, recalled: Mapping[str, Any]) -> list[tuple[str, list[str]]]:
        """Each player's hands as they ended (a split hand's cards on it), then the banker's."""
        shown = [(f"seat {player['seat']} hand {h['hand']}", list(h["cards"]))
                 for player in recalled.get("players") or () for h in player.get("hands") or ()]
        banker = recalled.get("banker") or {}
        return [*shown, ("banker", list(banker.get("cards") or []))] if banker.get("cards") else shown

    def table_fields(self, uow: UnitOfWork, table_id: str, rules: TraditionalRules) -> View:
        """Who holds the bank, and the kitty."""
        state = BankState.of(uow.traditional.state(table_id))
        return {"bank": traditional_views.bank_view(table_id, rules, state)}

    def floor_fields(self, table_state: Mapping[str, object] | None) -> View:
        """Who holds the bank, and the kitty, as the table keeps them between rounds."""
        bank = BankState.of(dict(table_state) if table_state is not None else None)
        return {"banker_place": bank.banker_place, "banker_chair": traditional_views.chair(bank.banker_place),
                "kitty": bank.kitty, "since_shuffle": len(bank.used["dealt"]) if bank.used else None}

    def transcript(self, game: TraditionalRound, rules_ref: str, paytable_ref: str | None) -> View:
        """The player-banked game's transcript names no paytable."""
        return {**game.transcript(rules_ref), "paytable": None}

    def round_from_transcript(self, rules: TraditionalRules, paytable: GamePaytable | None,
                              transcript: Transcript) -> TraditionalRound:
        return round_from_transcript(rules, paytable, transcript)


def _keep_setup(setup: RoundSetup) -> Callable[[UnitOfWork, RoundRow], None]:
    """The banker's chair and kitty the round opened with, kept beside its row: its replay needs them."""
    def stored(uow: UnitOfWork, row: RoundRow) -> None:
        traditional_rounds.record_round(uow, row.round_id, row.table_id, setup)
    return stored


FAMILY = TraditionalFamily()
