"""The table report: per table and gaming day, handle / paid out / game win / game win % of handle and
bonus counts that add up to the ledger's, a "no activity" row for idle tables, voids apart, JSON and
CSV alike."""
from __future__ import annotations

import csv
import io
from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from zoneinfo import ZoneInfo

import pytest

from service.reports.gaming_day import gaming_day_of, parse_day_start, period
from tests.support.api_client import ok
from tests.support.scripted_rounds import SIMPLE_PUSH, SPLIT_AND_DOUBLE, SPLIT_AND_DOUBLE_WAGERS, play_script

SYDNEY = ZoneInfo("Australia/Sydney")
ONE_SEAT = [{"seat": 1, "wager": 1000}]
SIX_SEVEN_EIGHT = ["6H", "9C", "7D", {"seat": 1, "hand": 0, "action": "hit"}, "8S", "KD"]
SUPER_BONUS_WAGERS = [{"seat": 1, "wager": 1000}, {"seat": 2, "wager": 1000}]
SUPER_BONUS = ["7H", "9C", "7C", "7H", "8C", {"seat": 1, "hand": 0, "action": "hit"}, "7H",
               {"seat": 2, "hand": 0, "action": "stand"}, "KD"]


def ledger_totals(db, starts_at: str, ends_at: str) -> dict:
    """The ledger's own sums over the house-banked rounds opened in the window: what the report's
    totals must equal (a player-banked table's ledger rows are money between its players)."""
    handle, paid, voids, rounds = db.execute(
        "SELECT coalesce(sum(l.stake) FILTER (WHERE l.kind <> 'void_refund'), 0),"
        "       coalesce(sum(l.returned) FILTER (WHERE l.kind <> 'void_refund'), 0),"
        "       coalesce(sum(l.returned) FILTER (WHERE l.kind = 'void_refund'), 0),"
        "       count(DISTINCT l.round_id) FILTER (WHERE l.kind <> 'void_refund')"
        " FROM ledger_entries l JOIN rounds r ON r.round_id = l.round_id JOIN tables t ON t.table_id = r.table_id"
        " WHERE r.opened_at >= %s AND r.opened_at < %s AND t.game = 'canberra'", (starts_at, ends_at)).fetchone()
    return {"handle": handle, "paid_out": paid, "void_refunds": voids, "rounds": rounds}


@pytest.fixture
def floor(new_table, settle, supervisor):
    """Three tables today: one played (bonus, super bonus, a split and double, one round left
    unsettled), one idle, one whose only round was voided."""
    played, terminal = new_table(prefix="R")
    rounds = [play_script(terminal, played, ONE_SEAT, SIMPLE_PUSH),
              play_script(terminal, played, ONE_SEAT, SIX_SEVEN_EIGHT),
              play_script(terminal, played, SUPER_BONUS_WAGERS, SUPER_BONUS),
              play_script(terminal, played, SPLIT_AND_DOUBLE_WAGERS, SPLIT_AND_DOUBLE)]
    settle([state["round_id"] for state in rounds])
    play_script(terminal, played, ONE_SEAT, SIMPLE_PUSH)      # complete, not settled yet
    idle, _ = new_table(prefix="R")
    voided, void_terminal = new_table(prefix="R")
    in_play = play_script(void_terminal, voided, [{"seat": 1, "wager": 3000, "pair_bet": 500}], SIMPLE_PUSH,
                          stop_after=3)
    ok(supervisor.post(f"/v1/rounds/{in_play['round_id']}/void", {"reason": "card on the floor"}), 200)
    return {"played": played, "idle": idle, "voided": voided}


def test_a_daily_report_adds_up_to_the_ledger(floor, operator, db):
    report = ok(operator.get("/v1/reports/tables"), 200)
    assert report["period"] == "day" and report["gaming_day"] == report["first_gaming_day"]
    assert report["timezone"] == "Australia/Sydney" and report["gaming_day_starts"] == "06:00"
    rows = {row["table_id"]: row for row in report["rows"]}

    played = rows[floor["played"]]
    assert played["activity"] == "active" and played["rounds"] == 4 and played["unsettled_rounds"] == 1
    assert played["bonuses"] == 1 and played["super_bonuses"] == 1
    assert played["handle"] == 1000 + 1000 + 2000 + 5500
    assert played["paid_out"] == 1000 + 2500 + (1000 + 100000 + 1000 + 5000) + 16000
    assert played["game_win"] == played["handle"] - played["paid_out"]
    exact = (Decimal(played["game_win"]) * 100 / Decimal(played["handle"])).quantize(Decimal("0.01"), ROUND_HALF_UP)
    assert played["game_win_percent"] == float(exact)

    idle = rows[floor["idle"]]
    assert idle["activity"] == "no activity" and idle["handle"] == idle["paid_out"] == idle["rounds"] == 0
    assert idle["game_win_percent"] is None

    voided = rows[floor["voided"]]
    assert voided["voided_rounds"] == 1 and voided["void_refunds"] == 3500
    assert voided["handle"] == voided["paid_out"] == voided["game_win"] == 0 and voided["activity"] == "active"

    ledger = ledger_totals(db, report["starts_at"], report["ends_at"])
    totals = report["totals"]
    assert {key: totals[key] for key in ledger} == ledger
    assert totals["handle"] == sum(row["handle"] for row in report["rows"] if row["game"] == "canberra")
    assert totals["game_win"] == ledger["handle"] - ledger["paid_out"]


