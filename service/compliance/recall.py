"""Game recall: a table's last rounds in the order they were played, each with who dealt it, every
card and decision, the hands they made, every stake and payout the ledger holds, and its transcript."""
from __future__ import annotations

import uuid
from collections import defaultdict
from datetime import datetime
from typing import Any

from ..catalog import exported_transcript, resolve
from ..games import family_of
from ..refusals import NotFound
from ..rounds.state import rebuild
from ..store.repositories.rounds import RoundEvent, RoundRow
from ..store.repositories.screens import DealtBy
from ..store.uow import UnitOfWork

MAX_ROUNDS = 100


def recall(uow: UnitOfWork, table_id: str, last: int) -> dict:
    table = uow.tables.get(table_id)
    if table is None:
        raise NotFound(f"no table {table_id!r}")
    last = max(1, min(last, MAX_ROUNDS))
    rounds = uow.rounds.last_on_table(table_id, last)
    ids = [row.round_id for row, _ in rounds]
    events: dict[uuid.UUID, list[tuple[RoundEvent, datetime]]] = defaultdict(list)
    for written in uow.rounds.events_of(ids):
        events[written.round_id].append((written.event, written.written_at))
    bets: dict[uuid.UUID, list[dict]] = defaultdict(list)
    for bet in uow.ledger.bets_of(ids):
        bets[bet.round_id].append({"seat": bet.seat, "hand": None if bet.hand < 0 else bet.hand, "kind": bet.kind,
                                   "stake": bet.stake, "returned": bet.returned, "outcome": bet.outcome})
    dealers = uow.screens.dealt_by(ids)
    return {"table_id": table_id, "last": last,
            "rounds": [{**_recalled_round(uow, row, void_reason, events[row.round_id], bets[row.round_id],
                                          table.limits), "dealt_by": _dealt_by(dealers.get(row.round_id, []))}
                       for row, void_reason in rounds]}


def _dealt_by(dealers: list[DealtBy]) -> list[dict[str, str | None]]:
    """Who opened the round and dealt its cards and decisions (a dealer as `staff:<username>` with
    the screen they dealt at, a terminal by its key's id), in the order each first dealt."""
    return [{"actor": dealer.actor, "screen": dealer.screen} for dealer in dealers]


def _recalled_round(uow: UnitOfWork, row: RoundRow, void_reason: str | None,
                    events: list[tuple[RoundEvent, datetime]], bets: list[dict], limits: dict) -> dict:
    game_rules = resolve(uow.paytables, row.rules_ref, row.paytable_ref)
    family = family_of(game_rules.rules)
    # A round played against a kitty needs it to replay.
    kitty = family.kitty_before(uow, row.round_id)
    game = rebuild(game_rules, row, [event for event, _ in events], limits, kitty)
    snapshot = game.snapshot()
    paytable_ref = game_rules.paytable_ref
    return {
        "round_id": row.round_id, "table_id": row.table_id, "game": family.game, "shoe_id": row.shoe_id,
        "shoe_mode": row.shoe_mode,
        "status": row.status, "rules": row.rules_ref, "paytable": row.paytable_ref,
        "opened_at": row.opened_at, "completed_at": row.completed_at, "settled_at": row.settled_at,
        "voided_at": row.voided_at, "void_reason": void_reason,
        "wagers": row.wagers,
        "events": [_event_view(event, at) for event, at in events],
        "dealer": snapshot.get("dealer"), "seats": snapshot.get("seats", []),
        **family.recall_fields(uow, row, game, snapshot),
        "bets": [{**bet, "party": family.party_name(bet["seat"])} for bet in bets],
        "money": family.round_money(bets),
        "transcript": exported_transcript(uow.paytables, family.transcript(game, game_rules.rules_ref, paytable_ref),
                                          paytable_ref),
    }


def _event_view(event: RoundEvent, at: datetime) -> dict:
    view: dict[str, Any] = {"seq": event.seq, "kind": event.kind, "at": at}
    if event.kind == "card":
        view.update(card=event.payload["card"], to=event.payload.get("to"))
    else:
        view.update(seat=event.payload["seat"], hand=event.payload.get("hand"), action=event.payload["action"],
                    amount=event.payload.get("amount"))
    return view
