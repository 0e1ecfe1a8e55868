"""The screens' SQL itself (the in-memory fakes stand in for it in tests/unit/screens): a session is
a dealer's only on its own live screen and while the account is an active dealer's, a table has one
open call at a time, who dealt a round is read from its records, and the service's login keeps every
row (it may not delete one)."""
from __future__ import annotations

import uuid
from datetime import timedelta

import psycopg
import pytest

from service.store.repositories.audit import AuditRecord, AuditRepository
from service.store.repositories.screens import DealtBy, ScreensRepository
from service.store.session import app_conninfo

HOUR = timedelta(hours=1)


@pytest.fixture
def screens(db):
    return ScreensRepository(db)


def test_a_session_is_a_dealers_only_on_its_own_live_screen(screens, db, table, make_dealer, make_staff):
    dealer = make_dealer()
    user_id = db.execute("SELECT user_id FROM staff_users WHERE username = %s", (dealer.username,)).fetchone()[0]
    left = screens.add_screen(name="Left", table_id=table, token_hash="left-hash", enrolled_by="staff:x")
    right = screens.add_screen(name="Right", table_id=table, token_hash="right-hash", enrolled_by="staff:x")
    assert screens.add_screen(name="Left", table_id=table, token_hash="other-hash", enrolled_by="staff:x") is None
    screens.open_session(user_id=user_id, screen_id=left.screen_id, token_hash="session-hash", address=None)

    visit = screens.visit("left-hash", "session-hash", idle=HOUR, absolute=HOUR)
    assert visit.screen.name == "Left" and visit.dealer.username == dealer.username
    assert screens.visit("right-hash", "session-hash", idle=HOUR, absolute=HOUR).dealer is None
    assert screens.visit("left-hash", "session-hash", idle=timedelta(0), absolute=HOUR).dealer is None
    assert screens.visit("nobody's", "session-hash", idle=HOUR, absolute=HOUR) is None

    # A console account's session written onto a screen by hand deals nowhere.
    supervisor = make_staff("supervisor")
    staff_id = db.execute("SELECT user_id FROM staff_users WHERE username = %s", (supervisor.username,)).fetchone()[0]
    screens.open_session(user_id=staff_id, screen_id=right.screen_id, token_hash="staff-hash", address=None)
    assert screens.visit("right-hash", "staff-hash", idle=HOUR, absolute=HOUR).dealer is None

    screens.revoke(left.screen_id, by="staff:x", reason="gone")
    assert screens.visit("left-hash", "session-hash", idle=HOUR, absolute=HOUR) is None
    assert [s.screen.name for s in screens.on_table(table, idle=HOUR, absolute=HOUR)] == ["Right", "Left"]


def test_a_table_has_one_open_call_at_a_time(screens, table):
    screen = screens.add_screen(name="Left", table_id=table, token_hash=uuid.uuid4().hex, enrolled_by="staff:x")
    first = screens.add_call(table_id=table, screen_id=screen.screen_id, round_id=None, called_by="staff:d",
                             reason=None)
    assert first is not None and first.screen_name == "Left"
    assert screens.add_call(table_id=table, screen_id=screen.screen_id, round_id=None, called_by="staff:d",
                            reason="again") is None
    screens.close_call(first.call_id, by="staff:s", outcome="dismissed", reason="fine")
    assert screens.add_call(table_id=table, screen_id=screen.screen_id, round_id=None, called_by="staff:d",
                            reason=None) is not None


def test_who_dealt_a_round_is_read_from_its_records_in_the_order_each_first_dealt(screens, db):
    round_id = uuid.uuid4()
    records = [AuditRecord("round_opened", {"screen": "Left"}, "staff:dana", None, str(round_id)),
               AuditRecord("wager", {"seat": 1}, "staff:dana", None, str(round_id)),
               AuditRecord("card_dealt", {"screen": "Left"}, "staff:dana", None, str(round_id)),
               AuditRecord("decision", {"screen": "Left"}, "staff:eric", None, str(round_id)),
               AuditRecord("card_dealt", {"screen": "Left"}, "staff:dana", None, str(round_id)),
               AuditRecord("supervisor_called", {"screen": "Right"}, "staff:fay", None, str(round_id))]
    AuditRepository(db).append(f"test:{round_id}", records)
    assert screens.dealt_by([round_id]) == {round_id: [DealtBy("staff:dana", "Left"), DealtBy("staff:eric", "Left")]}
    assert screens.dealt_by([]) == {}


def test_the_service_keeps_every_screen_session_code_and_call(database_url):
    with psycopg.connect(app_conninfo(database_url), autocommit=True) as app_conn:
        for table in ("dealer_screens", "screen_enrolment_codes", "dealer_sessions", "supervisor_calls"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                app_conn.execute(f"DELETE FROM {table}")
            app_conn.execute(f"SELECT count(*) FROM {table}")
