"""Creating a table, opening its shoes and reporting a physical shoe's cards, on a unit of work in
memory: what each leaves in the table, the shoe and the audit log, and what each refuses."""
from __future__ import annotations

import dataclasses
import uuid

import pytest

from service.refusals import Conflict, Invalid, NotFound
from service.rounds import handlers
from service.rounds.commands import CloseShoe, CreateTable, OpenRound, OpenShoe, PostAction, PostCard

from .fake_uow import FakeUnitOfWork

PAYTABLE = "canberra-standard"


def _table(uow: FakeUnitOfWork, table_id: str = "T1", **limits: dict) -> dict:
    return handlers.create_table(CreateTable(table_id, "canberra", PAYTABLE, limits, actor="admin"), uow)


def test_a_table_is_created_under_version_one_of_its_rules_and_paytable_and_audited():
    uow = FakeUnitOfWork()
    view = _table(uow)
    assert (view["rules"], view["paytable"], view["game"]) == ("canberra@1", f"{PAYTABLE}@1", "canberra")
    assert uow.tables.get("T1") is not None
    (created,) = uow.audit.records["table:T1"]
    assert created.kind == "table_created" and created.actor == "admin"
    assert created.payload == {"rules": "canberra", "paytable": PAYTABLE, "limits": {}}


def test_a_table_id_taken_already_is_a_conflict_and_leaves_the_first_table_as_it_was():
    uow = FakeUnitOfWork()
    _table(uow)
    first = uow.tables.get("T1")
    with pytest.raises(Conflict) as refused:
        handlers.create_table(CreateTable("T1", "british-traditional", None, actor="admin"), uow)
    assert refused.value.code == "table_exists"
    assert uow.tables.get("T1") == first and uow.audit.kinds("table:T1") == ["table_created"]


@pytest.mark.parametrize(("rules", "paytable", "field"), [
    ("no-such-rules", PAYTABLE, "rules"),
    ("canberra", "no-such-paytable", "paytable"),
    ("canberra", None, "paytable"),                   # the house-banked game needs a paytable
    ("british-traditional", PAYTABLE, "paytable"),    # the player-banked game takes none
])
def test_rules_or_a_paytable_that_cannot_be_used_are_named_and_nothing_is_created(rules, paytable, field):
    uow = FakeUnitOfWork()
    with pytest.raises(Invalid) as refused:
        handlers.create_table(CreateTable("T1", rules, paytable, actor="admin"), uow)
    assert refused.value.code == "invalid_table" and field in (refused.value.errors or {})
    assert uow.tables.get("T1") is None and not uow.audit.records


def test_a_limit_that_is_not_a_range_is_named_by_its_kind():
    uow = FakeUnitOfWork()
    with pytest.raises(Invalid) as refused:
        _table(uow, main={"min": 500, "max": 100})
    assert "limits.main" in (refused.value.errors or {}) and uow.tables.get("T1") is None


def test_a_virtual_shoe_is_committed_to_and_a_second_closes_the_first_revealing_its_order():
    uow = FakeUnitOfWork()
    _table(uow)
    first = handlers.open_shoe(OpenShoe("T1", "virtual", actor="terminal"), uow)
    assert first["commitment"] and first["closed_shoe"] is None
    second = handlers.open_shoe(OpenShoe("T1", "virtual", actor="terminal"), uow)
    closed = second["closed_shoe"]
    assert closed["shoe_id"] == first["shoe_id"] and second["shoe_id"] != first["shoe_id"]
    assert uow.audit.kinds("table:T1") == ["table_created", "shoe_started", "shoe_closed", "shoe_started"]
    revealed = uow.audit.records["table:T1"][2].payload
    assert revealed["card_order"] and revealed["salt"] and revealed["commitment"] == first["commitment"]


def test_a_shoe_for_a_table_that_does_not_exist_is_not_found():
    with pytest.raises(NotFound):
        handlers.open_shoe(OpenShoe("nowhere", "virtual", actor="terminal"), FakeUnitOfWork())


def test_no_new_shoe_while_a_round_is_open():
    uow = FakeUnitOfWork()
    _table(uow)
    handlers.open_shoe(OpenShoe("T1", "physical", actor="terminal"), uow)
    handlers.open_round(OpenRound("T1", [{"seat": 1, "wager": 1000}], actor="terminal"), uow)
    with pytest.raises(Conflict) as refused:
        handlers.open_shoe(OpenShoe("T1", "virtual", actor="terminal"), uow)
    assert refused.value.code == "round_open"


def _physical_round(uow: FakeUnitOfWork, dealt_before: list[str] | None = None) -> dict:
    """A round opened on a physical shoe that gave out `dealt_before` in earlier rounds."""
    _table(uow)
    shoe = handlers.open_shoe(OpenShoe("T1", "physical", actor="terminal"), uow)
    if dealt_before:
        shoe_id = uuid.UUID(str(shoe["shoe_id"]))
        uow.shoes.rows[shoe_id] = dataclasses.replace(uow.shoes.rows[shoe_id], dealt=dealt_before,
                                                      position=len(dealt_before))
    state = handlers.open_round(OpenRound("T1", [{"seat": 1, "wager": 1000}], actor="terminal"), uow)
    assert state["awaiting"] == "card"
    return state


