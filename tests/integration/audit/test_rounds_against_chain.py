"""`pontoon audit verify` rebuilds rounds from the chain: edits the application's role could make are named."""
from __future__ import annotations

import json
import random

import pytest

from bench.casino import RULES_REF, SeededSource
from service.audit.verify import verify_database, verify_export
from service.engine.shoe import VirtualShoe
from service.settlement.settle import settle_rounds
from service.store.audit_hash import GENESIS, record_hash
from service.store.repositories.audit import AuditRecord, AuditRepository, chain_for

pytestmark = pytest.mark.integration


def problems(admin) -> list[str]:
    return [str(problem) for problem in verify_database(admin).problems]


def record_of(admin, round_id: str, kind: str, index: int = 0) -> tuple[int, str, int, dict]:
    """(id, chain, seq, payload) of a round's `index`-th record of `kind`, in chain order."""
    return admin.execute("SELECT id, chain, seq, payload FROM audit_log WHERE round_id = %s AND kind = %s "
                         "ORDER BY seq OFFSET %s LIMIT 1", (round_id, kind, index)).fetchone()


def test_the_settled_casino_verifies_round_by_round(settled_casino, admin):
    report = verify_database(admin)
    assert report.intact, [str(p) for p in report.problems]
    assert report.rounds == 60


def test_a_card_changed_in_round_events_is_named_with_its_chained_record(settled_casino, admin, app_conn):
    round_id = settled_casino[4].round_id
    record_id, chain, seq, payload = record_of(admin, round_id, "card_dealt", 1)
    card = "6H" if payload["card"] != "6H" else "6D"
    with app_conn.transaction():   # the application's role may update round_events
        app_conn.execute("UPDATE round_events SET payload = jsonb_set(payload, '{card}', %s) "
                         "WHERE round_id = %s AND seq = 2", (json.dumps(card), round_id))
    found = problems(admin)
    assert found == [f"round {round_id} event 2: round_events holds card {{\"card\":\"{card}\"}}, but its chained "
                     f"card_dealt record (chain {chain} seq {seq} id {record_id}) says "
                     f"{json.dumps(payload, separators=(',', ':'), sort_keys=True)}"], found


def test_a_decision_removed_from_round_events_is_named(settled_casino, admin, app_conn):
    round_id, last = admin.execute("SELECT round_id::text, max(seq) FROM round_events WHERE kind = 'action' "
                                   "GROUP BY round_id ORDER BY round_id LIMIT 1").fetchone()
    with app_conn.transaction():
        app_conn.execute("DELETE FROM round_events WHERE round_id = %s AND seq >= %s", (round_id, last))
    found = problems(admin)
    assert found and all(f"round {round_id}" in problem for problem in found), found
    assert "missing from round_events" in found[0] or "no chained record holds" in found[0], found


def test_a_changed_wager_is_named(settled_casino, admin, app_conn):
    round_id = settled_casino[9].round_id
    with app_conn.transaction():
        app_conn.execute("UPDATE rounds SET wagers = jsonb_set(wagers, '{0,wager}', '99900') WHERE round_id = %s",
                         (round_id,))
    found = problems(admin)
    assert len(found) == 1 and found[0].startswith(f"round {round_id}: its stored wagers"), found


def test_a_payout_record_appended_for_no_ledger_row_is_named(settled_casino, admin, app_conn):
    round_ = settled_casino[2]
    seat = 9   # the casino seats 1 to 7
    with app_conn.transaction():   # the service's own append, as the application's role may use it
        AuditRepository(app_conn).append(chain_for(round_.table_id), [AuditRecord("payout", {
            "seat": seat, "staked": 0, "returned": 500000, "net": 500000, "bets": []},
            "settlement", round_.table_id, round_.round_id)])
    record_id, chain, seq, _ = record_of(admin, round_.round_id, "payout", len(round_.transcript["seats"]))
    found = problems(admin)
    assert found == [f"chain {chain} seq {seq} id {record_id}: round {round_.round_id}: its payout record for seat "
                     f"{seat} (staked, returned) (0, 500000) has no ledger row"], found


