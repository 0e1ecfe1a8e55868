"""/console/paytables: an operator drafts a version in YAML and sees each bad field at its line, the
draft's difference from the version in force and its house edge as a worker measures it; its author
cannot approve it, a second operator does once it is measured; other roles read only."""
from __future__ import annotations

import html
import re

import pytest

from tests.support.api_client import Api, flask_sender, ok

from .pit_play import api, new_table  # noqa: F401  (fixtures by name)

NAME = "canberra-standard"
DRAFT_PATH = f"/console/paytables/{NAME}/draft"
SEEDED = "canberra-21plus3"   # a paytable whose version 1 no other test here has measured


def prefilled(console) -> str:
    page = console.get(DRAFT_PATH)
    assert page.status_code == 200
    found = re.search(r'<textarea id="yaml" name="yaml"[^>]*>(.*?)</textarea>', page.get_data(as_text=True), re.S)
    assert found, "the draft page has its editor"
    text = html.unescape(found.group(1))
    assert text.startswith("\n"), "the newline a browser drops after the tag"
    return text[1:]


def edit(text: str, pattern: str, replacement: str) -> str:
    """The text with the one line `pattern` matches rewritten (the version in force may be written
    by hand or dumped from JSON: quotes and layout vary)."""
    edited, count = re.subn(pattern, replacement, text, count=1)
    assert count == 1, f"{pattern!r} is in the draft"
    return edited


ODDS = r"[\"']?\d+:\d+[\"']?"


def line_of(text: str, fragment: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), 1) if fragment in line)


def submit(console, text: str, reason: str = "promotion for the holidays"):
    return console.post(DRAFT_PATH, {"yaml": text, "reason": reason})


def submitted_version(response) -> int:
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    return int(response.headers["Location"].rstrip("/").rsplit("/", 1)[1])


def test_the_draft_is_prefilled_from_the_version_in_force_and_numbered_next(signed_in, db):
    text = prefilled(signed_in("operator"))
    latest = db.execute("SELECT max(version) FROM paytable_versions WHERE name = %s", (NAME,)).fetchone()[0]
    assert f"version: {latest + 1}" in text and "odds:" in text and "pontoon:" in text


def test_each_bad_field_is_shown_at_its_line(signed_in):
    console = signed_in("operator")
    text = edit(edit(prefilled(console), rf"pontoon: {ODDS}", 'pontoon: "3:x"'), r"prize: 100000", "prize: -5")
    refused = submit(console, text)
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    for field, fragment in (("odds.pontoon", "pontoon:"), ("super_bonus.prizes[0].prize", "prize: -5")):
        line = line_of(text, fragment)
        listed = re.search(rf'<li id="line-{line}" value="{line}" data-line="{line}" class="has-error">(.*?)</li>',
                           page, re.S)
        assert listed, f"line {line} is marked"
        assert f'data-field="{field}" data-line="{line}"' in listed.group(1), f"{field}'s message is at line {line}"
        assert f'<a href="#line-{line}"' in page, "the gutter beside the editor marks the line"
        note = re.search(rf'<li class="has-error" data-note-line="{line}"[^>]*>([^<]*)</li>', page)
        assert note and field in note.group(1), "and the message stands beside it, at the same line"
    assert "is not odds" in page and "must be a positive amount of cents" in page
    assert html.escape("3:x") in page, "the editor keeps what was written"


def test_a_yaml_syntax_error_is_shown_where_the_parser_stopped(signed_in):
    refused = submit(signed_in("operator"), "odds:\n  pontoon: 3:2\n  win: [1:1\nbonuses: {}\n")
    assert refused.status_code == 422
    assert re.search(r'data-field="yaml" data-line="[34]"', refused.get_data(as_text=True))


def test_a_draft_without_a_reason_is_refused_at_the_reason(signed_in):
    console = signed_in("operator")
    refused = submit(console, prefilled(console), reason="   ")
    assert refused.status_code == 422
    assert re.search(r'data-field="reason">Say why: the reason for the change is kept', refused.get_data(as_text=True))


def fragment(console, path: str) -> str:
    """What the version page's polling gets: the evaluation's fragment, to swap in."""
    shown = console.get(f"{path}/evaluation", headers={"HX-Request": "true"})
    assert shown.status_code == 200
    return shown.get_data(as_text=True)


