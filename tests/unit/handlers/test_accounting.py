"""Table games accounting on a unit of work in memory: tray counts signed by two people, fills and
credits through request, issue and receipt, voids by two people and reissues, buy-ins per seat, the
soft count by two counters, and the statement worked out from them beside the rounds."""
from __future__ import annotations

import uuid
from datetime import UTC, date, datetime, timedelta

import pytest

from service.accounting.buy_ins import record_buy_in
from service.accounting.commands import (
    CountTray,
    EnterCount,
    IssueChips,
    IssueStatement,
    RecordBuyIn,
    RequestChips,
    SignSlip,
    VoidSlip,
)
from service.accounting.counts import counts_of_day, enter_count
from service.accounting.policy import AccountingPolicy
from service.accounting.slips import count_tray, issue_chips, request_chips, sign_slip, void_slip, waiting_for
from service.accounting.statement import issue_statement, table_games_statement
from service.refusals import Conflict, Forbidden, Invalid, NotFound
from service.rounds import handlers
from service.rounds.commands import CreateTable
from service.store.repositories.accounting import Capacity, RoundMoneyRow

from .fake_uow import FakeUnitOfWork

DEALER, SUPERVISOR, OTHER_SUPERVISOR = Capacity.DEALER, Capacity.SUPERVISOR, Capacity.SUPERVISOR
# 10:00 in Sydney on gaming day 2030-03-04 (the day starts at 06:00).
START = datetime(2030, 3, 3, 23, 0, tzinfo=UTC)
DAY = date(2030, 3, 4)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def tick(self, minutes: float = 1) -> None:
        self.now += timedelta(minutes=minutes)


@pytest.fixture
def books():
    clock = Clock()
    uow = FakeUnitOfWork(now=clock)
    for table_id in ("T1", "T2"):
        handlers.create_table(CreateTable(table_id, "canberra", "canberra-standard", actor="admin"), uow)
    policy = AccountingPolicy(shifts=2, variance_threshold=500, clock=clock)
    return uow, policy, clock


def _kinds(uow, table_id="T1"):
    """The kinds of the table's records after its creation."""
    return [kind for kind in uow.audit.kinds(f"table:{table_id}") if kind != "table_created"]


def _tray(uow, policy, kind, chips, *, by="staff:sue", capacity=SUPERVISOR, table="T1", **extra):
    return count_tray(CountTray(table, kind, chips, by, capacity, **extra), uow, policy)


def _signed_tray(uow, policy, clock, kind, chips, table="T1"):
    slip = _tray(uow, policy, kind, chips, table=table)
    clock.tick()
    return sign_slip(SignSlip(slip["serial"], "staff:dan", DEALER, table_id=table), uow)


def _fill(uow, policy, clock, kind, chips, table="T1"):
    """A fill or credit through every step: requested, issued, received by dealer and supervisor."""
    slip = request_chips(RequestChips(table, kind, chips, "staff:sue"), uow, policy)
    clock.tick()
    issue_chips(IssueChips(slip["serial"], "staff:cat"), uow)
    clock.tick()
    sign_slip(SignSlip(slip["serial"], "staff:dan", DEALER, table_id=table), uow)
    return sign_slip(SignSlip(slip["serial"], "staff:sue", SUPERVISOR), uow)


def test_a_tray_count_is_signed_by_the_dealer_and_a_supervisor_and_chained(books):
    uow, policy, _ = books
    slip = _tray(uow, policy, "opener", {"2500": 40, "10000": 10})
    assert (slip["serial"], slip["total"], slip["status"], slip["awaiting"]) == ("T-000001", 200000,
                                                                                 "awaiting_signature", ["dealer"])
    assert slip["gaming_day"] == DAY
    with pytest.raises(Conflict):   # the supervisor's is there already
        sign_slip(SignSlip("T-000001", "staff:ann", OTHER_SUPERVISOR), uow)
    with pytest.raises(NotFound):   # a dealer signs only at their own table
        sign_slip(SignSlip("T-000001", "staff:dan", DEALER, table_id="T2"), uow)
    signed = sign_slip(SignSlip("T-000001", "staff:dan", DEALER, table_id="T1", screen="left"), uow)
    assert signed["status"] == "signed" and signed["awaiting"] == []
    assert _kinds(uow) == ["slip_written", "slip_signed", "slip_signed"]
    assert uow.audit.records["table:T1"][-1].payload["screen"] == "left"


