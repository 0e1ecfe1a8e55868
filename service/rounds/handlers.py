"""Command handlers: each takes a command and a unit of work, changes state, and leaves the
commit to its caller (which stores the idempotent response in the same transaction)."""
from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from ..catalog import GameRules, rules_and_paytable
from ..engine.actions import Action, CardDealt, RuleViolation
from ..engine.cards import canonical
from ..engine.shoe import ShoeError, VirtualShoe
from ..games import SHOE_DEALT_GAMES, Family, family_named, family_of, table_limits
from ..metrics import observe_round_completed
from ..refusals import Conflict, Invalid, NotFound
from ..rules import RulesError, load_paytable, load_rules
from ..store.repositories.audit import AuditRecord, LockedHead, chain_for
from ..store.repositories.outbox import OutboxTopic
from ..store.repositories.rounds import LockedRound, RoundEvent, RoundRow, RoundStatus
from ..store.uow import UnitOfWork
from . import table_rules, views
from .commands import CloseShoe, CreateTable, OpenRound, OpenShoe, PostAction, PostCard
from .state import action_payload, load_game


# ----- tables and shoes ---------------------------------------------------------------------
def create_table(cmd: CreateTable, uow: UnitOfWork) -> dict:
    errors: dict[str, list[str]] = {}
    rules = _load_named(load_rules, cmd.rules, "rules", errors)
    paytable = _load_named(load_paytable, cmd.paytable, "paytable", errors) if cmd.paytable is not None else None
    family = family_of(rules) if rules is not None else None
    if family is not None and family.needs_paytable != (cmd.paytable is not None):
        errors["paytable"] = [f"the {family.game} game "
                              + ("needs a paytable" if family.needs_paytable else "takes no paytable")]
    for kind, entry in cmd.limits.items():
        try:
            table_limits({kind: entry})
        except ValueError as exc:
            errors[f"limits.{kind}"] = [str(exc)]
    if errors or family is None:   # no family: the rules were refused, and errors says why
        raise Invalid("the table cannot be created as asked", code="invalid_table", errors=errors)
    limits = family.own_limits(rules, paytable, cmd.limits)   # the game's bets only (409 otherwise)
    row = uow.tables.add(table_id=cmd.table_id, game=family.game, rules=cmd.rules, rules_version=1,
                         paytable=cmd.paytable, paytable_version=1 if cmd.paytable else None,
                         limits=limits, created_by=cmd.actor)
    if row is None:
        raise Conflict(f"table {cmd.table_id!r} exists already", code="table_exists")
    uow.audit.append(chain_for(row.table_id), [AuditRecord(
        "table_created", {"rules": cmd.rules, "paytable": cmd.paytable, "limits": limits},
        actor=cmd.actor, table_id=row.table_id)])
    return views.table_view(row, family.effective_limits(rules, row.limits), None, None)


def _load_named(loader, name: str, field_name: str, errors: dict) -> Any:
    try:
        return loader(name)
    except RulesError as exc:
        reasons = "; ".join(f"{where}: {why}" for where, why in exc.errors.items())
        errors[field_name] = [f"{name!r} cannot be used ({reasons})"]
        return None