def test_a_draft_shows_its_difference_and_its_house_edge_once_a_worker_measured_it(signed_in, evaluate):
    console = signed_in("operator")
    text = edit(prefilled(console), rf"678_mixed: {ODDS}", '678_mixed: "2:1"')
    number = submitted_version(submit(console, text))
    path = f"/console/paytables/{NAME}/{number}"
    page = console.get(path).get_data(as_text=True)
    assert 'data-status="draft"' in page
    assert re.search(r'data-diff="removed">- +678_mixed: (&#34;|&#39;)?[\d:]+', page), "the line as in force"
    assert re.search(r'data-diff="added">\+ +678_mixed: &#34;2:1&#34;', page), "the line as drafted"
    assert 'data-evaluation="queued"' in page and "Waiting for a worker" in page
    assert f'hx-get="{path}/evaluation" hx-trigger="every 2s"' in page, "the page asks after it while it waits"
    assert "data-house-edge>" not in page
    waiting = fragment(console, path)
    assert "<html" not in waiting and 'data-evaluation="queued"' in waiting and 'hx-trigger="every 2s"' in waiting

    assert evaluate(NAME, number) == "done"
    shown = fragment(console, path)
    assert 'data-evaluation="done"' in shown and "hx-trigger" not in shown, "done: it stops asking"
    edge = float(re.search(r"data-house-edge>(-?[\d.]+)%", shown).group(1))
    rtp = float(re.search(r"data-rtp>(-?[\d.]+)%", shown).group(1))
    assert edge + rtp == pytest.approx(100, abs=1e-3)
    assert "approval keeps these figures" in shown
    lines = re.findall(r'<tr data-line="([^"]+)">', shown)
    assert {"678_mixed", "5_card_21", "super_bonus"} <= set(lines), "each bonus line's part of the RTP"
    page_of_its_own = console.get(f"{path}/evaluation").get_data(as_text=True)
    assert "<html" in page_of_its_own and "data-house-edge>" in page_of_its_own
    assert edge < 0 and "data-player-edge" in shown, "a paytable that gives the player the edge says so"
    assert "data-house-edge>" in console.get(path).get_data(as_text=True), "and the page shows them at once"


def test_a_draft_raising_the_pair_bet_shows_the_side_bets_own_edge_beside_the_main_games(signed_in, evaluate):
    console = signed_in("operator")
    number = submitted_version(submit(console, edit(prefilled(console), rf"pair: {ODDS}", 'pair: "12:1"')))
    assert evaluate(NAME, number) == "done"
    shown = fragment(console, f"/console/paytables/{NAME}/{number}")
    # 15/191 of first two cards are a pair: at 12:1 the bet returns 13 * 15/191 = 195/191 a stake.
    pair = re.search(r'<tr data-side-bet="pair">(.*?)</tr>', shown, re.S)
    assert pair, shown
    assert "<code>-4/191</code>" in pair.group(1) and "player's edge 2.0942%" in pair.group(1)
    assert re.search(r'<tr data-side-bet="insurance">.*?<code>1199/4879</code>', shown, re.S)
    assert console.post(f"/console/paytables/{NAME}/1/evaluation", {}).status_code == 303
    assert evaluate(NAME, 1) == "done"
    in_force = fragment(console, f"/console/paytables/{NAME}/1")
    main_figure = re.compile(r"data-house-edge>(-?[\d.]+)%")
    assert main_figure.search(shown).group(1) == main_figure.search(in_force).group(1), "the main game's, unchanged"


def test_a_version_seeded_from_its_file_is_measured_when_an_operator_asks(signed_in, evaluate):
    # Version 1 comes from paytables/<name>.yaml and was never approved here, so no figures were
    # kept; an operator has a worker measure it, as a draft's submission does. (A paytable of its
    # own: another test here has the standard paytable's version 1 measured.)
    path = f"/console/paytables/{SEEDED}/1"
    reader = signed_in("supervisor")
    page = reader.get(path).get_data(as_text=True)
    assert 'data-evaluation="none"' in page and "seeded from its file" in page
    assert "Measure it" not in page, "only an operator asks"
    assert reader.post(f"{path}/evaluation", {}).status_code == 403
    operator = signed_in("operator")
    assert "Measure it" in operator.get(path).get_data(as_text=True)
    asked = operator.post(f"{path}/evaluation", {})
    assert asked.status_code == 303 and asked.headers["Location"].endswith(f"{path}#house-edge")
    assert 'data-evaluation="queued"' in reader.get(path).get_data(as_text=True)
    assert evaluate(SEEDED, 1) == "done"
    shown = fragment(reader, path)
    assert "data-house-edge>" in shown and "the exact analysis" in shown
    assert "seeded from its file" in shown and "approval keeps these figures" not in shown


def test_a_paytable_that_keeps_the_house_edge_raises_no_warning(signed_in, evaluate):
    console = signed_in("operator")
    text = edit(prefilled(console), rf"pontoon: {ODDS}", 'pontoon: "1:1"')
    number = submitted_version(submit(console, text, "Pontoon paid even money"))
    evaluate(NAME, number)
    shown = fragment(console, f"/console/paytables/{NAME}/{number}")
    assert float(re.search(r"data-house-edge>(-?[\d.]+)%", shown).group(1)) > 0
    assert "data-player-edge" not in shown