def test_chips_are_counted_only_in_the_casinos_denominations(books):
    uow, policy, _ = books
    with pytest.raises(Invalid) as refused:
        _tray(uow, policy, "opener", {"300": 1, "2500": -1, "fifty": 2, "10000": True})
    assert set(refused.value.errors["chips"]) == {"300", "2500", "fifty", "10000"}
    with pytest.raises(Conflict) as stranger:   # a count that reads, of a chip the casino does not have
        _tray(uow, policy, "opener", {"300": 1, "2500": 4})
    assert set(stranger.value.errors["chips"]) == {"300"}
    with pytest.raises(Invalid) as empty:
        request_chips(RequestChips("T1", "fill", {"2500": 0}, "staff:sue"), uow, policy)
    assert empty.value.errors == {"chips": ["count at least one chip"]}


def test_the_trays_counts_follow_the_day(books):
    uow, policy, clock = books
    with pytest.raises(Conflict, match="no opener"):
        _tray(uow, policy, "closer", {"2500": 1})
    _signed_tray(uow, policy, clock, "opener", {"2500": 40})
    with pytest.raises(Conflict, match="opener already"):
        _tray(uow, policy, "opener", {"2500": 40})
    _signed_tray(uow, policy, clock, "shift_change", {"2500": 41})
    with pytest.raises(Conflict, match="shift changes"):   # two shifts: one change
        _tray(uow, policy, "shift_change", {"2500": 42})
    _signed_tray(uow, policy, clock, "closer", {"2500": 43})
    with pytest.raises(Conflict, match="closed"):
        _tray(uow, policy, "shift_change", {"2500": 42})
    with pytest.raises(Conflict):
        _tray(uow, policy, "opener", {"2500": 1}, table="T2", gaming_day=DAY - timedelta(days=2))


def test_a_fill_is_requested_issued_and_received_by_two_people(books):
    uow, policy, clock = books
    fill = request_chips(RequestChips("T1", "fill", {"10000": 20}, "staff:sue"), uow, policy)
    assert (fill["serial"], fill["status"], fill["awaiting"]) == ("F-000001", "requested", ["cage"])
    assert [slip["serial"] for slip in waiting_for(uow, Capacity.CAGE, policy)] == ["F-000001"]
    with pytest.raises(Conflict, match="not issued"):
        sign_slip(SignSlip("F-000001", "staff:dan", DEALER), uow)
    issued = issue_chips(IssueChips("F-000001", "staff:cat"), uow)
    assert (issued["status"], issued["awaiting"]) == ("issued", ["dealer", "supervisor"])
    with pytest.raises(Conflict):
        issue_chips(IssueChips("F-000001", "staff:cat"), uow)
    sign_slip(SignSlip("F-000001", "staff:dan", DEALER), uow)
    with pytest.raises(Forbidden):   # the dealer's signature and the supervisor's are two people's
        sign_slip(SignSlip("F-000001", "staff:dan", SUPERVISOR), uow)
    received = sign_slip(SignSlip("F-000001", "staff:sue", SUPERVISOR), uow)
    assert received["status"] == "received"
    assert [(s["act"], s["capacity"], s["actor"]) for s in received["signatures"]] == [
        ("requested", "supervisor", "staff:sue"), ("issued", "cage", "staff:cat"),
        ("received", "dealer", "staff:dan"), ("received", "supervisor", "staff:sue")]
    credit = request_chips(RequestChips("T1", "credit", {"50000": 2}, "staff:sue"), uow, policy)
    assert credit["serial"] == "C-000001" and credit["total"] == 100000