def test_a_second_payout_record_for_a_seat_is_named(settled_casino, admin, app_conn):
    round_ = settled_casino[3]
    _, _, _, payload = record_of(admin, round_.round_id, "payout")
    with app_conn.transaction():
        AuditRepository(app_conn).append(chain_for(round_.table_id), [
            AuditRecord("payout", payload, "settlement", round_.table_id, round_.round_id)])
    found = problems(admin)
    assert len(found) == 1 and f"a second payout record for seat {payload['seat']}" in found[0], found


def test_payout_records_for_a_round_that_does_not_exist_or_is_not_settled_are_named(admin, app_conn, casino):
    open_round = casino.play(1, ["T1"])[0]
    casino.write(admin)
    ghost = "00000000-0000-4000-8000-000000000001"
    with app_conn.transaction():
        AuditRepository(app_conn).append(chain_for("T1"), [
            AuditRecord("payout", {"seat": 1, "staked": 0, "returned": 100}, "settlement", "T1", ghost),
            AuditRecord("payout", {"seat": 1, "staked": 0, "returned": 100}, "settlement", "T1", open_round.round_id),
        ])
    found = problems(admin)
    assert len(found) == 2, found
    assert any(f"a payout record for round {open_round.round_id}, which is complete" in p for p in found), found
    assert any(f"a payout record for round {ghost}, which does not exist" in p for p in found), found


def test_a_ledger_row_without_its_payout_record_is_named(settled_casino, admin, app_conn):
    round_ = settled_casino[6]
    with app_conn.transaction():   # the application's role may append to the ledger
        app_conn.execute("INSERT INTO ledger_entries (round_id, table_id, rules_ref, paytable_ref, seat, hand, kind, "
                         "stake, returned, outcome) VALUES (%s, %s, 'canberra@1', 'canberra-standard@1', 9, 0, 'main',"
                         " 0, 100000, 'win')", (round_.round_id, round_.table_id))
    found = problems(admin)
    assert f"round {round_.round_id}: the ledger holds rows for seat 9 (staked, returned) (0, 100000) but no " \
           "payout record names it" in found, found
    assert f"round {round_.round_id}: seat 9 main hand 0: the ledger holds (stake, returned, outcome) " \
           "(0, 100000, 'win'), the replay of its chained records gives no row" in found, found


def test_a_payout_record_whose_figures_differ_from_the_ledger_is_named(admin, app_conn, casino):
    # A ledger row changed before the round's payout record was written (settlement run twice
    # would refuse): here the ledger is written first by hand, as an attacker could.
    round_ = casino.play(1, ["T1"])[0]
    casino.write(admin)
    settle_rounds(app_conn, [round_.round_id])
    admin.execute("ALTER TABLE ledger_entries DROP CONSTRAINT IF EXISTS ledger_entries_amounts_not_negative")
    admin.execute("UPDATE ledger_entries SET returned = returned + 7 WHERE round_id = %s AND kind = 'main' "
                  "AND seat = (SELECT min(seat) FROM ledger_entries WHERE round_id = %s)",
                  (round_.round_id, round_.round_id))
    record_id, chain, seq, payload = record_of(admin, round_.round_id, "payout")
    found = problems(admin)
    assert any(p.startswith(f"chain {chain} seq {seq} id {record_id}: round {round_.round_id}: its payout record "
                            f"for seat {payload['seat']} says") for p in found), found


def forged_shoe_records(dealt_wrong: bool) -> tuple[str, list[AuditRecord]]:
    """A shoe started, one round of the house-banked game dealt from it, the shoe closed: with
    `dealt_wrong`, its third card is not the shoe's."""
    from service.rules import load_rules
    shoe = VirtualShoe(load_rules("canberra").shoe, SeededSource(random.Random(3)), salt="ab" * 16)
    shoe_id, round_id = "00000000-0000-4000-8000-00000000000a", "00000000-0000-4000-8000-00000000000b"
    cards = [shoe.deal() for _ in range(4)]
    if dealt_wrong:
        cards[2] = next(card for card in ("AS", "KH", "2C") if card != cards[2])
    order, salt = shoe.reveal()
    return shoe_id, [
        AuditRecord("shoe_started", {"shoe_id": shoe_id, "mode": "virtual", "commitment": shoe.commitment},
                    "terminal", "F1"),
        AuditRecord("round_opened", {"shoe_id": shoe_id, "rules": RULES_REF, "paytable": "canberra-standard@1"},
                    "terminal", "F1", round_id),
        *[AuditRecord("card_dealt", {"card": card, "to": "seat", "shoe_id": shoe_id}, "terminal", "F1", round_id)
          for card in cards],
        AuditRecord("shoe_closed", {"shoe_id": shoe_id, "mode": "virtual", "commitment": shoe.commitment,
                                    "card_order": order, "salt": salt, "position": 4}, "terminal", "F1"),
    ]


