"""Paytable change control: submit a draft, have another operator approve (or reject) it, assign
an approved version to a table from its next round; and the views of versions and tables."""
from __future__ import annotations

from typing import Any

from ..refusals import Conflict, Forbidden, Invalid, NotFound
from ..rules import Ref, parse_paytable
from ..staff.confirmation import Confirmation, confirm
from ..staff.people import person_of, who
from ..staff.policy import StaffPolicy
from ..store.repositories.audit import AuditRecord, chain_for
from ..store.repositories.evaluations import EvaluationRow, EvaluationStatus
from ..store.repositories.paytables import AssignmentRow, VersionRow, VersionStatus
from ..store.repositories.staff import StaffRow
from ..store.uow import UnitOfWork
from .commands import AssignPaytable, DecidePaytableVersion, SubmitPaytableVersion
from .documents import NAME, changes, read_submitted
from .evaluation import measuring_rules
from .evaluation_jobs import request_evaluation

APPLIES_FROM = "the table's next round (never a round already in play)"
HOUSE_EDGE_PERCENT_BOUND = 10_000   # what the versions' numeric(9, 4) holds, and far past any real game


# ----- commands -------------------------------------------------------------------------------
def submit_version(cmd: SubmitPaytableVersion, uow: UnitOfWork) -> dict:
    """A new draft, numbered after the paytable's last version and validated as the engine reads
    it, and the evaluation of its house edge asked of a worker: approval waits for its figures."""
    store = uow.paytables
    _known_name(cmd.name)
    store.lock_numbering(cmd.name)
    latest = store.latest_number(cmd.name)
    if latest is None:
        raise NotFound(f"no paytable {cmd.name!r}: a new paytable starts as a file in paytables/, "
                       "seeded by `pontoon migrate`")
    document = read_submitted(cmd.name, latest + 1, yaml_text=cmd.yaml_text, content=cmd.content)
    measuring_rules(document.paytable)   # a draft no evaluation could measure could never be approved
    base = store.latest_approved(cmd.name)
    row = store.add(name=cmd.name, version=latest + 1, content=document.content, source=document.source,
                    source_format=document.source_format, based_on_version=base.version if base else None,
                    author=cmd.actor, reason=cmd.reason)
    uow.audit.append(chain_for(None), [AuditRecord("paytable_version_submitted", {
        "paytable": row.name, "version": row.version, "status": VersionStatus.DRAFT, "reason": cmd.reason,
        "based_on_version": row.based_on_version, "before": base.content if base else None, "after": row.content,
        "changes": changes(base.content if base else None, row.content)}, actor=cmd.actor)])
    request_evaluation(uow, row.name, row.version, cmd.actor)
    return version_view(uow, row)


def decide_version(cmd: DecidePaytableVersion, uow: UnitOfWork, policy: StaffPolicy | None = None) -> dict:
    """Approve (not one's own draft, by no identity of its author's; by a person who set their own
    password and confirms it now; and once its evaluation is done: its figures are kept with the
    version) or reject a draft. `policy` checks the confirmation (the default policy's when none)."""
    store = uow.paytables
    _known_name(cmd.name)
    draft = store.get(cmd.name, cmd.version)
    if draft is None:
        raise NotFound(f"no version {cmd.version} of paytable {cmd.name!r}")
    if draft.status != VersionStatus.DRAFT:
        raise Conflict(f"{Ref(cmd.name, cmd.version)} is {draft.status} already: versions are never changed",
                       code="not_a_draft")
    if cmd.decision == VersionStatus.APPROVED:
        _may_approve(uow, cmd, draft.author, policy)
    evaluation = _finished_evaluation(uow, cmd.name, cmd.version) if cmd.decision == VersionStatus.APPROVED else None
    decided = store.decide(name=cmd.name, version=cmd.version, status=cmd.decision, decided_by=cmd.actor,
                           reason=cmd.reason,
                           house_edge_percent=evaluation.house_edge_percent if evaluation else None,
                           rtp_percent=evaluation.rtp_percent if evaluation else None,
                           evaluation=evaluation.detail if evaluation else None)
    if decided is None:
        raise Conflict(f"{Ref(cmd.name, cmd.version)} was decided meanwhile: read it again", code="not_a_draft")
    after = {"status": decided.status, "decided_by": decided.decided_by,
             "house_edge_percent": evaluation.house_edge_percent if evaluation else None,
             "rtp_percent": evaluation.rtp_percent if evaluation else None}
    before = {"status": VersionStatus.DRAFT, "decided_by": None, "house_edge_percent": None, "rtp_percent": None}
    uow.audit.append(chain_for(None), [AuditRecord(f"paytable_version_{decided.status}", {
        "paytable": cmd.name, "version": cmd.version, "reason": cmd.reason, "author": draft.author,
        "before": before, "after": after, "changes": changes(before, after)}, actor=cmd.actor)])
    return version_view(uow, decided)


