"""The handlers on a unit of work held in memory: opening a round, a decision, a void and a
paytable's approval, each checked for the state and the audit records it leaves."""
from __future__ import annotations

import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml

from service.compliance.commands import VoidRound
from service.compliance.void import REFUND_KIND, void_round
from service.operators.commands import DecidePaytableVersion, EvaluatePaytableVersion, SubmitPaytableVersion
from service.operators.evaluation_jobs import evaluate_version
from service.operators.paytables import decide_version, submit_version
from service.refusals import Conflict, Forbidden, Invalid, NotFound
from service.rounds import handlers
from service.rounds.commands import CreateTable, OpenRound, OpenShoe, PostAction
from service.rules.registry import paytables_dir
from service.store.repositories.paytables import VersionRow

from .fake_uow import FakeUnitOfWork

WAGERS = [{"seat": 1, "wager": 1000}, {"seat": 3, "wager": 500}]
PAYTABLE = "canberra-standard"


@pytest.fixture
def table() -> tuple[FakeUnitOfWork, str]:
    uow = FakeUnitOfWork()
    handlers.create_table(CreateTable("T1", "canberra", PAYTABLE, actor="admin"), uow)
    handlers.open_shoe(OpenShoe("T1", "virtual", actor="terminal"), uow)
    return uow, "T1"


def _round_awaiting_a_decision(uow: FakeUnitOfWork, table_id: str) -> dict:
    for _ in range(40):   # a round the deal settles at once (a Pontoon, say) is no use here
        state = handlers.open_round(OpenRound(table_id, WAGERS, actor="terminal"), uow)
        if state["awaiting"] == "decision":
            return state
    raise AssertionError("forty rounds in a row needed no decision")


def test_opening_a_round_deals_from_the_virtual_shoe_and_audits_it(table):
    uow, table_id = table
    state = handlers.open_round(OpenRound(table_id, WAGERS, actor="terminal"), uow)
    row = uow.rounds.rows[uuid.UUID(str(state["round_id"]))]
    assert row.wagers == WAGERS and row.rules_ref == "canberra@1" and row.paytable_ref == f"{PAYTABLE}@1"
    dealt = [event for event in uow.rounds.events[row.round_id] if event.kind == "card"]
    assert len(dealt) >= 3   # two to each seat's hand, one to the dealer, before any decision
    kinds = uow.audit.kinds(f"table:{table_id}")
    assert kinds[:2] == ["table_created", "shoe_started"]
    assert kinds[2:5] == ["round_opened", "wager", "wager"] and kinds.count("card_dealt") == len(dealt)
    shoe = uow.shoes.lock_current(table_id)
    assert shoe is not None and shoe.position == len(dealt)


def test_opening_a_round_while_one_is_open_is_refused(table):
    uow, table_id = table
    _round_awaiting_a_decision(uow, table_id)
    with pytest.raises(Conflict) as refused:
        handlers.open_round(OpenRound(table_id, WAGERS, actor="terminal"), uow)
    assert refused.value.code == "round_open"


def test_a_decision_is_recorded_and_a_refused_one_changes_nothing(table):
    uow, table_id = table
    state = _round_awaiting_a_decision(uow, table_id)
    round_id = uuid.UUID(str(state["round_id"]))
    turn = state["in_turn"]
    legal = {legal["action"] for legal in turn["legal_actions"]}
    before = list(uow.rounds.events[round_id])
    # A pair of 13 or more may split, stand and double; no first decision may forfeit (only a double may).
    illegal = next(action for action in ("split", "stand", "double", "forfeit") if action not in legal)
    with pytest.raises(Conflict) as refused:
        handlers.post_action(PostAction(round_id, turn["seat"], illegal, turn["hand"], actor="terminal"), uow)
    assert refused.value.code == "decision_refused" and uow.rounds.events[round_id] == before
    after = handlers.post_action(PostAction(round_id, turn["seat"], "hit", turn["hand"], actor="terminal",
                                            expected_revision=state["revision"]), uow)
    assert after["revision"] == state["revision"] + 1
    assert uow.rounds.events[round_id][len(before)].payload == {"seat": turn["seat"], "action": "hit",
                                                                "hand": turn["hand"]}
    assert "decision" in uow.audit.kinds(f"table:{table_id}")
    if after["status"] == "complete":
        assert ("settle_round", round_id) in uow.outbox.items


def test_a_stale_version_is_refused(table):
    uow, table_id = table
    state = _round_awaiting_a_decision(uow, table_id)
    turn = state["in_turn"]
    with pytest.raises(Conflict) as refused:
        handlers.post_action(PostAction(uuid.UUID(str(state["round_id"])), turn["seat"], "hit", turn["hand"],
                                        actor="terminal", expected_revision=state["revision"] - 1), uow)
    assert refused.value.code == "revision_conflict"


def test_a_void_gives_every_stake_back_and_closes_the_round(table):
    uow, table_id = table
    state = _round_awaiting_a_decision(uow, table_id)
    round_id = uuid.UUID(str(state["round_id"]))
    voided = void_round(VoidRound(round_id, "misdeal", "supervisor", state["revision"]), uow)
    assert voided["status"] == "void" and voided["total_refunded"] == 1500
    assert sorted((seat, amount) for _, seat, amount, _ in uow.ledger.refunds) == [(1, 1000), (3, 500)]
    assert all(kind == REFUND_KIND for *_, kind in uow.ledger.refunds)
    assert uow.rounds.rows[round_id].status == "void"
    assert uow.audit.kinds(f"table:{table_id}")[-1] == "round_voided"
    with pytest.raises(Conflict) as again:
        void_round(VoidRound(round_id, "twice", "supervisor"), uow)
    assert again.value.code == "round_not_open"


