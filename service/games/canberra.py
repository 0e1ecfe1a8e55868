"""The house-banked Canberra game as the service plays it: wagers against the house, a virtual shoe
dealing to the round directly, a paytable, and bet lines the ledger settles seat by seat."""
from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Mapping
from typing import Any, cast

from ..catalog import GameRules, rules_and_paytable
from ..engine.actions import RuleViolation
from ..engine.games.canberra import BetLine, CanberraRound, CanberraRules, Paytable
from ..engine.games.canberra.seats import side_bet_limits
from ..engine.games.canberra.transcripts import round_from_transcript
from ..engine.shoe import PhysicalShoe, ShoeError, VirtualShoe
from ..engine.transcript import Transcript
from ..ledger.bets import rows_for_bets
from ..ledger.transcripts import bet_totals, seat_totals
from ..refusals import Conflict
from ..rules import canberra as rules_file
from ..rules.reader import Reader
from ..store.repositories.audit import AuditRecord
from ..store.repositories.ledger import LedgerRow
from ..store.repositories.rounds import RoundRow, RoundStatus
from ..store.repositories.shoes import ShoeRow
from ..store.uow import UnitOfWork
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

GAME = "canberra"
SETTLEMENT_ACTOR = "settlement"

Change = RoundChange[CanberraRound]