def _may_approve(uow: UnitOfWork, cmd: DecidePaytableVersion, author: str, policy: StaffPolicy | None) -> None:
    """Four eyes between people: the approver is not the author through any identity of theirs
    (their console session or any key of theirs), has set their own password, and confirms it."""
    approver, drafter = person_of(uow, cmd.actor), person_of(uow, author)
    same = approver is not None and drafter is not None and approver.user_id == drafter.user_id
    if author == cmd.actor or same:
        raise Forbidden(f"four eyes: a different person must approve this draft, not its author "
                        f"{who(drafter, author)}" + (" (through another identity of theirs)" if same and
                                                    author != cmd.actor else ""),
                        code="own_draft", audit=AuditRecord("paytable_approval_refused", {
                            "paytable": cmd.name, "version": cmd.version, "reason": "own_draft",
                            "author": author, "person": drafter.username if drafter else None},
                            actor=cmd.actor))
    if approver is not None:
        _approver_confirms(uow, approver, cmd.confirmation, policy, f"approving {Ref(cmd.name, cmd.version)}",
                           AuditRecord("paytable_approval_refused", {
                               "paytable": cmd.name, "version": cmd.version, "reason": "password_not_own",
                               "person": approver.username}, actor=cmd.actor))


def _approver_confirms(uow: UnitOfWork, approver: StaffRow, confirmation: Confirmation | None,
                       policy: StaffPolicy | None, what: str, refused: AuditRecord) -> None:
    """An approver whose password an admin set approves nothing until they set their own; and an
    approval asks for their password (and TOTP code) again."""
    if approver.password_set_by is not None:
        raise Forbidden(f"{approver.username}'s password was set by an admin: they set their own (at the console's "
                        "Your account) before they approve anything", code="password_not_own", audit=refused)
    if confirmation is None or not confirmation.password:
        raise Invalid(f"{what} asks for the approver's password again (and their TOTP code when enrolled)",
                      code="confirmation_required", errors={"password": ["your password, to confirm it is you"]})
    confirm(uow, approver, confirmation, policy or StaffPolicy(), what)


def _finished_evaluation(uow: UnitOfWork, name: str, version: int) -> EvaluationRow:
    """The draft's finished evaluation, whose figures its approval keeps: approval waits for one,
    and refuses figures no paytable may have."""
    found = uow.evaluations.get(name, version)
    if found is None:
        raise Conflict(f"{Ref(name, version)} has no evaluation of its house edge: ask for one, and approve it "
                       "once its figures are in", code="not_evaluated")
    if found.status in (EvaluationStatus.QUEUED, EvaluationStatus.RUNNING):
        raise Conflict(f"{Ref(name, version)}'s house edge is still being measured (its evaluation is "
                       f"{found.status}): approve it once the figures are in", code="evaluation_under_way")
    if found.status == EvaluationStatus.FAILED or found.house_edge_percent is None or found.rtp_percent is None:
        raise Conflict(f"{Ref(name, version)}'s evaluation could not finish ({found.error}): ask for it again, "
                       "or reject the draft", code="evaluation_failed")
    if not abs(found.house_edge_percent) < HOUSE_EDGE_PERCENT_BOUND:
        raise Invalid(f"{Ref(name, version)} measures a house edge of {found.house_edge_percent:.4f}%: "
                      "no paytable may pay like that", code="paytable_out_of_bounds",
                      errors={"house_edge_percent": [f"must lie within ±{HOUSE_EDGE_PERCENT_BOUND}%"]})
    return found