def test_a_mistaken_slip_is_voided_by_two_people_and_issued_again(books):
    uow, policy, _ = books
    fill = request_chips(RequestChips("T1", "fill", {"10000": 2}, "staff:sue"), uow, policy)
    with pytest.raises(Invalid):
        void_slip(VoidSlip(fill["serial"], "  ", "staff:sue", SUPERVISOR), uow)
    asked = void_slip(VoidSlip(fill["serial"], "wrong table", "staff:sue", SUPERVISOR), uow)
    assert asked["status"] == "requested" and asked["void_asked"] == "wrong table"
    with pytest.raises(Conflict, match="not voided"):
        request_chips(RequestChips("T1", "fill", {"10000": 2}, "staff:sue", replaces=fill["serial"]), uow, policy)
    with pytest.raises(Forbidden):
        void_slip(VoidSlip(fill["serial"], "again", "staff:sue", SUPERVISOR), uow)
    voided = void_slip(VoidSlip(fill["serial"], "confirmed: T2's fill", "staff:cat", Capacity.CAGE), uow)
    assert voided["status"] == "voided" and voided["void_reason"] == "confirmed: T2's fill"
    with pytest.raises(Conflict, match="voided"):
        issue_chips(IssueChips(fill["serial"], "staff:cat"), uow)
    with pytest.raises(Conflict):   # issued again as the same kind
        request_chips(RequestChips("T1", "credit", {"10000": 2}, "staff:sue", replaces=fill["serial"]), uow, policy)
    again = request_chips(RequestChips("T1", "fill", {"10000": 3}, "staff:sue", replaces=fill["serial"]), uow, policy)
    assert again["replaces"] == fill["serial"] and again["serial"] == "F-000002"
    with pytest.raises(Conflict, match="again already"):
        request_chips(RequestChips("T1", "fill", {"10000": 3}, "staff:sue", replaces=fill["serial"]), uow, policy)
    assert "slip_voided" not in _kinds(uow)
    assert [r.payload.get("act") for r in uow.audit.records["table:T1"] if r.kind == "slip_signed"][1:3] == [
        "void_asked", "voided"]


def test_a_buy_in_is_recorded_per_seat_in_cash_or_by_marker(books):
    uow, policy, _ = books
    bought = record_buy_in(RecordBuyIn("T1", 3, 50000, "marker", "staff:dan", screen="left"), uow, policy)
    assert (bought["seat"], bought["amount"], bought["method"], bought["gaming_day"]) == (3, 50000, "marker", DAY)
    with pytest.raises(Invalid) as refused:
        record_buy_in(RecordBuyIn("T1", 0, 0, "cheque", "staff:dan"), uow, policy)
    assert set(refused.value.errors) == {"seat", "amount", "method"}
    with pytest.raises(Conflict) as beyond:   # the table's rules give it seven seats
        record_buy_in(RecordBuyIn("T1", 12, 500, "cash", "staff:dan"), uow, policy)
    assert beyond.value.errors == {"seat": ["a seat of this table: 1 to 7"]}
    assert _kinds(uow) == ["buy_in_recorded"]


def test_a_count_is_final_only_when_two_counters_agree(books):
    uow, policy, clock = books
    first = enter_count(EnterCount("T1", DAY, 120000, 50000, "staff:kim"), uow, policy)
    assert (first["outcome"], first["status"], first["cash"]) == ("entered", "awaiting_second_count", None)
    again = enter_count(EnterCount("T1", DAY, 125000, 50000, "staff:kim"), uow, policy)   # a recount of one's own
    assert again["outcome"] == "entered"
    other = enter_count(EnterCount("T1", DAY, 120000, 50000, "staff:lee"), uow, policy)
    assert other["outcome"] == "disagreed" and other["status"] == "awaiting_second_count"
    final = enter_count(EnterCount("T1", DAY, 120000, 50000, "staff:kim"), uow, policy)
    assert (final["outcome"], final["status"], final["drop"]) == ("agreed", "final", 170000)
    assert (final["entered_by"], final["verified_by"]) == ("staff:lee", "staff:kim")
    with pytest.raises(Conflict):
        enter_count(EnterCount("T1", DAY, 1, 0, "staff:max"), uow, policy)
    assert _kinds(uow)[-2:] == ["drop_counted", "drop_count_final"]
    boxes = {box["table_id"]: box for box in counts_of_day(uow, DAY, policy)}
    assert boxes["T1"]["status"] == "final" and boxes["T2"]["status"] == "not_counted"
    with pytest.raises(Conflict):
        enter_count(EnterCount("T2", DAY + timedelta(days=1), 1, 0, "staff:kim"), uow, policy)


