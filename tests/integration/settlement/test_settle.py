"""Settling batches in-process: ledger rows per bet, payout records, idempotence, refusals, concurrency."""
from __future__ import annotations

import json
import pickle
import threading
from collections import Counter

import pytest

from service.settlement.connection import connect
from service.settlement.settle import settle_rounds
from service.settlement.sweep import sweep_stale_rounds
from service.store.repositories.ledger import NO_HAND, LedgerConflict
from service.store.repositories.settlement import SettlementRepository
from tests.support.metrics import sample

pytestmark = pytest.mark.integration

SUPER_BONUS = {  # seat 1: 7H 7H then 7H against a 7 upcard; seat 2 stands on 17; dealer 7+K
    "rules": "canberra@1", "paytable": "canberra-standard@1",
    "seats": [{"seat": 1, "wager": 1000}, {"seat": 2, "wager": 3000}],
    "cards": ["7H", "9C", "7D", "7H", "8C", "7H", "KS"],
    "actions": [{"seat": 1, "hand": 0, "action": "hit"}, {"seat": 2, "hand": 0, "action": "stand"}],
}


def ledger(admin, round_ids=None) -> set[tuple]:
    rows = admin.execute("SELECT round_id::text, seat, hand, kind, stake, returned, outcome, table_id, shoe_id::text, "
                         "rules_ref, paytable_ref FROM ledger_entries").fetchall()
    return {row for row in rows if round_ids is None or row[0] in round_ids}


def expected_ledger(rounds) -> set[tuple]:
    return {(r.round_id, b.seat, NO_HAND if b.hand is None else b.hand, b.kind, b.stake, b.returned, b.outcome,
             r.table_id, r.shoe_id, "canberra@1", "canberra-standard@1") for r in rounds for b in r.bets}


def audit_counts(admin) -> Counter:
    return Counter(kind for (kind,) in admin.execute("SELECT kind FROM audit_log"))


def test_a_batch_settles_every_bet_into_the_ledger(admin, app_conn, casino):
    rounds = casino.play(60, ["T1", "T2"])
    casino.write(admin)
    outcome = settle_rounds(app_conn, [r.round_id for r in rounds])
    assert sorted(outcome.settled) == sorted(r.round_id for r in rounds)
    assert ledger(admin) == expected_ledger(rounds)
    kinds = {row[3] for row in ledger(admin)}
    assert {"main", "double", "pair"} <= kinds
    # Per seat, the ledger's sums are the money the transcript's replay reports.
    sums = {(round_id, seat): (staked, returned) for round_id, seat, staked, returned in admin.execute(
        "SELECT round_id::text, seat, sum(stake), sum(returned) FROM ledger_entries GROUP BY 1, 2")}
    assert sums == {(r.round_id, s["seat"]): (s["staked"], s["returned"]) for r in rounds for s in r.result["seats"]}
    statuses = admin.execute("SELECT status, count(*), count(settled_at) FROM rounds GROUP BY status").fetchall()
    assert statuses == [("settled", 60, 60)]
    # One payout record per seat dealt in, on the table's chain.
    seats = sum(len(r.transcript["seats"]) for r in rounds)
    assert audit_counts(admin)["payout"] == seats
    chains = {c for (c,) in admin.execute("SELECT DISTINCT chain FROM audit_log WHERE kind = 'payout'")}
    assert chains == {"table:T1", "table:T2"}


def test_each_round_settled_is_timed_from_its_completion_and_nothing_waits_after(admin, app_conn, casino):
    def timed() -> float:
        return sample("pontoon_settlement_lag_seconds_count")

    rounds = casino.play(5, ["T1"])
    casino.write(admin)
    waiting = SettlementRepository(admin).backlog()
    assert waiting.rounds_awaiting == 5 and waiting.oldest_awaiting_seconds > 0
    before = timed()
    settle_rounds(app_conn, [r.round_id for r in rounds])
    assert timed() == before + 5
    backlog = SettlementRepository(admin).backlog()
    assert (backlog.rounds_awaiting, backlog.oldest_awaiting_seconds) == (0, 0.0)