def assign_paytable(cmd: AssignPaytable, uow: UnitOfWork) -> dict:
    """Give the table an approved version of its paytable. It waits as the table's pending
    version and becomes current when the next round opens; assigning the version already in
    force withdraws a pending one."""
    table = uow.tables.lock(cmd.table_id)
    if table is None:
        raise NotFound(f"no table {cmd.table_id!r}")
    if table.paytable is None:
        raise Conflict(f"table {cmd.table_id!r} plays a game without a paytable", code="no_paytable")
    store = uow.paytables
    target = store.get(table.paytable, cmd.version)
    if target is None:
        raise Invalid(f"no version {cmd.version} of paytable {table.paytable!r}", code="invalid_request",
                      errors={"version": [f"{table.paytable} has no version {cmd.version}"]})
    if target.status != VersionStatus.APPROVED:
        raise Conflict(f"{Ref(target.name, target.version)} is {target.status}: only approved versions can be "
                       "assigned", code="not_approved")
    current = table.paytable_version or 1
    pending = table.pending_paytable_version
    if cmd.version == (pending or current):
        raise Conflict(f"{Ref(target.name, target.version)} is already the version for the table's next round",
                       code="already_assigned")
    in_force_now = cmd.version == current
    store.supersede_waiting(cmd.table_id)
    store.set_pending(cmd.table_id, None if in_force_now else cmd.version)
    assignment = store.add_assignment(table_id=cmd.table_id, paytable=target.name, version=target.version,
                                      previous_version=current, assigned_by=cmd.actor, reason=cmd.reason,
                                      in_force_now=in_force_now)
    replaced = store.get(table.paytable, pending or current)
    before = {"paytable_version": current, "pending_version": pending}
    after = {"paytable_version": current, "pending_version": None if in_force_now else cmd.version}
    uow.audit.append(chain_for(cmd.table_id), [AuditRecord("paytable_assigned", {
        "paytable": target.name, "version": target.version, "reason": cmd.reason, "assignment_id": assignment.id,
        "applies_from": "now: the pending version is withdrawn" if in_force_now else APPLIES_FROM,
        "before": before, "after": after,
        "changes": changes(replaced.content if replaced else None, target.content)},
        actor=cmd.actor, table_id=cmd.table_id)])
    return table_paytable_view(uow, cmd.table_id)


def _known_name(name: str) -> None:
    """A well-formed name: any other is no paytable's (a file's version 1 is in the database from
    `pontoon migrate` on)."""
    if not NAME.fullmatch(name):
        raise NotFound(f"no paytable {name!r}")


# ----- queries --------------------------------------------------------------------------------
def list_paytables(uow: UnitOfWork) -> list[dict]:
    by_name: dict[str, list[dict]] = {}
    for row in uow.paytables.all():
        by_name.setdefault(row.name, []).append(version_summary(row))
    return [{"name": name, "versions": versions} for name, versions in by_name.items()]


def list_versions(uow: UnitOfWork, name: str) -> dict:
    _known_name(name)
    rows = uow.paytables.all(name)
    if not rows:
        raise NotFound(f"no paytable {name!r}")
    return {"name": name, "versions": [version_summary(row) for row in rows]}


def version(uow: UnitOfWork, name: str, number: int) -> dict:
    _known_name(name)
    row = uow.paytables.get(name, number)
    if row is None:
        raise NotFound(f"no version {number} of paytable {name!r}")
    return version_view(uow, row)


def table_paytable(uow: UnitOfWork, table_id: str) -> dict:
    if uow.tables.get(table_id) is None:
        raise NotFound(f"no table {table_id!r}")
    return table_paytable_view(uow, table_id)


# ----- views ----------------------------------------------------------------------------------
def _percent(value) -> float | None:
    return None if value is None else float(value)


def version_summary(row: VersionRow) -> dict:
    return {"version": row.version, "status": row.status, "author": row.author, "created_at": row.created_at,
            "reason": row.reason, "decided_by": row.decided_by, "decided_at": row.decided_at,
            "house_edge_percent": _percent(row.house_edge_percent), "rtp_percent": _percent(row.rtp_percent)}