def test_the_author_cannot_approve_and_a_second_operator_does_once_it_is_measured(signed_in, db, evaluate):
    author = signed_in("operator")
    number = submitted_version(submit(author, edit(prefilled(author), rf"6_card_21: {ODDS}", '6_card_21: "5:2"')))
    version_path = f"/console/paytables/{NAME}/{number}"

    own = author.get(version_path).get_data(as_text=True)
    assert 'value="reject"' in own and 'value="approve"' not in own, "no approve button for the author"
    refused = author.post(f"{version_path}/decision", {"decision": "approve", "reason": "looks right to me",
                                                        "password": author.login.password})
    assert refused.status_code == 403
    assert "four eyes" in refused.get_data(as_text=True)
    assert db.execute("SELECT status FROM paytable_versions WHERE name = %s AND version = %s",
                      (NAME, number)).fetchone()[0] == "draft"
    kept = db.execute("SELECT actor FROM audit_log WHERE kind = 'paytable_approval_refused' "
                      "AND payload->>'version' = %s", (str(number),)).fetchall()
    assert kept == [(f"staff:{author.login.username}",)], "the refusal is recorded under the author's name"

    approver = signed_in("operator")
    before = approver.get(version_path).get_data(as_text=True)
    assert 'value="approve"' in before and "data-awaiting-evaluation" in before
    early = approver.post(f"{version_path}/decision", {"decision": "approve", "reason": "checked the sheet",
                                                         "password": approver.login.password})
    assert early.status_code == 409 and "still being measured" in early.get_data(as_text=True)
    assert evaluate(NAME, number) == "done"
    assert "data-awaiting-evaluation" not in approver.get(version_path).get_data(as_text=True)
    approved = approver.post(f"{version_path}/decision", {"decision": "approve", "reason": "checked the sheet",
                                                         "password": approver.login.password})
    assert approved.status_code == 303
    page = approver.get(version_path).get_data(as_text=True)
    assert 'data-status="approved"' in page and f'data-approver="staff:{approver.login.username}"' in page
    assert "data-house-edge>" in page, "the figures approval kept"
    listing = approver.get("/console/paytables").get_data(as_text=True)
    row = re.search(rf'<tr data-version="{number}" data-status="approved">(.*?)</tr>', listing, re.S)
    assert row, "the list shows the version approved"
    assert f"staff:{author.login.username}" in row.group(1) and f"staff:{approver.login.username}" in row.group(1)
    assert re.search(r"-\d+\.\d{4}%", row.group(1)), "with its house edge"
    assert "player's edge" in row.group(1), "a 6-card 21 at 5:2 leaves the player the edge, and the list says so"
    again = approver.post(f"{version_path}/decision", {"decision": "reject", "reason": "changed my mind"})
    assert again.status_code == 409, "a decided version is never changed"


def test_a_second_operator_rejects_with_a_reason(signed_in, db):
    author = signed_in("operator")
    number = submitted_version(submit(author, edit(prefilled(author), rf"777_mixed: {ODDS}", '777_mixed: "9:1"')))
    path = f"/console/paytables/{NAME}/{number}/decision"
    reviewer = signed_in("operator")
    no_reason = reviewer.post(path, {"decision": "reject", "reason": ""})
    assert no_reason.status_code == 422 and 'data-field="reason"' in no_reason.get_data(as_text=True)
    assert reviewer.post(path, {"decision": "reject", "reason": "777 cannot pay 9:1"}).status_code == 303
    assert db.execute("SELECT status, decided_by, decision_reason FROM paytable_versions WHERE name = %s "
                      "AND version = %s", (NAME, number)).fetchone() == (
        "rejected", f"staff:{reviewer.login.username}", "777 cannot pay 9:1")


@pytest.mark.parametrize("role", ["admin", "supervisor", "compliance"])
def test_other_roles_read_but_do_not_draft_or_decide(signed_in, role):
    console = signed_in(role)
    page = console.get("/console/paytables")
    assert page.status_code == 200 and "Draft the next version" not in page.get_data(as_text=True)
    assert console.get(f"/console/paytables/{NAME}/1").status_code == 200
    assert console.get(DRAFT_PATH).status_code == 403
    assert console.post(DRAFT_PATH, {"yaml": "odds: {}", "reason": "mine"}).status_code == 403
    assert console.post(f"/console/paytables/{NAME}/1/decision",
                        {"decision": "approve", "reason": "mine"}).status_code == 403


def test_nobody_signed_in_is_sent_to_sign_in(browser):
    assert browser().get("/console/paytables").status_code == 302