def open_shoe(cmd: OpenShoe, uow: UnitOfWork) -> dict:
    """A new shoe for the table; the current one closes and its order and salt are revealed."""
    table = _lock_table(uow, cmd.table_id)
    _refuse_if_round_open(uow, cmd.table_id, "a new shoe")
    # Between shoes is when an approved change of the table's rules takes effect.
    table, rules_change, records = table_rules.apply_approved(uow, table, cmd.actor)
    game_rules = _in_force(uow, table)
    closed = None
    current = uow.shoes.lock_current(cmd.table_id)
    if current is not None:
        closed = uow.shoes.close(current.shoe_id)
        records.append(_shoe_closed(closed, cmd.actor, cmd.screen))
    if cmd.mode == "virtual":
        shoe = VirtualShoe(game_rules.rules.shoe, uow.shuffle_source)
        order, salt = shoe.reveal()
        row = uow.shoes.add(table_id=cmd.table_id, mode="virtual", commitment=shoe.commitment,
                            card_order=order, salt=salt)
    else:
        row = uow.shoes.add(table_id=cmd.table_id, mode="physical", commitment=None, card_order=None, salt=None)
    family_named(table.game).shoe_opened(uow, cmd.table_id, row, game_rules.rules)
    records.append(AuditRecord("shoe_started", {"shoe_id": row.shoe_id, "mode": row.mode,
                                                "commitment": row.commitment, "rules": game_rules.rules_ref,
                                                **_at_screen(cmd.screen)},
                               actor=cmd.actor, table_id=cmd.table_id))
    if rules_change is not None:
        records.append(table_rules.applied(uow, rules_change, row.shoe_id, cmd.actor))
    uow.audit.append(chain_for(cmd.table_id), records)
    return {**views.shoe_view(row), "closed_shoe": views.shoe_view(closed) if closed else None}


def close_shoe(cmd: CloseShoe, uow: UnitOfWork) -> dict:
    """The table's shoe put away with no other opened (the table closes, or the dealer will open
    one later); a virtual shoe's order and salt are revealed, as when a new shoe replaces it."""
    _lock_table(uow, cmd.table_id)
    _refuse_if_round_open(uow, cmd.table_id, "the shoe is closed")
    current = uow.shoes.lock_current(cmd.table_id)
    if current is None:
        raise Conflict(f"table {cmd.table_id!r} has no shoe open", code="no_shoe")
    closed = uow.shoes.close(current.shoe_id)
    uow.audit.append(chain_for(cmd.table_id), [_shoe_closed(closed, cmd.actor, cmd.screen)])
    return views.shoe_view(closed)


def _shoe_closed(closed: Any, actor: str | None, screen: str | None) -> AuditRecord:
    return AuditRecord("shoe_closed", {
        "shoe_id": closed.shoe_id, "mode": closed.mode, "commitment": closed.commitment,
        "card_order": closed.card_order, "salt": closed.salt, "position": closed.position, **_at_screen(screen)},
        actor=actor, table_id=closed.table_id)


def _at_screen(screen: str | None) -> dict[str, str]:
    """A record's note of the dealer's screen it came from (nothing for a terminal's key)."""
    return {"screen": screen} if screen is not None else {}


def _lock_table(uow: UnitOfWork, table_id: str):
    table = uow.tables.lock(table_id)
    if table is None:
        raise NotFound(f"no table {table_id!r}")
    return table


def _in_force(uow: UnitOfWork, table) -> GameRules:
    try:
        return rules_and_paytable(uow.paytables, table)
    except RulesError as exc:
        raise Conflict(f"the table's rules or paytable cannot be played: {exc}", code="rules_unavailable") from None


def _refuse_if_round_open(uow: UnitOfWork, table_id: str, what: str) -> None:
    """Conflict if a round is open on the table."""
    round_id = uow.rounds.open_on_table(table_id)
    if round_id is not None:
        raise Conflict(f"round {round_id} is still open on table {table_id!r}: finish it before {what}",
                       code="round_open", errors={"round_id": str(round_id)})


# ----- rounds -------------------------------------------------------------------------------
def open_round(cmd: OpenRound, uow: UnitOfWork) -> dict:
    """A round on the table's current shoe, under the rules and paytable versions in force."""
    # The table's lock, then its shoe's, then the audit chain's head for a house-banked game: the
    # order every writer takes them in. Whether a round is open is read once both locks are held.
    table = _lock_table(uow, cmd.table_id)
    shoe = uow.shoes.lock_current(cmd.table_id)
    if shoe is None:
        raise Conflict(f"table {cmd.table_id!r} has no shoe: open one first", code="no_shoe")
    _refuse_if_round_open(uow, cmd.table_id, "another")
    head = uow.audit.lock_table_head(cmd.table_id, SHOE_DEALT_GAMES)
    game_rules = _in_force(uow, table)
    family = family_named(table.game)
    opening = family.open_round(uow, cmd, shoe, game_rules, table.limits)
    row = uow.rounds.add(table_id=cmd.table_id, shoe_id=opening.shoe.shoe_id, shoe_mode=opening.shoe.mode,
                         rules_ref=game_rules.rules_ref, paytable_ref=opening.paytable_ref, wagers=opening.entries)
    if opening.stored is not None:
        opening.stored(uow, row)
    change = _RoundChange(uow, row, game_rules, opening.game, first_seq=0, actor=cmd.actor, locked_head=head,
                          screen=cmd.screen)
    for kind, payload in opening.notes:
        change.note(kind, payload)
    change.note("round_opened", {"shoe_id": opening.shoe.shoe_id, "rules": game_rules.rules_ref,
                                 "paytable": opening.paytable_ref, **opening.opened})
    for entry in opening.entries:
        change.note("wager", entry)
    if opening.shoe.mode == "virtual":
        family.deal(change, opening.shoe)
    return change.save()