def odds_view(paytable: Any) -> dict:
    """The odds as the engine reads them (normalised, e.g. "3:2"), bonus lines and side bets included."""
    odds = {"pontoon": str(paytable.pontoon), "win": str(paytable.win), "doubled_win": str(paytable.doubled_win)}
    return {"odds": odds, "bonuses": {line.name: str(line.odds) for line in paytable.bonuses},
            "side_bets": {bet.name: {"kind": bet.kind.value, "pays": {hand: str(odds) for hand, odds in bet.pays},
                                     "limits": {"min": bet.limits.minimum, "max": bet.limits.maximum}}
                          for bet in paytable.side_bets},
            "super_bonus": None if paytable.super_bonus is None else {
                "ranks": list(paytable.super_bonus.ranks), "upcard": paytable.super_bonus.upcard,
                "one_suit": paytable.super_bonus.one_suit, "envy": paytable.super_bonus.envy,
                "prizes": [{"wager_below": prize.wager_below, "prize": prize.prize}
                           for prize in paytable.super_bonus.prizes]}}


def version_view(uow: UnitOfWork, row: VersionRow) -> dict:
    """A version: its odds, its document, its house edge, and its trail from submission to the
    tables it runs on."""
    store = uow.paytables
    # Every stored version was read this way when it went in; a RulesError here is a defect.
    odds = odds_view(parse_paytable(str(Ref(row.name, row.version)), row.content))
    base = store.get(row.name, row.based_on_version) if row.based_on_version else None
    evaluation = uow.evaluations.get(row.name, row.version)
    return {"name": row.name, "version": row.version, "status": row.status, **odds,
            "content": row.content, "source_format": row.source_format, "based_on_version": row.based_on_version,
            "changes": changes(base.content, row.content) if base else [],
            "house_edge_percent": _percent(row.house_edge_percent), "rtp_percent": _percent(row.rtp_percent),
            "evaluation": row.evaluation, "evaluation_status": evaluation.status if evaluation else None,
            "trail": _trail(row, store.assignments_of_version(row.name, row.version)),
            "tables": store.tables_running(row.name, row.version)}


def _trail(row: VersionRow, assignments: list[AssignmentRow]) -> list[dict]:
    steps: list[dict[str, Any]] = [{"step": "seeded" if row.source_format == "file" else "submitted", "by": row.author,
              "at": row.created_at, "reason": row.reason}]
    if row.status != VersionStatus.DRAFT and row.source_format != "file":
        steps.append({"step": row.status, "by": row.decided_by, "at": row.decided_at, "reason": row.decision_reason})
    for assignment in assignments:
        steps.append({"step": "assigned", "by": assignment.assigned_by, "at": assignment.assigned_at,
                      "reason": assignment.reason, "table_id": assignment.table_id})
        if assignment.applied_at is not None:
            steps.append({"step": "applied", "by": None, "at": assignment.applied_at, "reason": None,
                          "table_id": assignment.table_id, "round_id": assignment.applied_round_id})
        if assignment.superseded_at is not None:
            steps.append({"step": "superseded", "by": None, "at": assignment.superseded_at, "reason": None,
                          "table_id": assignment.table_id})
    return sorted(steps, key=lambda step: step["at"])


def table_paytable_view(uow: UnitOfWork, table_id: str) -> dict:
    table = uow.tables.get(table_id)
    if table is None:
        raise NotFound(f"no table {table_id!r}")
    store = uow.paytables
    return {"table_id": table_id, "paytable": table.paytable,
            "version": (table.paytable_version or 1) if table.paytable else None,
            "pending_version": table.pending_paytable_version,
            "next_round_version": (table.pending_paytable_version or table.paytable_version or 1)
            if table.paytable else None,
            "round_open": uow.rounds.open_on_table(table_id) is not None,
            "assignments": [{"id": a.id, "version": a.version, "previous_version": a.previous_version,
                             "assigned_by": a.assigned_by, "assigned_at": a.assigned_at, "reason": a.reason,
                             "applied_round_id": a.applied_round_id, "applied_at": a.applied_at,
                             "superseded_at": a.superseded_at} for a in store.assignments_of_table(table_id)]}