def test_a_post_without_its_csrf_token_is_refused(signed_in):
    console = signed_in("operator")
    assert console.post(DRAFT_PATH, {"yaml": "odds: {}", "reason": "x"}, csrf=False).status_code == 400


def test_an_unknown_paytable_or_version_is_a_404_page(signed_in):
    console = signed_in("operator")
    assert console.get("/console/paytables/no-such-table/draft").status_code == 404
    assert console.get(f"/console/paytables/{NAME}/999999").status_code == 404


# ----- the REST API names the lines too ---------------------------------------------------------
@pytest.fixture
def operator_api(client, make_key) -> Api:
    return Api(flask_sender(client), make_key("operator"))


def test_the_rest_api_422_names_each_bad_field_and_its_line(operator_api):
    document = "odds:\n  pontoon: 3:x\n  win: 1:1\n"
    refused = operator_api.post(f"/v1/paytables/{NAME}/versions", {"reason": "lines", "yaml": document})
    assert refused.status == 422
    body = refused.body
    assert body["code"] == "invalid_paytable" and body["status"] == 422 and body["message"]
    assert "is not odds" in body["errors"]["odds.pontoon"][0]
    assert body["locations"]["odds.pontoon"] == {"line": 2, "column": 3}


@pytest.mark.parametrize("depth", [17, 960, 970, 1000, 5000])
def test_the_rest_api_refuses_yaml_nested_too_deep_naming_the_field(operator_api, depth):
    refused = operator_api.post(f"/v1/paytables/{NAME}/versions",
                                {"reason": "deep", "yaml": "a: " + "[" * depth + "]" * depth})
    assert refused.status == 422, refused.body
    assert list(refused.body["errors"]) == ["a"] and refused.body["locations"]["a"]["line"] == 1


def test_the_rest_api_refuses_json_content_nested_too_deep_naming_the_field(operator_api):
    nested: list = []
    for _ in range(40):
        nested = [nested]
    refused = operator_api.post(f"/v1/paytables/{NAME}/versions", {"reason": "deep", "content": {"odds": nested}})
    assert refused.status == 422 and list(refused.body["errors"]) == ["odds"]
    assert ok(operator_api.get(f"/v1/paytables/{NAME}/versions"), 200)["name"] == NAME


def test_a_draft_that_says_what_the_approved_version_says_is_refused_as_no_change(signed_in):
    console = signed_in("operator")
    refused = submit(console, prefilled(console))
    assert refused.status_code == 422
    assert re.search(r'data-field="yaml">No change: this says what version \d+', refused.get_data(as_text=True))
    relaid = submit(console, "# the same, laid out anew\n" + prefilled(console).replace("version:", "version:  "))
    assert relaid.status_code == 422, "comments and layout are no change"


def test_the_players_edge_asks_for_a_check_on_a_draft_and_is_flagged_once_approved(signed_in, evaluate, new_table,
                                                                                  api):
    author, approver = signed_in("operator"), signed_in("operator")
    number = submitted_version(submit(author, edit(prefilled(author), rf"678_mixed: {ODDS}", '678_mixed: "2:1"')))
    path = f"/console/paytables/{NAME}/{number}"
    assert evaluate(NAME, number) == "done"
    draft = fragment(author, path)
    assert "data-player-edge" in draft and "Check that this is meant before it is approved." in draft
    assert approver.post(f"{path}/decision", {"decision": "approve", "reason": "a promotion",
                                                 "password": approver.login.password}).status_code == 303
    approved = fragment(approver, path)
    assert "data-player-edge" in approved and "Check that this is meant" not in approved
    assert "It is approved" in approved
    table_id, _ = new_table()
    ok(api("operator").post(f"/v1/tables/{table_id}/paytable", {"version": number, "reason": "promotion"}), 200)
    table = approver.get(f"/console/tables/{table_id}").get_data(as_text=True)
    assert f'data-player-edge="{number}"' in table and "gives the player the edge" in table


def test_paytable_lines_are_named_as_the_trade_names_them_with_their_yaml_key_beside(signed_in):
    page = signed_in("compliance").get(f"/console/paytables/{NAME}/1").get_data(as_text=True)
    for key, name in (("5_card_21", "five-card 21"), ("678_mixed", "6-7-8 mixed suits"),
                      ("777_spades", "7-7-7 in spades"), ("7_plus_card_21", "21 in seven or more cards")):
        row = re.search(rf'<tr data-line="{re.escape(key)}">(.*?)</tr>', page, re.S)
        assert row and f'<span class="line-name">{name}</span>' in row.group(1), key
        assert f">{key}</code>" in row.group(1), "the key the operator edits, beside it"
