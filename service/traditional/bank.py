"""The bank and the Shoot kitty between rounds: each movement a table transfer and an audit record."""
from __future__ import annotations

import uuid
from typing import Any

from ..catalog import rules_and_paytable
from ..engine.actions import RuleViolation
from ..engine.games.traditional import TraditionalRules, Transfer
from ..engine.games.traditional.bank import hand_back_kitty, put_up_kitty, sell_bank
from ..engine.limits import limits_by_kind
from ..refusals import Conflict, NotFound
from ..rules import RulesError
from ..store.repositories.audit import AuditRecord, chain_for
from ..store.repositories.table_transfers import TableTransferRow
from ..store.uow import UnitOfWork
from . import GAME
from .bank_state import BankState
from .commands import ChangeKitty, SellBank
from .pack import Note, finish_physical_pack, finish_virtual_pack
from .seating import BANKER_SEAT, KITTY_SEAT, party_seat, place_of
from .views import bank_view, transfer_view

KITTY_KINDS = {"put_up": "kitty-put-up", "top_up": "kitty-topped-up"}


# Every function here writes in the caller's transaction: the table's state, its table transfers
# and their audit records commit together, under the table's row lock.


def change_kitty(cmd: ChangeKitty, uow: UnitOfWork) -> dict:
    """The banker puts up a kitty (none is up) or adds to the one up, between rounds."""
    rules, state = _lock_bank(uow, cmd.table_id, "the kitty changes")
    if not rules.shoot:
        raise Conflict(f"the table plays {rules.name}: only Shoot Pontoon has a kitty", code="no_kitty_game")
    if cmd.action == "put_up" and state.kitty > 0:
        raise Conflict(f"the banker has a kitty of {state.kitty} up: top it up instead", code="kitty_up")
    if cmd.action == "top_up" and state.kitty == 0:
        raise Conflict("no kitty is up to top up: put one up", code="no_kitty")
    try:
        transfer = put_up_kitty(rules, BANKER_SEAT, cmd.amount, state.kitty)
    except RuleViolation as exc:   # a rule's refusal, as every refusal of the game's is: 409
        raise Conflict(exc.reason, code="kitty_refused", errors={"amount": [exc.reason]}) from None
    row = record_transfer(uow, cmd.table_id, rules, state.banker_place, transfer, KITTY_KINDS[cmd.action],
                          None, cmd.actor)
    state = state.with_(kitty=state.kitty + transfer.amount)
    uow.traditional.save_state(cmd.table_id, state.as_json())
    _audit(uow, cmd.table_id, cmd.actor, [transfer_note(row)])
    return bank_view(cmd.table_id, rules, state, [row])


def sell(cmd: SellBank, uow: UnitOfWork) -> dict:
    """The bank sold between rounds at an agreed price: the buyer pays the banker and takes the
    bank; the old banker takes the kitty back."""
    rules, state = _lock_bank(uow, cmd.table_id, "the bank is sold")
    if not 1 <= cmd.to_seat <= rules.max_seats:   # a seat these rules have not, as a round refuses one: 409
        raise Conflict(f"seat {cmd.to_seat} does not exist: player seats are 1 to {rules.max_seats}",
                       code="sale_refused", errors={"to_seat": [f"must be 1 to {rules.max_seats}"]})
    try:
        sale = sell_bank(BANKER_SEAT, cmd.to_seat, cmd.price)
    except RuleViolation as exc:
        raise Conflict(exc.reason, code="sale_refused", errors={"price": [exc.reason]}) from None
    rows = [record_transfer(uow, cmd.table_id, rules, state.banker_place, sale, "bank-sale", None, cmd.actor)]
    notes = [transfer_note(rows[0])]
    state, taken, passed = pass_bank(uow, cmd.table_id, rules, state, cmd.to_seat, "sold", None, cmd.actor)
    rows += taken
    notes += passed
    uow.traditional.save_state(cmd.table_id, state.as_json())
    _audit(uow, cmd.table_id, cmd.actor, notes)
    return bank_view(cmd.table_id, rules, state, rows)


def round_completed(change: Any) -> None:
    """The table after a round (`change` is the handlers' round change, the round locked): the pack
    carried on or reshuffled, the kitty carried, and the bank passed to a player's unsplit Pontoon."""
    uow, row, game = change.uow, change.row, change.game
    repo = uow.traditional
    state = BankState.of(repo.lock_state(row.table_id))
    notes: list[Note] = []
    if row.shoe_mode == "virtual":
        state, shoe_notes = finish_virtual_pack(uow, row.table_id, state, game)
        notes += shoe_notes
    else:
        state = finish_physical_pack(state, game)
        if game.reshuffle:
            notes.append(("pack_shuffled", {"shoe_id": row.shoe_id, "mode": row.shoe_mode}))
    state = state.with_(kitty=game.kitty)
    if game.next_banker is not None:
        state, _, passed = pass_bank(uow, row.table_id, change.game_rules.rules, state, game.next_banker,
                                     "pontoon", row.round_id, change.actor)
        notes += passed
    repo.save_state(row.table_id, state.as_json())
    for kind, payload in notes:
        change.note(kind, payload)


