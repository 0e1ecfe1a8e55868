"""`pontoon audit verify`: intact trails pass; any hand edit, cut, forged shoe or ledger row is named."""
from __future__ import annotations

import io
import json
import random

import pytest
from psycopg.rows import class_row

from service.audit.export import COLUMNS, record_from_row
from service.audit.verify import print_report, verify_database
from service.store.audit_hash import record_hash
from service.store.repositories.audit import AuditLogRow

pytestmark = pytest.mark.integration


def tamper(admin, statement: str, *params) -> None:
    """Edit the audit log as the superuser would have to: trigger off, edit, trigger on."""
    admin.execute("ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only")
    admin.execute(statement, params)
    admin.execute("ALTER TABLE audit_log ENABLE TRIGGER audit_log_append_only")


def a_record(admin, seed: int, kind: str | None = None) -> tuple[int, str, int]:
    """(id, chain, seq) of a record picked at random (of `kind`), never a chain's last."""
    rows = admin.execute("SELECT a.id, a.chain, a.seq FROM audit_log a JOIN audit_chain_heads h USING (chain) "
                         "WHERE a.seq < h.seq AND (%s::text IS NULL OR a.kind = %s) ORDER BY a.id",
                         (kind, kind)).fetchall()
    return random.Random(seed).choice(rows)


def named(out: str, chain: str, seq: int, record_id: int) -> bool:
    return f"chain {chain} seq {seq} id {record_id}:" in out


def test_an_intact_trail_verifies(settled_casino, admin, pontoon):
    done = pontoon("audit", "verify")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "intact" in done.stdout
    shoes = admin.execute("SELECT count(*) FROM shoes WHERE closed_at IS NOT NULL").fetchone()[0]
    assert shoes >= 4
    assert f" {shoes} shoe commitments re-opened, 60 settled rounds replayed" in done.stdout


EDITS = {
    "payload": "UPDATE audit_log SET payload = jsonb_set(payload, '{tampered}', 'true') WHERE id = %s",
    "kind": "UPDATE audit_log SET kind = kind || '_x' WHERE id = %s",
    "at": "UPDATE audit_log SET at = at + interval '1 second' WHERE id = %s",
    "actor": "UPDATE audit_log SET actor = 'somebody' WHERE id = %s",
    "table_id": "UPDATE audit_log SET table_id = 'T0' WHERE id = %s",
    "round_id": "UPDATE audit_log SET round_id = gen_random_uuid() WHERE id = %s",
    "prev_hash": "UPDATE audit_log SET prev_hash = md5(prev_hash) || md5(hash) WHERE id = %s",
    "hash": "UPDATE audit_log SET hash = md5(hash) || md5(prev_hash) WHERE id = %s",
}


def test_a_hand_edit_makes_the_command_fail_naming_the_record(settled_casino, admin, pontoon):
    record_id, chain, seq = a_record(admin, 0, kind="card_dealt")
    tamper(admin, "UPDATE audit_log SET payload = '{\"card\": \"AS\"}' WHERE id = %s", record_id)
    done = pontoon("audit", "verify")
    assert done.returncode == 1
    assert named(done.stdout, chain, seq, record_id), done.stdout


@pytest.mark.parametrize("column", sorted(EDITS))
def test_editing_any_column_of_any_record_is_named(settled_casino, admin, column):
    record_id, chain, seq = a_record(admin, sorted(EDITS).index(column))
    tamper(admin, EDITS[column], record_id)
    out = io.StringIO()
    assert print_report(verify_database(admin, rounds=False), out) == 1
    assert named(out.getvalue(), chain, seq, record_id), out.getvalue()


def test_a_payout_changed_and_re_hashed_is_caught_at_the_next_link(settled_casino, admin, pontoon):
    record_id, chain, seq = a_record(admin, 3, kind="payout")
    with admin.cursor(row_factory=class_row(AuditLogRow)) as cur:
        row = cur.execute(f"SELECT {', '.join(COLUMNS)} FROM audit_log WHERE id = %s", (record_id,)).fetchone()
    record = record_from_row(row)
    record["payload"]["returned"] += 100000
    forged = record_hash(record["chain"], record["seq"], record["at"], record["kind"], record["actor"],
                         record["table_id"], record["round_id"], record["payload"], record["prev_hash"])
    tamper(admin, "UPDATE audit_log SET payload = %s::jsonb, hash = %s WHERE id = %s",
           json.dumps(record["payload"]), forged, record_id)
    (next_id,) = admin.execute("SELECT id FROM audit_log WHERE chain = %s AND seq = %s", (chain, seq + 1)).fetchone()
    done = pontoon("audit", "verify", "--no-rounds")
    assert done.returncode == 1
    assert named(done.stdout, chain, seq + 1, next_id), done.stdout
    assert f"seq {seq} (id {record_id})" in done.stdout