def _draft(uow: FakeUnitOfWork, author: str) -> VersionRow:
    content = {**yaml.safe_load((Path(paytables_dir()) / f"{PAYTABLE}.yaml").read_text()), "name": PAYTABLE,
               "version": 2}
    draft = VersionRow(PAYTABLE, 2, content, "...", "json", 1, "draft", author, "a new bonus", datetime.now(UTC),
                       None, None, None, None, None, None)
    uow.paytables.rows[(PAYTABLE, 2)] = draft
    return draft


def _measured(uow: FakeUnitOfWork, house_edge: float = 2.5) -> None:
    """What the evaluation's worker leaves: the draft's figures."""
    uow.evaluations.request(PAYTABLE, 2, "op-1", 300.0)
    uow.evaluations.finish(PAYTABLE, 2, house_edge_percent=house_edge, rtp_percent=100 - house_edge,
                           detail={"method": "exact"})


def test_a_paytable_draft_is_approved_by_another_operator_with_its_evaluations_figures():
    uow = FakeUnitOfWork()
    _draft(uow, author="op-1")
    _measured(uow)
    with pytest.raises(Forbidden) as own:
        decide_version(DecidePaytableVersion(PAYTABLE, 2, "approved", "mine", "op-1"), uow)
    assert own.value.code == "own_draft" and uow.paytables.rows[(PAYTABLE, 2)].status == "draft"
    approved = decide_version(DecidePaytableVersion(PAYTABLE, 2, "approved", "checked", "op-2"), uow)
    assert approved["status"] == "approved" and approved["house_edge_percent"] == 2.5
    assert approved["rtp_percent"] == 97.5 and approved["evaluation"] == {"method": "exact"}
    assert uow.audit.kinds("system") == ["paytable_version_approved"]
    with pytest.raises(Conflict) as decided:
        decide_version(DecidePaytableVersion(PAYTABLE, 2, "rejected", "too late", "op-3"), uow)
    assert decided.value.code == "not_a_draft"


@pytest.mark.parametrize("how, code, words", [
    ("never asked", "not_evaluated", "no evaluation"),
    ("queued", "evaluation_under_way", "still being measured"),
    ("failed", "evaluation_failed", "could not finish (ZeroDivisionError"),
])
def test_approval_waits_for_a_finished_evaluation(how, code, words):
    uow = FakeUnitOfWork()
    _draft(uow, author="op-1")
    if how != "never asked":
        uow.evaluations.request(PAYTABLE, 2, "op-1", 300.0)
    if how == "failed":
        uow.evaluations.fail(PAYTABLE, 2, "ZeroDivisionError: no rounds")
    with pytest.raises(Conflict) as waiting:
        decide_version(DecidePaytableVersion(PAYTABLE, 2, "approved", "checked", "op-2"), uow)
    assert waiting.value.code == code and words in waiting.value.message
    assert uow.paytables.rows[(PAYTABLE, 2)].status == "draft" and not uow.audit.kinds("system")
    rejected = decide_version(DecidePaytableVersion(PAYTABLE, 2, "rejected", "not now", "op-2"), uow)
    assert rejected["status"] == "rejected", "a rejection waits for nothing"


def test_figures_no_paytable_may_have_are_not_approved():
    uow = FakeUnitOfWork()
    _draft(uow, author="op-1")
    _measured(uow, house_edge=-250_000.0)
    with pytest.raises(Invalid) as refused:
        decide_version(DecidePaytableVersion(PAYTABLE, 2, "approved", "checked", "op-2"), uow)
    assert refused.value.code == "paytable_out_of_bounds"


def test_a_submitted_draft_queues_its_evaluation_and_asking_again_changes_nothing():
    uow = FakeUnitOfWork()
    uow.paytables.seed_file(PAYTABLE)   # as `pontoon migrate` does
    document = yaml.safe_load((Path(paytables_dir()) / f"{PAYTABLE}.yaml").read_text())
    document.pop("version")
    draft = submit_version(SubmitPaytableVersion(PAYTABLE, "a promotion", "op-1", content=document), uow)
    assert draft["version"] == 2 and draft["evaluation_status"] == "queued"
    assert ("evaluate_paytable", {"paytable": PAYTABLE, "version": 2}) in uow.outbox.items
    assert uow.audit.kinds("system") == ["paytable_version_submitted"]
    again = evaluate_version(EvaluatePaytableVersion(PAYTABLE, 2, "op-2"), uow)
    assert again["status"] == "queued" and again["requested_by"] == "op-1"
    assert len(uow.outbox.items) == 1, "one under way stands: no second message"
    uow.evaluations.fail(PAYTABLE, 2, "the worker's analysis broke")
    asked = evaluate_version(EvaluatePaytableVersion(PAYTABLE, 2, "op-2"), uow)
    assert asked["status"] == "queued" and asked["requested_by"] == "op-2" and len(uow.outbox.items) == 2
    with pytest.raises(NotFound):
        evaluate_version(EvaluatePaytableVersion(PAYTABLE, 9, "op-2"), uow)


def test_a_draft_no_evaluation_could_measure_is_refused_as_submitted():
    uow = FakeUnitOfWork()
    uow.paytables.seed_file(PAYTABLE)   # as `pontoon migrate` does
    document = yaml.safe_load((Path(paytables_dir()) / f"{PAYTABLE}.yaml").read_text())
    document.pop("version")
    document["measured_under"] = "british-traditional"
    with pytest.raises(Invalid) as refused:
        submit_version(SubmitPaytableVersion(PAYTABLE, "a promotion", "op-1", content=document), uow)
    assert refused.value.code == "paytable_unmeasurable" and "measured_under" in refused.value.errors
    assert (PAYTABLE, 2) not in uow.paytables.rows and not uow.outbox.items
