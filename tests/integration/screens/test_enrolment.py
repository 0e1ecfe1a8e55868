"""Enrolling a screen, end to end in-process: a supervisor issues the code on the table's screens
page, the screen redeems it (typed, or by the link) for an HttpOnly device cookie; a code works
once and for ten minutes; the console lists the screen and revokes it (a reason, then a
confirmation), after which its next click goes back to enrolment."""
from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

from tests.support.dealer_screen import SCREEN_COOKIE, ScreenClient

CODE = re.compile(r'id="issued-code">([A-Z0-9-]+)<')
LINK = re.compile(r'id="issued-link"><code>([^<]+)</code>')


def issue(console, table, name="Left") -> tuple[str, str]:
    page = console.post(f"/console/tables/{table}/screens", {"name": name})
    assert page.status_code == 201, page.get_data(as_text=True)
    html = page.get_data(as_text=True)
    return CODE.search(html).group(1), unescape(LINK.search(html).group(1))


def test_a_supervisor_enrols_a_screen_by_its_link_and_the_screen_keeps_an_httponly_cookie(app, signed_in, table,
                                                                                            db):
    console = signed_in("supervisor")
    code, link = issue(console, table, "Left of the pit")
    assert link.endswith(f"/dealer/enrol?code={code}")
    screen = ScreenClient(app.test_client())
    form = screen.get(link.split("localhost", 1)[1])
    assert form.status_code == 200 and f'value="{code}"' in form.get_data(as_text=True)
    assert db.execute("SELECT count(*) FROM dealer_screens WHERE table_id = %s", (table,)).fetchone() == (0,)

    enrolled = screen.enrol(code)
    assert enrolled.status_code == 303 and enrolled.headers["Location"].startswith("/dealer/sign-in")
    cookie = next(value for value in enrolled.headers.getlist("Set-Cookie") if value.startswith(SCREEN_COOKIE))
    assert "HttpOnly" in cookie and "Path=/dealer" in cookie and "SameSite=Strict" in cookie
    assert "Max-Age=" in cookie
    token = screen.cookie(SCREEN_COOKIE)
    assert token and db.execute("SELECT count(*) FROM dealer_screens WHERE token_hash = %s OR token_hash = %s",
                                (token, code)).fetchone() == (0,)      # only a keyed hash is stored
    sign_in = screen.get("/dealer/sign-in")
    assert sign_in.status_code == 200 and "Left of the pit" in sign_in.get_data(as_text=True)

    listed = console.get(f"/console/tables/{table}/screens").get_data(as_text=True)
    assert "Left of the pit" in listed and console.login.username in listed and "status-live" in listed
    kinds = [row[0] for row in db.execute("SELECT kind FROM audit_log WHERE chain = %s ORDER BY seq",
                                          (f"table:{table}",))]
    assert kinds[-2:] == ["screen_code_issued", "screen_enrolled"]


def test_a_code_is_good_once(app, signed_in, table, db):
    code, _ = issue(signed_in("admin"), table)
    first, second = ScreenClient(app.test_client()), ScreenClient(app.test_client())
    assert first.enrol(code.lower()).status_code == 303
    refused = second.enrol(code)
    assert refused.status_code == 409 and "used already" in refused.get_data(as_text=True)
    assert second.cookie(SCREEN_COOKIE) is None
    assert db.execute("SELECT payload->>'reason' FROM audit_log WHERE chain = %s AND kind = "
                      "'screen_enrolment_refused'", (f"table:{table}",)).fetchall() == [("code_used",)]


def test_a_code_expires_after_ten_minutes(app, signed_in, table, clock_moved):
    code, _ = issue(signed_in("supervisor"), table)
    clock_moved(timedelta(minutes=10, seconds=1))
    screen = ScreenClient(app.test_client())
    refused = screen.enrol(code)
    assert refused.status_code == 409 and "expired" in refused.get_data(as_text=True)
    assert screen.cookie(SCREEN_COOKIE) is None


def test_an_unknown_code_is_refused_at_the_field(app):
    screen = ScreenClient(app.test_client())
    refused = screen.enrol("ABCDE-FGHJK")
    assert refused.status_code == 422 and 'id="code-error"' in refused.get_data(as_text=True)
    empty = screen.enrol("")
    assert empty.status_code == 422 and "Type the code" in empty.get_data(as_text=True)


def test_a_browser_that_is_no_screen_is_sent_to_enrolment(app):
    screen = ScreenClient(app.test_client())
    assert screen.get("/dealer/sign-in").headers["Location"] == "/dealer/enrol"
    assert screen.get("/dealer/call-supervisor").headers["Location"] == "/dealer/enrol"
    htmx = screen.get("/dealer/call-supervisor", headers={"HX-Request": "true"})
    assert htmx.status_code == 200 and htmx.headers["HX-Redirect"] == "/dealer/enrol"


def test_a_revoked_screen_is_refused_at_its_next_click(app, signed_in, dealer_at, table, db):
    screen, dealer = dealer_at(table, "Left")
    assert screen.get("/dealer/call-supervisor").status_code == 200
    console = signed_in("supervisor")
    screen_id = db.execute("SELECT screen_id FROM dealer_screens WHERE table_id = %s", (table,)).fetchone()[0]
    path = f"/console/tables/{table}/screens/{screen_id}/revoke"
    asked = console.get(path)
    assert asked.status_code == 200 and dealer.username in asked.get_data(as_text=True)
    no_reason = console.post(path, {"reason": ""})
    assert no_reason.status_code == 422 and 'id="revoke-reason-error"' in no_reason.get_data(as_text=True)
    confirm = console.post(path, {"reason": "screen replaced"})
    assert confirm.status_code == 200 and "Revoke screen now" in confirm.get_data(as_text=True)
    assert screen.get("/dealer/call-supervisor").status_code == 200      # not until it is confirmed

    done = console.post(path, {"reason": "screen replaced", "confirmed": "yes"})
    assert done.status_code == 303
    assert screen.get("/dealer/call-supervisor").headers["Location"] == "/dealer/enrol"
    assert screen.get("/dealer/sign-in").headers["Location"] == "/dealer/enrol"
    listed = console.get(f"/console/tables/{table}/screens").get_data(as_text=True)
    assert "status-revoked" in listed and "screen replaced" in listed
    records = db.execute("SELECT kind, actor, payload->>'reason' FROM audit_log WHERE chain = %s ORDER BY seq",
                         (f"table:{table}",)).fetchall()
    assert records[-2:] == [("dealer_signed_out", f"staff:{console.login.username}",
                             "screen_revoked"),
                            ("screen_revoked", f"staff:{console.login.username}", "screen replaced")]


def test_a_screen_is_marked_seen_at_each_request(dealer_at, table, db):
    screen, _ = dealer_at(table)
    db.execute("UPDATE dealer_screens SET last_seen_at = now() - interval '1 hour' WHERE table_id = %s", (table,))
    screen.get("/dealer/call-supervisor", headers={"HX-Request": "true"})
    assert db.execute("SELECT last_seen_at > now() - interval '1 minute' FROM dealer_screens WHERE table_id = %s",
                      (table,)).fetchone() == (True,)