# What a card's and a decision's lock of the round takes with it: a decision also locks its table's
# virtual shoe and audit chain head (a card comes from a physical shoe, locked when it is checked).
_CARD_LOCKS: tuple[str, ...] = ()
_DECISION_LOCKS = SHOE_DEALT_GAMES


def post_card(cmd: PostCard, uow: UnitOfWork) -> dict:
    """The next card out of a physical shoe, given to whoever the rules say is owed one."""
    row, locked = _lock_open_round(uow, cmd.round_id, cmd.expected_revision, shoe_games=_CARD_LOCKS)
    actor = cmd.actor
    if row.shoe_id is None or row.shoe_mode != "physical":
        raise Conflict("this round's shoe is virtual: it deals by itself", code="virtual_shoe")
    change = _RoundChange.load(uow, row, locked.events, locked.limits, actor, cmd.screen)
    game = change.game
    if game.awaiting != "card":
        raise Conflict("no card is owed now: the round awaits " + (game.awaiting or "nothing, it is complete"),
                       code="not_awaiting_card", legal_actions=_legal(game))
    shoe = change.family.physical_shoe(change)
    try:
        card = shoe.accept(canonical(cmd.card))
    except ShoeError as exc:
        raise Conflict(str(exc), code="card_refused", audit=AuditRecord(
            "card_refused", {"card": cmd.card, "reason": str(exc), "shoe_id": row.shoe_id, **_at_screen(cmd.screen)},
            actor=actor, table_id=row.table_id, round_id=str(row.round_id))) from None
    change.card(game.deal_card(card))
    uow.shoes.record_dealt(row.shoe_id, card)
    return change.save()


def post_action(cmd: PostAction, uow: UnitOfWork) -> dict:
    """A player's decision, verified by the engine; a virtual shoe then deals what it makes owed."""
    # The virtual shoe is locked with the round (most decisions leave a card owed), and so is the
    # audit chain's head: nothing is locked after them.
    row, locked = _lock_open_round(uow, cmd.round_id, cmd.expected_revision, shoe_games=_DECISION_LOCKS)
    shoe = locked.shoe
    change = _RoundChange.load(uow, row, locked.events, locked.limits, cmd.actor, cmd.screen)
    change.locked_head = locked.head
    try:
        change.family.check_seat(cmd.seat)
    except Conflict as exc:   # a seat this game does not have: refused as any decision is, with the legal ones
        raise Conflict(exc.message, code=exc.code, errors=exc.errors, legal_actions=_legal(change.game)) from None
    action = Action(cmd.seat, cmd.action, cmd.hand, cmd.amount)
    try:
        change.game.act(action)
    except RuleViolation as exc:
        raise Conflict(exc.reason, code="decision_refused",
                       legal_actions=[legal.as_dict() for legal in exc.legal]) from None
    change.decision(action)
    if row.shoe_mode == "virtual":
        change.family.deal(change, shoe)
    return change.save()


