"""A paytable draft's submission and an approved version's assignment to a table, on a unit of
work in memory: the numbering, the audit records, and what waits for the table's next round."""
from __future__ import annotations

import uuid
from pathlib import Path

import pytest
import yaml

from service.operators.commands import AssignPaytable, DecidePaytableVersion, SubmitPaytableVersion
from service.operators.paytables import assign_paytable, decide_version, submit_version
from service.refusals import Conflict, Invalid, NotFound
from service.rounds import handlers
from service.rounds.commands import CreateTable, OpenRound, OpenShoe
from service.rules.registry import paytables_dir

from .fake_uow import FakeUnitOfWork

PAYTABLE = "canberra-standard"


def _file_content() -> dict:
    """The file's document as a draft submits it: without the name and version it is given."""
    content = yaml.safe_load((Path(paytables_dir()) / f"{PAYTABLE}.yaml").read_text(encoding="utf-8"))
    return {key: value for key, value in content.items() if key not in ("name", "version")}


@pytest.fixture
def uow() -> FakeUnitOfWork:
    uow = FakeUnitOfWork()
    uow.paytables.seed_file(PAYTABLE)
    handlers.create_table(CreateTable("T1", "canberra", PAYTABLE, actor="admin"), uow)
    return uow


def _approved_version_two(uow: FakeUnitOfWork) -> None:
    submit_version(SubmitPaytableVersion(PAYTABLE, "next season", "op-1", content=_file_content()), uow)
    # A worker measures the draft (its submission asked for it): approval waits for the figures.
    uow.evaluations.finish(PAYTABLE, 2, house_edge_percent=-0.291, rtp_percent=100.291, detail={})
    decide_version(DecidePaytableVersion(PAYTABLE, 2, "approved", "checked", "op-2"), uow)


def test_a_draft_takes_the_next_number_after_the_last_version_and_is_audited_with_its_base(uow):
    draft = submit_version(SubmitPaytableVersion(PAYTABLE, "a new bonus", "op-1", content=_file_content()), uow)
    assert (draft["version"], draft["status"], draft["based_on_version"]) == (2, "draft", 1)
    again = submit_version(SubmitPaytableVersion(PAYTABLE, "another", "op-1", content=_file_content()), uow)
    assert again["version"] == 3
    submitted = [r for r in uow.audit.records["system"] if r.kind == "paytable_version_submitted"]
    assert [r.payload["version"] for r in submitted] == [2, 3]
    assert submitted[0].payload["before"] == uow.paytables.get(PAYTABLE, 1).content


def test_a_draft_that_the_engine_cannot_read_names_the_field_and_is_not_stored(uow):
    content = _file_content()
    content["odds"]["win"] = "a lot"
    with pytest.raises(Invalid) as refused:
        submit_version(SubmitPaytableVersion(PAYTABLE, "typo", "op-1", content=content), uow)
    assert refused.value.errors and uow.paytables.get(PAYTABLE, 2) is None


def test_a_paytable_with_no_versions_is_not_found():
    with pytest.raises(NotFound):
        submit_version(SubmitPaytableVersion("no-such-paytable", "new", "op-1", content={}), FakeUnitOfWork())


def test_an_approved_version_waits_for_the_tables_next_round(uow):
    _approved_version_two(uow)
    view = assign_paytable(AssignPaytable("T1", 2, "new season", "op-2"), uow)
    assert (view["version"], view["pending_version"], view["next_round_version"]) == (1, 2, 2)
    assert view["assignments"][0]["applied_at"] is None
    (assigned,) = [r for r in uow.audit.records["table:T1"] if r.kind == "paytable_assigned"]
    assert assigned.payload["before"] == {"paytable_version": 1, "pending_version": None}
    assert assigned.payload["after"] == {"paytable_version": 1, "pending_version": 2}


def test_assigning_the_version_in_force_withdraws_the_pending_one(uow):
    _approved_version_two(uow)
    assign_paytable(AssignPaytable("T1", 2, "new season", "op-2"), uow)
    view = assign_paytable(AssignPaytable("T1", 1, "not yet", "op-2"), uow)
    assert view["pending_version"] is None and view["next_round_version"] == 1
    first, second = view["assignments"]
    assert first["superseded_at"] is not None and second["applied_at"] is not None


def test_the_version_already_next_is_not_assigned_twice(uow):
    with pytest.raises(Conflict) as refused:
        assign_paytable(AssignPaytable("T1", 1, "again", "op-2"), uow)
    assert refused.value.code == "already_assigned"


def test_only_an_approved_version_is_assigned(uow):
    submit_version(SubmitPaytableVersion(PAYTABLE, "a draft", "op-1", content=_file_content()), uow)
    with pytest.raises(Conflict) as draft:
        assign_paytable(AssignPaytable("T1", 2, "too soon", "op-2"), uow)
    assert draft.value.code == "not_approved"
    with pytest.raises(Invalid) as missing:
        assign_paytable(AssignPaytable("T1", 9, "no such", "op-2"), uow)
    assert "version" in (missing.value.errors or {})
    assert uow.tables.get("T1").pending_paytable_version is None


def test_a_table_without_a_paytable_takes_no_assignment(uow):
    handlers.create_table(CreateTable("B1", "british-traditional", None, actor="admin"), uow)
    with pytest.raises(Conflict) as refused:
        assign_paytable(AssignPaytable("B1", 1, "no", "op-2"), uow)
    assert refused.value.code == "no_paytable"


def test_a_round_opened_after_the_assignment_plays_the_pending_version(uow):
    _approved_version_two(uow)
    assign_paytable(AssignPaytable("T1", 2, "new season", "op-2"), uow)
    handlers.open_shoe(OpenShoe("T1", "virtual", actor="terminal"), uow)
    state = handlers.open_round(OpenRound("T1", [{"seat": 1, "wager": 1000}], actor="terminal"), uow)
    assert uow.rounds.rows[uuid.UUID(str(state["round_id"]))].paytable_ref == f"{PAYTABLE}@2"