def test_a_card_dealt_that_is_not_the_shoes_next_is_named(admin, app_conn):
    shoe_id, records = forged_shoe_records(dealt_wrong=True)
    with app_conn.transaction():
        AuditRepository(app_conn).append(chain_for("F1"), records)
    record_id, seq = admin.execute("SELECT id, seq FROM audit_log WHERE kind = 'card_dealt' ORDER BY seq "
                                   "OFFSET 2 LIMIT 1").fetchone()
    found = [str(p) for p in verify_database(admin, rounds=False).problems]
    assert len(found) == 1 and found[0].startswith(f"chain table:F1 seq {seq} id {record_id}: shoe {shoe_id}: "
                                                   "card 3 dealt was"), found


def chained_lines(records: list[AuditRecord]) -> list[str]:
    """An export of `records` as one chain, hashed as the writer hashes."""
    lines, prev = [], GENESIS
    for seq, record in enumerate(records, 1):
        at = f"2026-01-01T00:00:{seq:02d}.000000+00:00"
        digest = record_hash("table:F1", seq, at, record.kind, record.actor, record.table_id, record.round_id,
                             record.payload, prev)
        lines.append(json.dumps({"id": seq, "chain": "table:F1", "seq": seq, "at": at, "kind": record.kind,
                                 "actor": record.actor, "table_id": record.table_id, "round_id": record.round_id,
                                 "payload": record.payload, "prev_hash": prev, "hash": digest}))
        prev = digest
    return lines


def test_an_export_checks_the_shoes_dealt_order_offline():
    _, good = forged_shoe_records(dealt_wrong=False)
    assert verify_export(chained_lines(good)).intact
    shoe_id, bad = forged_shoe_records(dealt_wrong=True)
    report = verify_export(chained_lines(bad))
    assert [str(p) for p in report.problems][0].startswith(f"chain table:F1 seq 5 id 5: shoe {shoe_id}: card 3"), \
        report.problems
    _, short = forged_shoe_records(dealt_wrong=False)
    del short[5]   # the last card left out of the chain: the shoe says it dealt four
    report = verify_export(chained_lines(short))
    assert "closed at position 4, but its rounds' records deal 3 cards" in str(report.problems), report.problems


def export_lines_of(admin) -> list[str]:
    from service.audit.export import export_lines
    with admin.transaction():
        return list(export_lines(AuditRepository(admin)))


def test_an_export_replays_its_settled_rounds_offline_against_their_payouts(settled_casino, admin):
    report = verify_export(export_lines_of(admin))
    assert report.intact, report.problems
    assert report.rounds == 60


def test_a_payout_record_the_replay_does_not_give_is_named_offline(settled_casino, admin, app_conn):
    round_ = settled_casino[2]
    with app_conn.transaction():
        AuditRepository(app_conn).append(chain_for(round_.table_id), [AuditRecord("payout", {
            "seat": 9, "staked": 0, "returned": 500000, "net": 500000, "bets": []},
            "settlement", round_.table_id, round_.round_id)])
    record_id, chain, seq, _ = admin.execute("SELECT id, chain, seq, payload FROM audit_log WHERE kind = 'payout' "
                                             "ORDER BY id DESC LIMIT 1").fetchone()
    found = [str(p) for p in verify_export(export_lines_of(admin)).problems]
    assert len(found) == 1 and found[0].startswith(f"chain {chain} seq {seq} id {record_id}: round {round_.round_id}: "
                                                   "its payout record"), found
    assert "the replay of its chained records gives no such record" in found[0], found
