"""The player-banked game's pack across rounds: a virtual pack's order, its reshuffles, physical cards."""
from __future__ import annotations

from typing import Any

from ..engine.games.traditional import TraditionalPack, TraditionalRound
from ..engine.games.traditional.pack import PhysicalPack
from ..engine.shoe import ShoeSpec, VirtualShoe
from ..refusals import Conflict
from ..store.repositories.shoes import ShoeRow
from ..store.uow import UnitOfWork
from .bank_state import BankState

Note = tuple[str, dict]   # an audit record's kind and payload, written by the caller


def pack_state(shoe: ShoeRow, decks: int) -> dict | None:
    """The pack a newly opened shoe gives the table: its committed order (virtual), or none (physical)."""
    if shoe.mode != "virtual" or shoe.card_order is None:
        return None
    return TraditionalPack(ShoeSpec(decks), shoe.card_order).to_state()


def shoe_opened(uow: UnitOfWork, table_id: str, shoe: ShoeRow, spec: ShoeSpec) -> None:
    """A shoe opened by the terminal becomes the table's pack (the table's row is locked): a new
    virtual pack, or a physical one just shuffled."""
    repo = uow.traditional
    state = BankState.of(repo.lock_state(table_id))
    used = fresh_pack(spec.decks) if shoe.mode == "physical" else None
    repo.save_state(table_id, state.with_(pack=pack_state(shoe, spec.decks), used=used).as_json())


def new_virtual_shoe(uow: UnitOfWork, table_id: str, spec: ShoeSpec, reason: str) -> tuple[ShoeRow, list[Note]]:
    """Close the table's shoe (its order and salt revealed) and start a freshly shuffled pack whose
    commitment is published before any round deals from it."""
    notes: list[Note] = []
    current = uow.shoes.lock_current(table_id)
    if current is not None:
        closed = uow.shoes.close(current.shoe_id)
        notes.append(("shoe_closed", {"shoe_id": closed.shoe_id, "mode": closed.mode, "commitment": closed.commitment,
                                      "card_order": closed.card_order, "salt": closed.salt,
                                      "position": closed.position, "reason": reason}))
    shoe = VirtualShoe(spec, uow.shuffle_source)
    order, salt = shoe.reveal()
    row = uow.shoes.add(table_id=table_id, mode="virtual", commitment=shoe.commitment, card_order=order, salt=salt)
    notes.append(("shoe_started", {"shoe_id": row.shoe_id, "mode": row.mode, "commitment": row.commitment,
                                   "reason": reason}))
    return row, notes


def virtual_pack_for_round(uow: UnitOfWork, table_id: str, shoe: ShoeRow, state: BankState,
                           spec: ShoeSpec) -> tuple[ShoeRow, BankState, list[Note]]:
    """The shoe and pack a round deals from: the table's pack, unless it is not the size the round
    needs (two packs from eight people on), when a new pack is shuffled."""
    if state.pack is not None and state.pack.get("decks") == spec.decks:
        TraditionalPack.from_state(state.pack)  # whole between rounds; anything else is a defect, raised
        return shoe, state, []
    reason = "no pack yet" if state.pack is None else f"the round needs {spec.decks} pack(s)"
    row, notes = new_virtual_shoe(uow, table_id, spec, reason)
    return row, state.with_(pack=pack_state(row, spec.decks)), notes


def deal_from_pack(change: Any) -> None:
    """Deal every card the round is owed from the top of the table's virtual pack. `change` is the
    handlers' round change (uow, row, game, card()); the table's row is locked before the shoe's.

    A pack is a queue: cards leave from the top and used cards join at the bottom in the order the
    round gives them back (TraditionalRound.returned, as TraditionalPack.collect puts them). So
    however dealing and returning interleave, the n-th card a round deals is the n-th of (the pack
    at its start + the cards returned so far), and the pack after the round is what is left."""
    game: TraditionalRound = change.game
    if game.awaiting != "card":
        return
    state = BankState.of(change.uow.traditional.lock_state(change.row.table_id))
    start = state.pack["order"] if state.pack else []
    dealt_before = len(game.cards_out)
    if (start + game.returned)[:dealt_before] != game.cards_out:
        raise RuntimeError(f"round {change.row.round_id}: its cards are not the table's pack in order")
    while game.awaiting == "card":
        queue = start + game.returned
        position = len(game.cards_out)
        if position >= len(queue):
            raise Conflict("every card of the pack is on the table: the round cannot be dealt on", code="shoe_empty")
        change.card(game.deal_card(queue[position]))
    shoe = change.uow.shoes.lock(change.row.shoe_id)
    change.uow.shoes.advance(shoe.shoe_id, shoe.position + len(game.cards_out) - dealt_before)