def _lock_open_round(uow: UnitOfWork, round_id: uuid.UUID, expected_revision: int | None, *,
                     shoe_games: tuple[str, ...]) -> tuple[RoundRow, LockedRound]:
    """The round locked, with its events, its table's limits and, for `shoe_games`, its virtual
    shoe and its audit chain's head locked, in one statement."""
    locked = uow.rounds.lock_with_events(round_id, shoe_games=shoe_games)
    row = locked.row
    if row is None:
        raise NotFound(f"no round {round_id}")
    if expected_revision is not None and expected_revision != row.version:
        raise Conflict(f"the round is at revision {row.version}, not {expected_revision}: read it again",
                       code="revision_conflict")
    if row.status != RoundStatus.OPEN:
        raise Conflict(f"the round is {row.status}: it takes no more cards or decisions", code="round_not_open")
    return row, locked


def _legal(game) -> list[dict]:
    return [legal.as_dict() for legal in game.legal_actions()]


# The round's records that name the dealer's screen they came from, beside the dealer (their actor).
# The wager and completion records do not: their payloads are the round row's wagers and result,
# which `audit verify` compares with them as they are.
_SCREEN_NOTED = frozenset({"round_opened", "card_dealt", "decision"})


@dataclass
class _RoundChange:
    """What one request adds to a locked round: new events and the audit records describing them,
    written together by save()."""

    uow: UnitOfWork
    row: RoundRow
    game_rules: GameRules
    game: Any
    first_seq: int
    actor: str | None
    events: list[tuple[str, dict]] = field(default_factory=list)
    records: list[AuditRecord] = field(default_factory=list)
    shoe_position: tuple[uuid.UUID, int] | None = None   # (shoe_id, position) a virtual shoe dealt up to, locked
    locked_head: LockedHead | None = None   # the audit chain's head, when the request locked it before the change
    shoe_past_cut_card: bool | None = None   # a virtual shoe's, as this request leaves it (None: not said)
    screen: str | None = None   # the dealer's screen the change came from (None: a terminal's key)

    @classmethod
    def load(cls, uow: UnitOfWork, row: RoundRow, events: list[RoundEvent], limits: dict | None,
             actor: str | None, screen: str | None = None) -> _RoundChange:
        game_rules, game, next_seq = load_game(uow, row, (events, limits))
        return cls(uow, row, game_rules, game, first_seq=next_seq, actor=actor, screen=screen)

    @property
    def family(self) -> Family:
        return family_of(self.game_rules.rules)

    def note(self, kind: str, payload: dict) -> None:
        if kind in _SCREEN_NOTED:
            payload = {**payload, **_at_screen(self.screen)}
        self.records.append(AuditRecord(kind, payload, actor=self.actor, table_id=self.row.table_id,
                                        round_id=str(self.row.round_id)))

    def card(self, dealt: CardDealt) -> None:
        payload = {"card": dealt.card, "to": dealt.to}
        self.events.append(("card", payload))
        self.note("card_dealt", {**payload, "shoe_id": self.row.shoe_id})

    def decision(self, action: Action) -> None:
        payload = action_payload(action)
        self.events.append(("action", payload))
        self.note("decision", payload)

    def save(self) -> dict:
        """Append the events, bump the version; on completion store the money, mark the round
        complete and queue its settlement. Returns the round's new state."""
        complete = self.game.awaiting is None
        result = self.game.result() if complete else None
        if result is not None:   # complete
            self.note("round_completed", result)
            self.family.round_completed(self)
            observe_round_completed(self.row.table_id, self.family.outcome(result))  # counted once committed
            self.uow.outbox.add(OutboxTopic.SETTLE_ROUND, self.row.round_id)
        chain = chain_for(self.row.table_id)
        # The audit chain's head: locked already with the round (a shoe-dealt game's decision, a
        # round's opening), or else by the save's own statement.
        saved = self.uow.rounds.save(self.row, events=self.events, first_seq=self.first_seq,
                                     shoe_position=self.shoe_position, complete=complete, result=result,
                                     audit_chain=chain if self.locked_head is None else None)
        head = self.locked_head.position if self.locked_head is not None else saved.head
        self.uow.audit.append(chain, self.records, head=head)
        return views.round_state(saved.row, self.game, self.shoe_past_cut_card)
