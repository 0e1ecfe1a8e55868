"""Four eyes between people, on a unit of work in memory: a draft is never approved by its author
through another identity of theirs (a key of theirs, their console name), nor by a person whose
password an admin set, nor without the approver's password again; a wrong one counts toward the
sign-in lock."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from service.operators.commands import DecidePaytableVersion, SubmitPaytableVersion
from service.operators.paytables import decide_version, submit_version
from service.refusals import Forbidden, Invalid
from service.rules.registry import paytables_dir
from service.staff.confirmation import Confirmation
from service.store.repositories.staff import StaffRow
from tests.unit.staff.fake_staff import CHEAP

from .fake_uow import FakeUnitOfWork

PAYTABLE = "canberra-standard"
PASSWORD = "correct horse battery"


def _person(uow: FakeUnitOfWork, username: str, *, set_by: str | None = None) -> StaffRow:
    row = uow.staff.add(username=username, display_name=username.title(), role="operator",
                        password_hash=CHEAP.passwords.hash(PASSWORD), created_by="staff:root", password_set_by=set_by)
    assert row is not None
    return row


def _key(uow: FakeUnitOfWork, owner: StaffRow) -> str:
    key, _ = uow.keys.create(role="operator", table_id=None, name=None, created_by="staff:root",
                             owner_id=owner.user_id)
    return str(key.key_id)


@pytest.fixture
def uow() -> FakeUnitOfWork:
    uow = FakeUnitOfWork()
    uow.paytables.seed_file(PAYTABLE)
    return uow


def _draft(uow: FakeUnitOfWork, author: str) -> int:
    content = yaml.safe_load((Path(paytables_dir()) / f"{PAYTABLE}.yaml").read_text(encoding="utf-8"))
    content = {key: value for key, value in content.items() if key not in ("name", "version")}
    draft = submit_version(SubmitPaytableVersion(PAYTABLE, "next season", author, content=content), uow)
    uow.evaluations.finish(PAYTABLE, draft["version"], house_edge_percent=-0.3, rtp_percent=100.3, detail={})
    return int(draft["version"])


def _approve(uow: FakeUnitOfWork, version: int, actor: str, password: str | None = PASSWORD) -> dict:
    confirmation = Confirmation(password, address="10.0.0.7") if password is not None else None
    return decide_version(DecidePaytableVersion(PAYTABLE, version, "approved", "checked", actor, confirmation),
                          uow, CHEAP)


@pytest.mark.parametrize("identities", ["two keys", "console then key", "key then console"])
def test_one_person_never_approves_their_own_draft_through_another_identity(uow, identities):
    olly = _person(uow, "olly")
    first, second = {"two keys": (_key(uow, olly), _key(uow, olly)),
                     "console then key": ("staff:olly", _key(uow, olly)),
                     "key then console": (_key(uow, olly), "staff:olly")}[identities]
    version = _draft(uow, first)
    with pytest.raises(Forbidden) as refused:
        _approve(uow, version, second)
    assert refused.value.code == "own_draft" and "Olly (olly)" in refused.value.message
    assert refused.value.audit is not None and refused.value.audit.payload["person"] == "olly"
    assert uow.paytables.get(PAYTABLE, version).status == "draft"


def test_another_persons_key_approves_with_their_password(uow):
    olly, otto = _person(uow, "olly"), _person(uow, "otto")
    version = _draft(uow, _key(uow, olly))
    approved = _approve(uow, version, _key(uow, otto))
    assert approved["status"] == "approved" and otto.user_id != olly.user_id


def test_a_person_whose_password_an_admin_set_approves_nothing(uow):
    _person(uow, "olly")
    _person(uow, "newbie", set_by="staff:root")
    version = _draft(uow, "staff:olly")
    with pytest.raises(Forbidden) as refused:
        _approve(uow, version, "staff:newbie")
    assert refused.value.code == "password_not_own" and "set their own" in refused.value.message


def test_an_approval_without_the_password_is_refused(uow):
    _person(uow, "olly")
    otto = _person(uow, "otto")
    version = _draft(uow, "staff:olly")
    with pytest.raises(Invalid) as refused:
        _approve(uow, version, _key(uow, otto), password=None)
    assert refused.value.code == "confirmation_required" and "password" in (refused.value.errors or {})


def test_a_wrong_password_is_refused_and_counts_toward_the_lock(uow):
    _person(uow, "olly")
    otto = _person(uow, "otto")
    version = _draft(uow, "staff:olly")
    with pytest.raises(Forbidden) as refused:
        _approve(uow, version, "staff:otto", password="a guess")
    assert refused.value.code == "not_confirmed" and refused.value.keep is not None
    refused.value.keep(uow)   # what the runner writes after rolling the approval back
    assert uow.staff.failures_from(otto.user_id, "10.0.0.7").failures == 1
    assert uow.audit.records["system"][-1].kind == "staff_sign_in_failed"
    assert uow.audit.records["system"][-1].payload["reason"] == "confirmation_wrong_password"
