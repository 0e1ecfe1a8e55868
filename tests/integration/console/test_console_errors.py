"""What a person in a browser gets when the console cannot serve a request: its own HTML page for an
unknown address or a request a page does not take (the REST API keeps its JSON bodies), and a
refusal for their role recorded in the audit log under their name."""
from __future__ import annotations

import json


def test_an_unknown_console_address_gets_the_consoles_page_not_json(signed_in, browser):
    for console in (signed_in("operator"), browser()):
        missing = console.get("/console/no-such-page")
        assert missing.status_code == 404
        assert missing.mimetype == "text/html"
        html = missing.get_data(as_text=True)
        assert "Page not found" in html and "/console/no-such-page" in html
        assert "Content-Security-Policy" in missing.headers


def test_a_request_a_console_page_does_not_take_gets_the_consoles_page_with_allow(signed_in):
    console = signed_in("compliance")
    refused = console.post("/console/floor", {})
    assert refused.status_code == 405
    assert refused.mimetype == "text/html" and "Not done here" in refused.get_data(as_text=True)
    assert set(refused.headers["Allow"].replace(" ", "").split(",")) >= {"GET", "HEAD"}
    assert "POST" not in refused.headers["Allow"]


def test_the_rest_api_keeps_its_json_errors(client, make_key):
    headers = {"Authorization": f"Bearer {make_key('admin')}"}
    missing = client.get("/v1/no-such-resource", headers=headers)
    assert missing.status_code == 404 and missing.mimetype == "application/json"
    assert json.loads(missing.get_data())["code"] == "not_found"
    refused = client.delete("/v1/tables", headers=headers)
    assert refused.status_code == 405 and refused.mimetype == "application/json"
    assert "POST" in refused.headers["Allow"]


def test_a_page_refused_for_a_role_is_recorded_with_who_and_what(signed_in, db):
    console = signed_in("operator")
    assert console.get("/console/audit?kind=decision").status_code == 403
    records = db.execute("SELECT actor, payload FROM audit_log WHERE kind = 'access_denied' AND actor = %s",
                         (f"staff:{console.login.username}",)).fetchall()
    assert len(records) == 1
    actor, payload = records[0]
    assert actor == f"staff:{console.login.username}"
    assert payload["status"] == 403 and payload["role"] == "operator" and payload["method"] == "GET"
    assert payload["path"] == "/console/audit"
    assert payload["allowed"] == ["compliance"]
    assert console.login.password not in json.dumps(payload)


def test_a_page_the_role_may_see_records_no_refusal(signed_in, db):
    console = signed_in("compliance")
    assert console.get("/console/audit").status_code == 200
    assert db.execute("SELECT count(*) FROM audit_log WHERE kind = 'access_denied' "
                      "AND actor = %s", (f"staff:{console.login.username}",)).fetchone() == (0,)