def _round(uow, table_id, at, handle, paid_out, status="settled"):
    uow.accounting.round_rows.append(RoundMoneyRow(table_id, uuid.uuid4(), status, at, handle, paid_out))


def test_the_statement_follows_from_the_slips_counts_and_rounds_and_flags_a_variance(books):
    uow, policy, clock = books
    _signed_tray(uow, policy, clock, "opener", {"2500": 40, "10000": 10})            # 200,000
    clock.tick(30)
    record_buy_in(RecordBuyIn("T1", 1, 30000, "cash", "staff:dan"), uow, policy)
    _round(uow, "T1", clock(), 10000, 0)                                               # the house wins 100
    clock.tick(30)
    _fill(uow, policy, clock, "fill", {"10000": 5})                                    # 50,000 in
    clock.tick(60)
    _signed_tray(uow, policy, clock, "shift_change", {"2500": 40, "10000": 13})     # 230,000
    clock.tick(30)
    _round(uow, "T1", clock(), 5000, 15000)                                            # the house loses 100
    _round(uow, "T1", clock(), 2500, 0, status="complete")
    _fill(uow, policy, clock, "credit", {"10000": 2})                                  # 20,000 out
    _signed_tray(uow, policy, clock, "closer", {"2500": 40, "10000": 10})            # 200,000
    enter_count(EnterCount("T1", DAY, 30000, 0, "staff:kim"), uow, policy)
    enter_count(EnterCount("T1", DAY, 30000, 0, "staff:lee"), uow, policy)
    statement = table_games_statement(uow, policy, DAY)
    t1, t2 = statement["tables"]
    # win = drop + credits - fills + (closer - opener) = 30,000 + 20,000 - 50,000 + 0 = 0
    assert (t1["opener"], t1["closer"], t1["fills"], t1["credits"], t1["drop"], t1["win"]) == (
        200000, 200000, 50000, 20000, 30000, 0)
    assert (t1["handle"], t1["game_win"], t1["buy_ins"], t1["variance"], t1["flagged"]) == (15000, 0, 30000, 0, False)
    assert (t1["hold_percent"], t1["rounds"], t1["unsettled_rounds"]) == (0.0, 2, 1)
    first, second = t1["shifts"]
    # shift 1: credits - fills + closer - opener = 0 - 50,000 + 30,000 = -20,000; + buy-ins 30,000 = game win 10,000
    assert (first["tray_result"], first["buy_ins"], first["game_win"], first["variance"]) == (-20000, 30000, 10000, 0)
    # shift 2: 20,000 - 0 + (200,000 - 230,000) = -10,000 = the game win
    assert (second["tray_result"], second["game_win"], second["variance"]) == (-10000, -10000, 0)
    assert t2["activity"] == "no activity" and t2["flagged"] is False and t2["win"] is None
    assert statement["floor"]["win"] == 0 and statement["floor"]["flagged_tables"] == 0

    # A box miscounted by $10 beyond the threshold of $5 shows as variance, and flags the table.
    enter_count(EnterCount("T2", DAY, 1000, 0, "staff:kim"), uow, policy)
    enter_count(EnterCount("T2", DAY, 1000, 0, "staff:lee"), uow, policy)
    t2 = table_games_statement(uow, policy, DAY)["tables"][1]
    assert t2["flagged"] and t2["win"] is None and any("opener" in reason for reason in t2["reasons"])