def rules_changed(uow: UnitOfWork, table_id: str, before: TraditionalRules, after: TraditionalRules,
                  actor: str | None) -> list[Note]:
    """The table's rules changed between shoes (its row locked): rules without Shoot Pontoon keep
    no kitty, so one that is up goes back to the banker, a table transfer like any other."""
    state = BankState.of(uow.traditional.lock_state(table_id))
    taken = hand_back_kitty(BANKER_SEAT, state.kitty) if before.shoot and not after.shoot else None
    if taken is None:
        return []
    row = record_transfer(uow, table_id, after, state.banker_place, taken, "kitty-taken", None, actor)
    uow.traditional.save_state(table_id, state.with_(kitty=0).as_json())
    return [transfer_note(row)]


def pass_bank(uow: UnitOfWork, table_id: str, rules: TraditionalRules, state: BankState, to_seat: int, reason: str,
              round_id: uuid.UUID | None, actor: str | None) -> tuple[BankState, list[TableTransferRow], list[Note]]:
    """The bank moves to the player `to_seat` seats to the banker's left; the old banker takes the kitty."""
    rows, notes = [], []
    taken = hand_back_kitty(BANKER_SEAT, state.kitty)
    if taken is not None:
        rows.append(record_transfer(uow, table_id, rules, state.banker_place, taken, "kitty-taken", round_id, actor))
        notes.append(transfer_note(rows[-1]))
    new_place = place_of(to_seat, state.banker_place, rules)
    notes.append(("bank_passed", {"from_place": state.banker_place, "to_place": new_place, "to_seat": to_seat,
                                  "reason": reason, "round_id": round_id}))
    return state.with_(banker_place=new_place, kitty=0), rows, notes


def record_transfer(uow: UnitOfWork, table_id: str, rules: TraditionalRules, banker_place: int, transfer: Transfer,
                    kind: str, round_id: uuid.UUID | None, actor: str | None) -> TableTransferRow:
    """One table transfer, its parties as ledger seats (0 banker, -1 kitty) and as chairs."""
    from_seat, to_seat = party_seat(transfer.from_party), party_seat(transfer.to_party)
    return uow.table_transfers.add(
        table_id=table_id, kind=kind, from_seat=from_seat, to_seat=to_seat,
        from_place=_place(from_seat, banker_place, rules), to_place=_place(to_seat, banker_place, rules),
        amount=transfer.amount, round_id=round_id, actor=actor)


def transfer_note(row: TableTransferRow) -> Note:
    return row.kind.replace("-", "_"), transfer_view(row)


def _place(seat: int, banker_place: int, rules: TraditionalRules) -> int | None:
    return None if seat == KITTY_SEAT else place_of(seat, banker_place, rules)


def _lock_bank(uow: UnitOfWork, table_id: str, what: str) -> tuple[TraditionalRules, BankState]:
    """The table's rules and bank, its row locked; refused unless player-banked and between rounds."""
    table = uow.tables.lock(table_id)
    if table is None:
        raise NotFound(f"no table {table_id!r}")
    if table.game != GAME:
        raise Conflict(f"table {table_id!r} plays a house-banked game: it has no bank or kitty",
                       code="not_player_banked")
    try:
        # The table's own limits (the kitty's among them) replace the rules'.
        rules = rules_and_paytable(uow.paytables, table).rules.with_limits(limits_by_kind(table.limits))
    except (RulesError, ValueError) as exc:   # ValueError: stored limits the rules cannot play
        raise Conflict(f"the table's rules cannot be played: {exc}", code="rules_unavailable") from None
    open_round = uow.rounds.open_on_table(table_id)
    if open_round is not None:
        raise Conflict(f"round {open_round} is still open on table {table_id!r}: finish it before {what}",
                       code="round_open", errors={"round_id": str(open_round)})
    return rules, BankState.of(uow.traditional.state(table_id))


def _audit(uow: UnitOfWork, table_id: str, actor: str | None, notes: list[Note]) -> None:
    uow.audit.append(chain_for(table_id), [AuditRecord(kind, payload, actor=actor, table_id=table_id)
                                           for kind, payload in notes])