class CanberraFamily(GameFamily[CanberraRules, CanberraRound]):
    """The house-banked game: seats wager against the house's dealer."""

    game = GAME
    display_name = "Pontoon (Canberra)"
    house_banked = True
    needs_paytable = True
    virtual_shoe_deals = True
    evaluates_paytables = True
    decisions = CanberraRound.DECISIONS
    amount_decisions = CanberraRound.TAKES_AMOUNT
    templates = f"games/{GAME}"

    def read_rules(self, doc: Reader, overrides: Mapping[str, object]) -> CanberraRules | None:
        return rules_file.read_rules(doc, overrides)

    def own_limits(self, rules: CanberraRules, paytable: Paytable | None,
                   limits: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
        """Beside `main`, a table limits only the side bets its paytable offers, by their names: a
        limit for one it does not offer is refused (409) rather than kept and never read."""
        offered = [] if paytable is None else [bet.name for bet in paytable.side_bets]
        unknown = sorted(kind for kind in limits if kind != "main" and kind not in offered)
        if unknown:
            raise Conflict(f"the table's paytable offers no side bet {', '.join(map(repr, unknown))} to limit "
                           f"(it offers: {', '.join(offered) or 'none'})", code="limits_refused",
                           errors={f"limits.{kind}": ["not a side bet of the table's paytable"] for kind in unknown})
        return limits

    def effective_limits(self, rules: CanberraRules, limits: dict[str, dict[str, int]] | None) -> View:
        """What a table accepts: its main wager's limits (its own, else the rules'), and any side bet's
        limits it sets for itself (a side bet's own are in its paytable)."""
        own = table_limits(limits)
        main = own.get("main", rules.main_limits)
        return {"main": {"min": main.minimum, "max": main.maximum},
                **{kind: {"min": lim.minimum, "max": lim.maximum} for kind, lim in own.items() if kind != "main"}}

    def start(self, rules: CanberraRules, paytable: Paytable | None, entries: list[dict[str, int]],
              limits: dict[str, dict[str, int]] | None, kitty: int | None = None) -> CanberraRound:
        """A fresh round with these wagers under the table's limits; Conflict (409) when the table's
        rules or limits refuse them, as a double outside them is (the house-banked game has no kitty)."""
        if paytable is None:
            raise Conflict("the house-banked game needs a paytable", code="wager_refused")
        try:
            return CanberraRound(rules, paytable, entries, limits=table_limits(limits))
        except RuleViolation as exc:
            raise Conflict(str(exc), code="wager_refused") from None

    def kitty_before(self, uow: UnitOfWork, round_id: uuid.UUID) -> int | None:
        return None

    def open_round(self, uow: UnitOfWork, cmd: RoundRequest, shoe: ShoeRow, game_rules: GameRules,
                   limits: dict[str, dict[str, int]] | None) -> Opening[CanberraRound]:
        """The players' wagers against the house, on the table's shoe unless it is past its cut card."""
        if cmd.wagers is None:
            # The body is well formed (the player-banked game's shape); this table's game refuses it.
            raise Conflict("this table's game is house-banked: open its rounds with wagers", code="wrong_game",
                           errors={"wagers": ["this table's game is house-banked: send wagers, not players"]})
        game = self.start(game_rules.rules, game_rules.paytable, cmd.wagers, limits)
        if shoe.mode == "virtual" and _virtual(game_rules, shoe).past_cut_card:
            raise Conflict("the shoe is past its cut card: open a new shoe", code="shoe_past_cut_card")
        return Opening(game, shoe, cmd.wagers, game_rules.paytable_ref)

    def shoe_opened(self, uow: UnitOfWork, table_id: str, shoe: ShoeRow, rules: CanberraRules) -> None:
        """The shoe deals to the rounds directly: the table keeps nothing of it."""

    def rules_changed(self, uow: UnitOfWork, table_id: str, before: CanberraRules, after: CanberraRules,
                      actor: str | None) -> list[Note]:
        """The house banks every round: nothing at the table carries over to change."""
        return []

    def check_seat(self, seat: int) -> None:
        if seat == 0:
            raise Conflict("seat 0 is the banker's, and this game has no banker", code="decision_refused",
                           errors={"seat": ["the house-banked game's seats are 1 to 9"]})

    def deal(self, change: Change, shoe_row: ShoeRow | None) -> None:
        """Deal from the top of the table's virtual shoe for as long as the round awaits a card
        (`shoe_row`: the shoe, when the caller holds its lock already). With the table's shoe in hand,
        the answer then says whether it has passed its cut card: the terminal opens a new shoe after
        the round instead of being refused the next one."""
        game = change.game
        owed = game.awaiting == "card"
        if not owed and shoe_row is None:
            return
        if shoe_row is None:
            shoe_row = lock_round_shoe(change)
        shoe = _virtual(change.game_rules, shoe_row)
        while game.awaiting == "card":
            try:
                card = shoe.deal()
            except ShoeError:
                raise Conflict("the shoe ran out of cards in the middle of the round", code="shoe_empty") from None
            change.card(game.deal_card(card))
        if owed:
            change.shoe_position = (shoe_row.shoe_id, shoe.position)  # written with the round's events
        change.shoe_past_cut_card = shoe.past_cut_card

    def physical_shoe(self, change: Change) -> ReportedCards:
        """What a reported card must fit, its shoe row locked: the table's shoe less every card it has given."""
        shoe_row = lock_round_shoe(change)
        return PhysicalShoe(change.game_rules.rules.shoe, dealt=shoe_row.dealt)

    def round_completed(self, change: Change) -> None:
        """Nothing at the table moves on: the house banks every round."""

    def settle(self, round_: StoredRound, played: CanberraRound,
               result: dict[str, object]) -> tuple[list[LedgerRow], list[AuditRecord]]:
        """The replayed round's bet lines as ledger rows and payout records; ValueError when the
        result stored at completion disagrees with the replay."""
        if round_.result is not None and seat_totals(round_.result) != seat_totals(result):
            raise ValueError(f"the stored result {seat_totals(round_.result)} disagrees with the replay "
                             f"{seat_totals(result)}")
        bets = played.bets or []   # listed anew at each reading: read once (a complete round has them)
        ledger = rows_for_bets(round_.round_id, round_.table_id, round_.shoe_id, round_.rules_ref,
                               round_.paytable_ref, bets)
        return ledger, payout_records(round_, bets)

    def void(self, uow: UnitOfWork, row: RoundRow, game: CanberraRound) -> tuple[list[Refund], list[Note]]:
        """Every stake placed so far goes back to its seat; the shoe never deals a card twice, so
        nothing about it changes."""
        return stakes_placed(game), []

    def outcome(self, result: Mapping[str, object]) -> str:
        """The round as the house sees it: house_won, players_won or push, on the seats' net money."""
        seats = result.get("seats")
        net = sum(seat.get("net", seat.get("returned", 0) - seat.get("staked", 0))
                  for seat in (seats if isinstance(seats, list) else ()))
        return "players_won" if net > 0 else "house_won" if net < 0 else "push"

    def round_fields(self, row: RoundRow, game: CanberraRound, snapshot: Mapping[str, object]) -> View:
        """The dealer, the seats, and each seat's money once the ledger has it."""
        return {"dealer": snapshot["dealer"], "seats": snapshot["seats"], "settlement": settlement(row)}

    def recall_fields(self, uow: UnitOfWork, row: RoundRow, game: CanberraRound,
                      snapshot: Mapping[str, object]) -> View:
        """The dealer's hand and the seats' are the round state's own fields: nothing more."""
        return {}

    def seat_name(self, seat: int) -> str:
        return f"seat {seat}"

    def party_name(self, seat: int) -> str:
        return f"seat {seat}"

    def round_money(self, bets: list[dict[str, Any]]) -> dict[str, int] | None:
        """Every ledger row is a seat's bet against the house."""
        if not bets:
            return None
        staked, returned = sum(bet["stake"] for bet in bets), sum(bet["returned"] for bet in bets)
        return {"staked": staked, "returned": returned, "net": returned - staked}

    def hands_shown(self, recalled: Mapping[str, Any]) -> list[tuple[str, list[str]]]:
        """The dealer's hand, then each seat's hands."""
        dealer = recalled.get("dealer") or {}
        shown = [("dealer", list(dealer.get("cards") or []))] if dealer.get("cards") else []
        for seat in recalled.get("seats") or ():
            shown += [(f"seat {seat['seat']} hand {h['hand']}", list(h["cards"])) for h in seat.get("hands") or ()]
        return shown

    def table_fields(self, uow: UnitOfWork, table_id: str, rules: CanberraRules) -> View:
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

    def floor_fields(self, table_state: Mapping[str, object] | None) -> View:
        return {}

    def transcript(self, game: CanberraRound, rules_ref: str, paytable_ref: str | None) -> View:
        return game.transcript(rules_ref, paytable_ref)

    def round_from_transcript(self, rules: CanberraRules, paytable: Paytable | None,
                              transcript: Transcript) -> CanberraRound:
        return round_from_transcript(rules, paytable, transcript)


def _virtual(game_rules: GameRules, shoe_row: ShoeRow) -> VirtualShoe:
    return VirtualShoe(game_rules.rules.shoe, order=shoe_row.card_order, salt=shoe_row.salt,
                       position=shoe_row.position)


def payout_records(round_: StoredRound, bets: list[BetLine]) -> list[AuditRecord]:
    """One payout record per seat (its bets, stake and return), and a super_bonus_won record
    for each super bonus paid."""
    by_seat: dict[int, list[BetLine]] = defaultdict(list)
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


def stakes_placed(game: CanberraRound) -> list[Refund]:
    """Each seat's stakes so far, bet by bet, as the engine holds them after replaying the round:
    main wager, split wagers, doubles, side bets (by name) and insurance."""
    seats: list[Refund] = []
    for seat in cast(list[dict[str, Any]], game.snapshot()["seats"]):
        bets: list[dict[str, object]] = []
        for hand in seat["hands"]:
            kind = "main" if hand["hand"] == 0 else "split"
            bets.append({"kind": kind, "hand": hand["hand"], "stake": hand["wager"]})
            if hand["double"]:
                bets.append({"kind": "double", "hand": hand["hand"], "stake": hand["double"]})
        for name, stake in seat["side_bets"].items():
            bets.append({"kind": name, "hand": None, "stake": stake})
        if seat["insurance"]:
            bets.append({"kind": "insurance", "hand": None, "stake": seat["insurance"]})
        seats.append({"seat": seat["seat"], "bets": bets, "refunded": sum(cast(int, bet["stake"]) for bet in bets)})
    return seats


def settlement(row: RoundRow) -> View | None:
    """Each seat's money, shown only once the settlement worker has written the ledger."""
    if row.status != RoundStatus.SETTLED or not row.result:
        return None
    return {"seats": [{key: seat[key] for key in ("seat", "staked", "returned", "net")}
                      for seat in row.result["seats"]]}


FAMILY = CanberraFamily()