def test_a_reported_card_goes_to_whoever_is_owed_one_and_the_shoe_counts_it():
    uow = FakeUnitOfWork()
    opened = _physical_round(uow)
    state = handlers.post_card(PostCard(uuid.UUID(str(opened["round_id"])), "9H", actor="terminal"), uow)
    assert state["revision"] == opened["revision"] + 1
    shoe = uow.shoes.lock_current("T1")
    assert shoe is not None and shoe.dealt == ["9H"] and shoe.position == 1
    assert uow.audit.kinds("table:T1")[-1] == "card_dealt"


def test_a_card_the_shoe_no_longer_holds_is_refused_with_its_own_audit_record():
    uow = FakeUnitOfWork()
    opened = _physical_round(uow, dealt_before=["AH"] * 4)   # four decks: every ace of hearts is out
    with pytest.raises(Conflict) as refused:
        handlers.post_card(PostCard(uuid.UUID(str(opened["round_id"])), "AH", actor="terminal"), uow)
    assert refused.value.code == "card_refused" and refused.value.audit is not None
    assert refused.value.audit.kind == "card_refused"
    shoe = uow.shoes.lock_current("T1")
    assert shoe is not None and shoe.dealt == ["AH"] * 4
    assert handlers.post_card(PostCard(uuid.UUID(str(opened["round_id"])), "AS", actor="terminal"), uow)


def test_a_card_on_a_virtual_shoe_is_refused():
    uow = FakeUnitOfWork()
    _table(uow)
    handlers.open_shoe(OpenShoe("T1", "virtual", actor="terminal"), uow)
    state = handlers.open_round(OpenRound("T1", [{"seat": 1, "wager": 1000}], actor="terminal"), uow)
    with pytest.raises(Conflict) as refused:
        handlers.post_card(PostCard(uuid.UUID(str(state["round_id"])), "9H", actor="terminal"), uow)
    assert refused.value.code == "virtual_shoe"


def test_a_card_for_a_round_that_does_not_exist_is_not_found():
    with pytest.raises(NotFound):
        handlers.post_card(PostCard(uuid.uuid4(), "9H", actor="terminal"), FakeUnitOfWork())


def test_a_shoe_closed_with_none_after_it_reveals_its_order_and_leaves_the_table_without_one():
    uow = FakeUnitOfWork()
    _table(uow)
    opened = handlers.open_shoe(OpenShoe("T1", "virtual", actor="staff:dee", screen="T1 left"), uow)
    closed = handlers.close_shoe(CloseShoe("T1", actor="staff:dee", screen="T1 left"), uow)
    assert closed["shoe_id"] == opened["shoe_id"] and closed["card_order"] and closed["salt"]
    assert uow.shoes.lock_current("T1") is None
    record = uow.audit.records["table:T1"][-1]
    assert (record.kind, record.actor, record.payload["screen"]) == ("shoe_closed", "staff:dee", "T1 left")
    with pytest.raises(Conflict) as refused:
        handlers.close_shoe(CloseShoe("T1", actor="staff:dee"), uow)
    assert refused.value.code == "no_shoe"


def test_no_shoe_is_closed_while_a_round_is_open():
    uow = FakeUnitOfWork()
    _physical_round(uow)
    with pytest.raises(Conflict) as refused:
        handlers.close_shoe(CloseShoe("T1", actor="staff:dee"), uow)
    assert refused.value.code == "round_open" and uow.shoes.lock_current("T1") is not None


def test_a_screens_shoe_round_cards_and_decisions_name_the_dealer_and_the_screen():
    uow = FakeUnitOfWork()
    _table(uow)
    dealt = dict(actor="staff:dee", screen="T1 left")
    handlers.open_shoe(OpenShoe("T1", "physical", **dealt), uow)
    state = handlers.open_round(OpenRound("T1", [{"seat": 1, "wager": 1000}], **dealt), uow)
    round_id = uuid.UUID(str(state["round_id"]))
    for card in ("9H", "5C", "7D"):
        state = handlers.post_card(PostCard(round_id, card, **dealt), uow)
    handlers.post_action(PostAction(round_id, 1, "hit", 0, **dealt), uow)
    records = uow.audit.records["table:T1"][1:]
    assert {record.actor for record in records} == {"staff:dee"}
    named = {record.kind for record in records if record.payload.get("screen") == "T1 left"}
    assert named == {"shoe_started", "round_opened", "card_dealt", "decision"}
    # The wager record is the round's stored wager, as audit verify compares it: it names no screen.
    assert [r.payload for r in records if r.kind == "wager"] == [{"seat": 1, "wager": 1000}]
    # The round's events are what a terminal's would be: the screen is the record's alone.
    assert all("screen" not in event.payload for event in uow.rounds.events[round_id])