def finish_virtual_pack(uow: UnitOfWork, table_id: str, state: BankState,
                        game: TraditionalRound) -> tuple[BankState, list[Note]]:
    """The pack after a complete round: its used cards under it in the spec's order, or, when the
    round made a Pontoon, a new shuffle in a new shoe."""
    if state.pack is None:
        raise RuntimeError(f"table {table_id!r}: a virtual round ended with no pack on the table")
    order = (state.pack["order"] + game.returned)[len(game.cards_out):]
    pack = TraditionalPack.from_state({"decks": state.pack["decks"], "order": order})  # whole again, or raises
    if not game.reshuffle:
        return state.with_(pack=pack.to_state()), []
    row, notes = new_virtual_shoe(uow, table_id, pack.spec, "a Pontoon was made: the pack is shuffled")
    return state.with_(pack=pack_state(row, pack.spec.decks)), notes


def shuffle_physical_after_void(uow: UnitOfWork, table_id: str, shoe_id: Any, game: TraditionalRound) -> list[Note]:
    """A voided round's cards were seen: the dealer shuffles the physical pack, and what was
    dealt from it before counts no more."""
    repo = uow.traditional
    state = BankState.of(repo.lock_state(table_id))
    repo.save_state(table_id, state.with_(used=fresh_pack(round_spec(game).decks)).as_json())
    return [("pack_shuffled", {"shoe_id": shoe_id, "mode": "physical", "reason": "a round was voided: its cards "
                                                                                  "were seen"})]


def shuffle_after_void(uow: UnitOfWork, table_id: str, game: TraditionalRound) -> list[Note]:
    """A voided round's cards were seen, the banker's face-down ones included: a pack that carried
    them on would tell the next round's deal in advance. The table gets a freshly shuffled pack in
    a new shoe, as after a Pontoon (the round locked, then the table, then the shoe)."""
    repo = uow.traditional
    state = BankState.of(repo.lock_state(table_id))
    spec = round_spec(game)
    row, notes = new_virtual_shoe(uow, table_id, spec, "a round was voided: its cards were seen")
    repo.save_state(table_id, state.with_(pack=pack_state(row, spec.decks)).as_json())
    return notes


def physical_pack(state: BankState, game: TraditionalRound) -> PhysicalPack:
    """What a reported card must fit: the pack since its last shuffle (the cards dealt and gone under
    it in the rounds before), then this round's cards so far. A card out since the shuffle comes
    again only once every card has been dealt, and then in the order it went under."""
    spec = round_spec(game)
    dealt, returned = used_since_shuffle(state, spec)
    pack = PhysicalPack(spec, dealt, [*returned, *game.returned])
    for card in game.cards_out:
        pack.dealt.append(card)
    return pack


def used_since_shuffle(state: BankState, spec: ShoeSpec) -> tuple[list[str], list[str]]:
    """(dealt, returned) of the physical pack since its last shuffle, for a round dealt from `spec`:
    nothing when nothing is known, or when the round needs another number of packs (a new pack)."""
    used = state.used
    if not used or used.get("decks") != spec.decks:
        return [], []
    return list(used.get("dealt", [])), list(used.get("returned", []))


def finish_physical_pack(state: BankState, game: TraditionalRound) -> BankState:
    """The physical pack after a complete round: shuffled after a Pontoon, else its dealt cards and
    the cards gone under it carried on."""
    spec = round_spec(game)
    if game.reshuffle:
        return state.with_(used=fresh_pack(spec.decks))
    dealt, returned = used_since_shuffle(state, spec)
    return state.with_(used={"decks": spec.decks, "dealt": [*dealt, *game.cards_out],
                             "returned": [*returned, *game.returned]})


def fresh_pack(decks: int) -> dict:
    """A physical pack just shuffled: nothing dealt from it yet."""
    return {"decks": decks, "dealt": [], "returned": []}


def round_spec(game: TraditionalRound) -> ShoeSpec:
    """The pack the round is dealt from (two packs from eight people on), set when it starts."""
    if game.shoe_spec is None:
        raise RuntimeError("a player-banked round always knows its pack")
    return game.shoe_spec