def test_the_csv_report_says_the_same(floor, compliance):
    report = ok(compliance.get("/v1/reports/tables"), 200)
    reply = compliance.get("/v1/reports/tables?format=csv")
    assert reply.status == 200 and reply.headers["Content-Type"].startswith("text/csv")
    lines = list(csv.DictReader(io.StringIO(reply.data.decode())))
    by_table = {line["table_id"]: line for line in lines}
    for row in report["rows"]:
        if row["game"] != "canberra":   # a player-banked table has no house figures to compare
            continue
        line = by_table[row["table_id"]]
        assert line["gaming_day"] == report["gaming_day"] and line["activity"] == row["activity"]
        assert [int(line[key]) for key in ("rounds", "handle", "paid_out", "game_win", "super_bonuses")] == \
            [row[key] for key in ("rounds", "handle", "paid_out", "game_win", "super_bonuses")]
        assert line["game_win_percent"] == ("" if row["game_win_percent"] is None else str(row["game_win_percent"]))
    assert int(by_table["TOTAL"]["handle"]) == report["totals"]["handle"] and lines[-1]["table_id"] == "TOTAL"


def test_month_and_year_to_date_include_the_day(floor, supervisor, db):
    day = ok(supervisor.get(f"/v1/reports/tables?table={floor['played']}"), 200)
    for kind in ("month_to_date", "year_to_date"):
        report = ok(supervisor.get(f"/v1/reports/tables?period={kind}&table={floor['played']}"), 200)
        assert report["first_gaming_day"] < report["gaming_day"] or report["first_gaming_day"].endswith("-01")
        assert report["totals"]["handle"] == day["totals"]["handle"], "every round here was played today"
        ledger = ledger_totals(db, report["starts_at"], report["ends_at"])
        assert report["totals"]["handle"] <= ledger["handle"]
    by_day = ok(supervisor.get(f"/v1/reports/tables?period=month_to_date&by=day&table={floor['played']}"), 200)
    days = [row["gaming_day"] for row in by_day["rows"]]
    first, last = date.fromisoformat(by_day["first_gaming_day"]), date.fromisoformat(by_day["gaming_day"])
    assert days == [(first + timedelta(days=n)).isoformat() for n in range((last - first).days + 1)]
    assert [row for row in by_day["rows"] if row["gaming_day"] == day["gaming_day"]][0]["handle"] == \
        day["totals"]["handle"]
    assert all(row["activity"] == "no activity" for row in by_day["rows"] if row["gaming_day"] != day["gaming_day"])


def test_a_round_belongs_to_the_gaming_day_it_opened_in(new_table, settle, compliance, db):
    table_id, terminal = new_table(prefix="R")
    before_six, at_six = (play_script(terminal, table_id, ONE_SEAT, SIMPLE_PUSH)["round_id"] for _ in range(2))
    settle([before_six, at_six])
    # Sunday 7 April 2024: daylight saving ends in Sydney at 03:00, so the day before is 25 hours.
    moved = {before_six: datetime(2024, 4, 7, 5, 59, 59, tzinfo=SYDNEY),
             at_six: datetime(2024, 4, 7, 6, 0, tzinfo=SYDNEY)}
    for round_id, opened_at in moved.items():
        db.execute("UPDATE rounds SET opened_at = %s WHERE round_id = %s", (opened_at, round_id))
    db.execute("UPDATE tables SET created_at = '2024-01-01T00:00:00Z' WHERE table_id = %s", (table_id,))
    saturday = ok(compliance.get(f"/v1/reports/tables?date=2024-04-06&table={table_id}"), 200)
    sunday = ok(compliance.get(f"/v1/reports/tables?date=2024-04-07&table={table_id}"), 200)
    assert saturday["rows"][0]["rounds"] == 1 and sunday["rows"][0]["rounds"] == 1
    assert saturday["starts_at"] == "2024-04-06T06:00:00+11:00" and saturday["ends_at"] == "2024-04-07T06:00:00+10:00"
    april = ok(compliance.get(f"/v1/reports/tables?date=2024-04-30&period=month_to_date&by=day&table={table_id}"), 200)
    assert [row["gaming_day"] for row in april["rows"] if row["rounds"]] == ["2024-04-06", "2024-04-07"]


def test_gaming_day_arithmetic():
    six = parse_day_start("06:00")
    assert gaming_day_of(datetime(2024, 4, 7, 5, 59, tzinfo=SYDNEY), six, SYDNEY) == date(2024, 4, 6)
    # 20:00 UTC is 06:00 in Sydney once daylight saving has ended (UTC+10): the new day begins.
    assert gaming_day_of(datetime(2024, 4, 6, 19, 59, tzinfo=ZoneInfo("UTC")), six, SYDNEY) == date(2024, 4, 6)
    assert gaming_day_of(datetime(2024, 4, 6, 20, 0, tzinfo=ZoneInfo("UTC")), six, SYDNEY) == date(2024, 4, 7)
    ytd = period("year_to_date", date(2024, 4, 7), six, SYDNEY)
    assert ytd.first_day == date(2024, 1, 1) and ytd.ends_at == datetime(2024, 4, 8, 6, tzinfo=SYDNEY)
    with pytest.raises(ValueError):
        period("week", date(2024, 4, 7), six, SYDNEY)


@pytest.mark.parametrize("query", ["period=week", "format=pdf", "date=yesterday", "by=hour", "table=a%20b", "x=1"])
def test_bad_report_queries_are_422(operator, query):
    assert operator.get(f"/v1/reports/tables?{query}").status == 422, query


def test_an_unknown_table_is_404(operator):
    assert operator.get("/v1/reports/tables?table=NO-SUCH").status == 404