def test_a_deleted_record_is_named_by_the_gap(settled_casino, admin, pontoon):
    record_id, chain, seq = a_record(admin, 4)
    tamper(admin, "DELETE FROM audit_log WHERE id = %s", record_id)
    (next_id,) = admin.execute("SELECT id FROM audit_log WHERE chain = %s AND seq = %s", (chain, seq + 1)).fetchone()
    done = pontoon("audit", "verify", "--no-rounds")
    assert done.returncode == 1
    assert named(done.stdout, chain, seq + 1, next_id) and "missing" in done.stdout, done.stdout


def test_records_cut_from_a_chain_end_are_caught_by_its_head(settled_casino, admin, pontoon):
    chain, last = admin.execute("SELECT chain, seq FROM audit_chain_heads ORDER BY chain LIMIT 1").fetchone()
    tamper(admin, "DELETE FROM audit_log WHERE chain = %s AND seq = %s", chain, last)
    done = pontoon("audit", "verify", "--no-rounds")
    assert done.returncode == 1
    assert f"chain {chain} seq {last - 1}" in done.stdout and "head" in done.stdout, done.stdout


def test_a_shoe_whose_revealed_order_was_changed_is_named(settled_casino, admin, pontoon):
    shoe_id, = admin.execute("SELECT shoe_id::text FROM shoes WHERE closed_at IS NOT NULL LIMIT 1").fetchone()
    admin.execute("UPDATE shoes SET card_order = jsonb_set(jsonb_set(card_order, '{0}', card_order->1), '{1}', "
                  "card_order->0) WHERE shoe_id = %s AND card_order->>0 <> card_order->>1", (shoe_id,))
    done = pontoon("audit", "verify", "--no-rounds")
    assert done.returncode == 1
    assert f"shoe {shoe_id}: the stored order and salt do not open" in done.stdout, done.stdout


def test_a_ledger_row_that_disagrees_with_the_replay_is_named(settled_casino, admin, pontoon):
    round_id, seat = admin.execute("SELECT round_id::text, seat FROM ledger_entries WHERE kind = 'main' "
                                   "ORDER BY id LIMIT 1 OFFSET 17").fetchone()
    admin.execute("UPDATE ledger_entries SET returned = returned + 500 WHERE round_id = %s AND seat = %s "
                  "AND kind = 'main'", (round_id, seat))
    done = pontoon("audit", "verify")
    assert done.returncode == 1
    assert f"round {round_id}: seat {seat} main hand 0: the ledger holds" in done.stdout, done.stdout


def test_money_moved_between_a_seats_bets_is_named_though_the_seats_total_is_unchanged(settled_casino, admin,
                                                                                      pontoon):
    round_id, seat, paid_kind, other_kind = admin.execute(
        "SELECT a.round_id::text, a.seat, a.kind, b.kind FROM ledger_entries a JOIN ledger_entries b "
        "ON a.round_id = b.round_id AND a.seat = b.seat AND a.kind <> b.kind WHERE a.returned > 0 "
        "ORDER BY a.id LIMIT 1").fetchone()
    admin.execute("UPDATE ledger_entries SET returned = returned + CASE kind WHEN %s THEN -1 ELSE 1 END "
                  "WHERE round_id = %s AND seat = %s AND kind IN (%s, %s)",
                  (paid_kind, round_id, seat, paid_kind, other_kind))
    done = pontoon("audit", "verify")
    assert done.returncode == 1
    assert f"round {round_id}: seat {seat} {paid_kind}" in done.stdout, done.stdout
    assert f"round {round_id}: seat {seat} {other_kind}" in done.stdout, done.stdout


def test_a_ledger_row_for_a_round_not_yet_settled_is_named(settled_casino, admin, pontoon):
    round_id = settled_casino[5].round_id
    admin.execute("UPDATE rounds SET status = 'complete' WHERE round_id = %s", (round_id,))
    done = pontoon("audit", "verify")
    assert done.returncode == 1
    assert f"round {round_id}: complete, yet the ledger holds" in done.stdout, done.stdout


def test_a_settled_round_whose_cards_were_changed_is_named_against_its_chained_record(settled_casino, admin,
                                                                                      pontoon):
    # The dealer's upcard turned into something else: the chained card_dealt record still holds
    # the card dealt, and the replay from the chain still matches the ledger.
    round_ = next(r for r in settled_casino if len(r.transcript["seats"]) == 1 and r.bets[0].returned > 0)
    upcard_seq = 2   # one seat: seat card, upcard, seat card
    admin.execute("UPDATE round_events SET payload = '{\"card\": \"KS\"}' WHERE round_id = %s AND seq = %s "
                  "AND payload->>'card' <> 'KS'", (round_.round_id, upcard_seq))
    record_id, chain, seq = admin.execute("SELECT id, chain, seq FROM audit_log WHERE round_id = %s "
                                          "AND kind = 'card_dealt' ORDER BY seq OFFSET 1 LIMIT 1",
                                          (round_.round_id,)).fetchone()
    done = pontoon("audit", "verify")
    assert done.returncode == 1
    assert (f"round {round_.round_id} event {upcard_seq}: round_events holds card" in done.stdout
            and f"(chain {chain} seq {seq} id {record_id})" in done.stdout), done.stdout