def test_the_result_is_kept_and_readable_once_settled(admin, app_conn, casino):
    [round_] = casino.play(1, ["T1"])
    casino.write(admin)
    admin.execute("UPDATE rounds SET result = NULL WHERE round_id = %s", (round_.round_id,))
    settle_rounds(app_conn, [round_.round_id])
    (result,) = admin.execute("SELECT result FROM rounds WHERE round_id = %s", (round_.round_id,)).fetchone()
    assert result == json.loads(json.dumps(round_.result))
    assert [s["seat"] for s in result["seats"]] == [s["seat"] for s in round_.transcript["seats"]]


def test_settling_again_changes_nothing(admin, app_conn, casino):
    rounds = casino.play(30, ["T1"])
    casino.write(admin)
    ids = [r.round_id for r in rounds]
    settle_rounds(app_conn, ids)
    before = (ledger(admin), audit_counts(admin),
              admin.execute("SELECT round_id, settled_at, version FROM rounds ORDER BY round_id").fetchall())
    again = settle_rounds(app_conn, ids + ids)
    assert again.settled == [] and sorted(again.not_settleable) == sorted(ids)
    after = (ledger(admin), audit_counts(admin),
             admin.execute("SELECT round_id, settled_at, version FROM rounds ORDER BY round_id").fetchall())
    assert after == before


def test_concurrent_settlers_leave_the_ledger_as_one_would(admin, db_url, casino):
    rounds = casino.play(200, ["T1", "T2", "T3"])
    casino.write(admin)
    ids = [r.round_id for r in rounds]
    errors = []

    def settle(order):
        try:
            with connect(db_url) as conn:
                for start in range(0, len(order), 25):
                    settle_rounds(conn, order[start:start + 25])
        except Exception as exc:  # reported to the test below
            errors.append(exc)

    threads = [threading.Thread(target=settle, args=(list(order),)) for order in (ids, ids[::-1], ids[50:] + ids[:50])]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    # Every round was either settled by a thread or skipped while another held it; the sweep
    # picks up any left over (none, normally), then the ledger is exactly one settlement's.
    with connect(db_url) as conn:
        sweep_stale_rounds(conn, older_than_seconds=0)
    assert ledger(admin) == expected_ledger(rounds)
    assert audit_counts(admin)["payout"] == sum(len(r.transcript["seats"]) for r in rounds)


def test_super_bonus_and_envy_lines_and_audit(admin, app_conn, casino):
    stored = casino.play_transcript("T9", SUPER_BONUS)
    casino.write(admin)
    settle_rounds(app_conn, [stored.round_id])
    rows = {(seat, hand, kind): (stake, returned) for _, seat, hand, kind, stake, returned, *_ in ledger(admin)}
    assert rows[(1, 0, "main")] == (1000, 1000)
    assert rows[(1, 0, "super_bonus")] == (0, 100000)
    assert rows[(2, NO_HAND, "envy")] == (0, 5000)
    (payload,) = admin.execute("SELECT payload FROM audit_log WHERE kind = 'super_bonus_won'").fetchone()
    assert payload == {"seat": 1, "hand": 0, "prize": 100000}


def test_a_round_that_does_not_replay_is_refused_and_the_rest_settle(admin, app_conn, casino):
    good, bad = casino.play(2, ["T1"])
    casino.write(admin)
    # A decision out of order: the transcript no longer plays.
    admin.execute("DELETE FROM round_events WHERE round_id = %s AND kind = 'action'", (bad.round_id,))
    outcome = settle_rounds(app_conn, [good.round_id, bad.round_id])
    assert outcome.settled == [good.round_id]
    assert [r.round_id for r in outcome.refused] == [bad.round_id]
    assert "transcript" in outcome.refused[0].reason.lower() or "decision" in outcome.refused[0].reason.lower()
    status = dict(admin.execute("SELECT round_id::text, status FROM rounds").fetchall())
    assert status == {good.round_id: "settled", bad.round_id: "complete"}
    assert ledger(admin, {bad.round_id}) == set()


def test_a_stored_result_that_disagrees_with_the_replay_is_refused(admin, app_conn, casino):
    [round_] = casino.play(1, ["T1"])
    casino.write(admin)
    admin.execute("UPDATE rounds SET result = jsonb_set(result, '{seats,0,returned}', '999999') "
                  "WHERE round_id = %s", (round_.round_id,))
    outcome = settle_rounds(app_conn, [round_.round_id])
    assert outcome.settled == [] and "disagrees" in outcome.refused[0].reason