def test_an_issued_statement_is_kept_and_chained_per_table(books):
    uow, policy, clock = books
    _signed_tray(uow, policy, clock, "opener", {"2500": 40})
    issued = issue_statement(IssueStatement(DAY, "staff:cora"), uow, policy)
    assert issued["issued"]["issued_by"] == "staff:cora"
    record = uow.audit.records["table:T1"][-1]
    assert record.kind == "table_statement_issued" and record.payload["opener"] == 100000
    assert record.payload["gaming_day"] == DAY.isoformat() and record.payload["win"] is None
    assert _kinds(uow, "T2") == []   # no activity, nothing to state
    assert uow.audit.kinds("system") == ["floor_statement_issued"]
    assert table_games_statement(uow, policy, DAY)["issued"]["statement_id"] == issued["issued"]["statement_id"]


def test_the_chips_float_and_shifts_come_from_the_settings_and_bad_ones_stop_the_start():
    from service.config import Settings

    policy = AccountingPolicy.from_settings(Settings.from_env({
        "PONTOON_CHIP_DENOMINATIONS": "2.50, 5,25,100", "PONTOON_TABLE_FLOAT": "5:20,2.50:40",
        "PONTOON_SHIFTS_PER_GAMING_DAY": "2", "PONTOON_VARIANCE_THRESHOLD": "0"}))
    assert policy.denominations == (250, 500, 2500, 10000)
    assert policy.float_chips == {250: 40, 500: 20} and policy.float_total == 20000
    assert (policy.shifts, policy.variance_threshold) == (2, 0)
    default = AccountingPolicy.from_settings(Settings())
    assert default.denominations == (100, 500, 2500, 10000, 50000, 100000)
    for variable, value in (("PONTOON_CHIP_DENOMINATIONS", "5,five"), ("PONTOON_TABLE_FLOAT", "3:10"),
                            ("PONTOON_SHIFTS_PER_GAMING_DAY", "0"), ("PONTOON_VARIANCE_THRESHOLD", "-1")):
        with pytest.raises(ValueError, match=variable):
            AccountingPolicy.from_settings(Settings.from_env({variable: value}))


def test_the_statement_as_csv_has_each_tables_day_its_shifts_and_the_floor(books):
    import csv
    import io

    from service.reports.table_games import csv_lines

    uow, policy, clock = books
    _signed_tray(uow, policy, clock, "opener", {"2500": 4})
    clock.tick(10)
    _signed_tray(uow, policy, clock, "shift_change", {"2500": 4})
    rows = list(csv.DictReader(io.StringIO("".join(csv_lines(table_games_statement(uow, policy, DAY))))))
    assert [(row["table_id"], row["shift"]) for row in rows] == [("T1", "day"), ("T1", "1"), ("T1", "2"),
                                                                ("T2", "day"), ("FLOOR", "day")]
    assert rows[0]["opener"] == "10000" and rows[0]["closer"] == "" and rows[0]["flagged"] == "yes"
    assert "no closer" in rows[0]["reasons"]


def _persons_key(uow, username: str, role: str) -> str:
    """A key of `role` belonging to a new account `username`: its id, the actor its requests are."""
    person = uow.staff.add(username=username, display_name=username.title(), role=role, password_hash="x",
                           created_by="staff:root")
    key, _ = uow.keys.create(role=role, table_id=None, name=None, created_by="staff:root", owner_id=person.user_id)
    return str(key.key_id)


def test_one_person_never_confirms_their_own_void_with_a_key_of_theirs(books):
    uow, policy, _ = books
    sues_key = _persons_key(uow, "sue", "supervisor")
    fill = request_chips(RequestChips("T1", "fill", {"10000": 2}, "staff:sue"), uow, policy)
    void_slip(VoidSlip(fill["serial"], "wrong table", "staff:sue", SUPERVISOR), uow)
    with pytest.raises(Forbidden) as refused:
        void_slip(VoidSlip(fill["serial"], "agreed", sues_key, SUPERVISOR), uow)
    assert refused.value.code == "same_person"


def test_two_counts_by_one_persons_console_and_key_are_one_count(books):
    uow, policy, _ = books
    kims_key = _persons_key(uow, "kim", "count")
    enter_count(EnterCount("T1", DAY, 120000, 50000, "staff:kim"), uow, policy)
    again = enter_count(EnterCount("T1", DAY, 120000, 50000, kims_key), uow, policy)
    assert again["outcome"] == "entered" and again["status"] == "awaiting_second_count"