def forge_ledger_row(admin, round_) -> tuple:
    """A ledger row for the round's first bet with other figures than its replay gives."""
    bet = round_.bets[0]
    row = (round_.round_id, bet.seat, NO_HAND if bet.hand is None else bet.hand, bet.kind, bet.stake,
           bet.returned + 1, "forged")
    admin.execute("INSERT INTO ledger_entries (round_id, table_id, rules_ref, seat, hand, kind, stake, returned, "
                  "outcome) VALUES (%s, 'T1', 'canberra@1', %s, %s, %s, %s, %s, %s)", row)
    return row


def test_ledger_rows_already_there_must_agree(admin, app_conn, casino):
    [round_] = casino.play(1, ["T1"])
    casino.write(admin)
    forged = forge_ledger_row(admin, round_)
    outcome = settle_rounds(app_conn, [round_.round_id])
    assert outcome.settled == []
    [refused] = outcome.refused
    bet = round_.bets[0]
    where = f"seat {bet.seat}" + ("" if bet.hand is None else f" hand {bet.hand}") + f" {bet.kind}"
    assert refused.round_id == round_.round_id
    assert refused.reason == f"LedgerConflict: the ledger already holds other figures for {where}"
    assert admin.execute("SELECT status FROM rounds").fetchone() == ("complete",)
    assert audit_counts(admin)["payout"] == 0
    assert {row[:7] for row in ledger(admin)} == {forged}   # nothing of the replay was written beside it


def test_a_round_whose_ledger_rows_disagree_does_not_hold_back_its_batch(admin, app_conn, casino):
    rounds = casino.play(4, ["T1"])
    casino.write(admin)
    bad = rounds[1]
    forged = forge_ledger_row(admin, bad)
    good = [r for r in rounds if r is not bad]
    outcome = settle_rounds(app_conn, [r.round_id for r in rounds])
    assert sorted(outcome.settled) == sorted(r.round_id for r in good)
    assert [r.round_id for r in outcome.refused] == [bad.round_id]
    assert "LedgerConflict" in outcome.refused[0].reason
    assert ledger(admin, {r.round_id for r in good}) == expected_ledger(good)
    assert {row[:7] for row in ledger(admin, {bad.round_id})} == {forged}
    status = dict(admin.execute("SELECT round_id::text, status FROM rounds").fetchall())
    assert status == {**{r.round_id: "settled" for r in good}, bad.round_id: "complete"}
    # The sweep, like any retry, settles nothing more and refuses the same round again.
    again = sweep_stale_rounds(app_conn, older_than_seconds=0)
    assert again.settled == [] and [r.round_id for r in again.refused] == [bad.round_id]


def test_a_ledger_conflict_names_its_rounds_across_processes():
    conflict = LedgerConflict({"r1": "the ledger already holds other figures for seat 1 hand 0 main"})
    again = pickle.loads(pickle.dumps(conflict))
    assert again.rounds == conflict.rounds and str(again) == str(conflict)


def test_the_sweep_settles_only_rounds_older_than_its_age(admin, app_conn, casino):
    old = casino.play(5, ["T1"])
    casino.write(admin, completed_seconds_ago=120)
    new = casino.play(5, ["T1"])
    casino.write(admin)
    outcome = sweep_stale_rounds(app_conn, older_than_seconds=60)
    assert sorted(outcome.settled) == sorted(r.round_id for r in old)
    left = {r for (r,) in admin.execute("SELECT round_id::text FROM rounds WHERE status = 'complete'")}
    assert left == {r.round_id for r in new}


def test_batches_on_one_connection_reuse_the_stage_without_rewriting_the_catalog(admin, app_conn, casino):
    rounds = casino.play(6, ["T1"])
    casino.write(admin)
    settle_rounds(app_conn, [r.round_id for r in rounds[:3]])
    stage = ("SELECT pg_relation_filenode('ledger_stage'), "
             "(SELECT xmin::text FROM pg_class WHERE oid = 'ledger_stage'::regclass)")
    before = app_conn.execute(stage).fetchone()
    app_conn.commit()
    settle_rounds(app_conn, [r.round_id for r in rounds[3:]])
    # Emptied in place: a TRUNCATE would give the session's temp table a new file and a new
    # pg_class row version on every batch, invalidations every other connection must process.
    assert app_conn.execute(stage).fetchone() == before
    app_conn.commit()
    assert ledger(admin) == expected_ledger(rounds)
