"""A table's page: the round in play drawn as it stands for both games, refreshed in place, the last
rounds and the shoe's commitment; a supervisor's void (confirmed, refunded in the ledger) and an
operator's paytable assignment, with refusals shown at their fields."""
from __future__ import annotations

import pytest

from tests.support.api_client import ok
from tests.support.scripted_rounds import AFTER_SPLIT, SPLIT_AND_DOUBLE, SPLIT_AND_DOUBLE_WAGERS, play

from .pit_play import api, new_table, section, settle, text_of  # noqa: F401  (fixtures by name)

# Seat 1 insures for 500 against the dealer's ace, splits its eights and doubles hand 0 for 800:
# 1000 + 1000 + 800 + 500 pair bet + 500 insurance staked, seat 2 2000, when the fault is found.
FAULT_WAGERS = [{"seat": 1, "wager": 1000, "pair_bet": 500}, {"seat": 2, "wager": 2000}]
FAULTY = ["8H", "5C", "AS", "8D", "9D", {"seat": 1, "action": "insurance", "amount": 500},
          {"seat": 1, "hand": 0, "action": "split"}, "3S", {"seat": 1, "hand": 0, "action": "double", "amount": 800},
          "9S"]


def test_the_round_in_play_is_drawn_with_its_cards_stakes_and_what_it_awaits(signed_in, new_table, settle):
    table_id, terminal = new_table()
    done = play(terminal, table_id, SPLIT_AND_DOUBLE_WAGERS, SPLIT_AND_DOUBLE)
    settle(done["round_id"])
    in_play = play(terminal, table_id, SPLIT_AND_DOUBLE_WAGERS, SPLIT_AND_DOUBLE, stop_after=AFTER_SPLIT)

    page = signed_in("compliance").get(f"/console/tables/{table_id}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    live = section(html, "table-live")
    assert f'hx-get="/console/tables/{table_id}/live"' in live and 'hx-trigger="every 3s"' in live
    # Seat 1's split hands (8-3 and 8), the dealer's 6, as playing cards: eights of hearts in red.
    for card in ("8H", "3S", "8D", "6C", "5C", "9D"):
        assert f'data-card="{card}"' in live
    assert 'playing-card--red" data-card="8H"' in live and 'playing-card--black" data-card="3S"' in live
    assert "\u2665" in live and "\u2660" in live and "eight of hearts" in live
    text = text_of(live)
    assert "Awaiting a decision from seat 1, hand 1: hit, double $5.00 to $10.00." in text
    assert "$10.00" in text and "$5.00" in text and "$20.00" in text         # wagers, the pair bet
    assert "Seat 1, hand 1: split" in text
    assert in_play["round_id"] in live
    # The last rounds: the settled one with its money; the shoe's mode and what it has dealt.
    assert "settled" in text and "$55.00" in text
    assert "physical" in text_of(html) and "Cards dealt 17" in text_of(html)

    polled = signed_in("operator").get(f"/console/tables/{table_id}/live", headers={"HX-Request": "true"})
    assert polled.status_code == 200 and polled.get_data(as_text=True).lstrip().startswith('<section id="table-live"')


def test_hands_are_counted_from_one_and_each_insurance_offer_names_its_seat(signed_in, new_table):
    table_id, terminal = new_table()
    # The dealer's ace: both seats may insure before anyone plays.
    state = play(terminal, table_id, FAULT_WAGERS, FAULTY, stop_after=5)
    console = signed_in("supervisor")
    text = text_of(section(console.get(f"/console/tables/{table_id}").get_data(as_text=True), "table-live"))
    assert "insurance for seat 1" in text and "insurance for seat 2" in text
    # Seat 1 insures and splits its eights: its hands are 1 and 2, as the pit counts them, never 0.
    for step in FAULTY[5:7]:
        state = ok(terminal.post(f"/v1/rounds/{state['round_id']}/actions", step), 200)
    text = text_of(section(console.get(f"/console/tables/{table_id}").get_data(as_text=True), "table-live"))
    assert "Seat 1, hand 1: split" in text and "Awaiting a card to seat 1, hand 1." in text
    assert "hand 0" not in text


def test_a_virtual_shoe_shows_its_commitment(signed_in, new_table):
    table_id, terminal = new_table(shoe="virtual")
    shoe = ok(terminal.get(f"/v1/tables/{table_id}/shoes/current"), 200)
    html = signed_in("supervisor").get(f"/console/tables/{table_id}").get_data(as_text=True)
    assert shoe["commitment"] and shoe["commitment"] in html and "No round open." in text_of(html)


def test_a_player_banked_round_is_drawn_with_its_banker_and_players(signed_in, new_table):
    table_id, terminal = new_table("british-traditional")
    opened = ok(terminal.post(f"/v1/tables/{table_id}/rounds",
                              {"players": [{"seat": 1, "stake": 100}, {"seat": 2, "stake": 250}]}), 201)
    for card in ("5H", "9C", "KD"):
        ok(terminal.post(f"/v1/rounds/{opened['round_id']}/cards", {"card": card}), 200)
    html = signed_in("supervisor").get(f"/console/tables/{table_id}").get_data(as_text=True)
    live = section(html, "table-live")
    text = text_of(live)
    assert "Banker" in text and "$1.00" in text and "$2.50" in text
    assert 'data-card="5H"' in live and 'data-card="9C"' in live and 'data-card="KD"' in live
    assert "Awaiting a card to" in text
    assert "chair 1 of 10 holds the bank" in text_of(html)   # chairs are counted from 1


def test_a_supervisor_voids_the_round_in_play_after_confirming_and_the_refund_is_in_the_ledger(
        signed_in, new_table, db):
    table_id, terminal = new_table()
    state = play(terminal, table_id, FAULT_WAGERS, FAULTY)
    round_id = state["round_id"]
    console = signed_in("supervisor")
    table_page = console.get(f"/console/tables/{table_id}").get_data(as_text=True)
    assert f"/console/tables/{table_id}/void?round={round_id}" in table_page
    form = console.get(f"/console/tables/{table_id}/void?round={round_id}")
    assert form.status_code == 200 and "$58.00" in text_of(form.get_data(as_text=True))   # the refund to come

    blank = console.post(f"/console/tables/{table_id}/void", {"round_id": round_id, "reason": "   "})
    assert blank.status_code == 422 and 'class="field-error" id="void-reason-error"' in blank.get_data(as_text=True)
    confirm = console.post(f"/console/tables/{table_id}/void", {"round_id": round_id, "reason": "misdeal: stuck cards"})
    assert confirm.status_code == 200 and "Void round now" in confirm.get_data(as_text=True)
    assert db.execute("SELECT status FROM rounds WHERE round_id = %s", (round_id,)).fetchone()[0] == "open"

    done = console.post(f"/console/tables/{table_id}/void",
                        {"round_id": round_id, "reason": "misdeal: stuck cards", "confirmed": "yes"})
    assert done.status_code == 200
    text = text_of(done.get_data(as_text=True))
    assert "Round voided" in text and "$58.00" in text and "void_refund" in text and "$38.00" in text
    assert db.execute("SELECT seat, kind, stake, returned FROM ledger_entries WHERE round_id = %s ORDER BY seat",
                      (round_id,)).fetchall() == [(1, "void_refund", 3800, 3800), (2, "void_refund", 2000, 2000)]
    [(actor, reason)] = db.execute("SELECT actor, payload->>'reason' FROM audit_log WHERE kind = 'round_voided' "
                                   "AND round_id = %s", (round_id,)).fetchall()
    assert actor == f"staff:{console.login.username}" and reason == "misdeal: stuck cards"

    again = console.post(f"/console/tables/{table_id}/void",
                         {"round_id": round_id, "reason": "again", "confirmed": "yes"})
    assert again.status_code == 409
    assert "only a round in play can be voided" in again.get_data(as_text=True)
    assert db.execute("SELECT count(*) FROM ledger_entries WHERE round_id = %s", (round_id,)).fetchone()[0] == 2


def test_a_void_reaches_only_a_round_of_the_table_named(signed_in, new_table, db):
    table_id, terminal = new_table()
    other_id, _ = new_table()
    state = play(terminal, table_id, FAULT_WAGERS, FAULTY, stop_after=3)
    console = signed_in("supervisor")
    wrong = console.post(f"/console/tables/{other_id}/void",
                         {"round_id": state["round_id"], "reason": "fault", "confirmed": "yes"})
    assert wrong.status_code == 404
    not_a_round = console.post(f"/console/tables/{table_id}/void", {"round_id": "not-a-round", "reason": "x"})
    assert not_a_round.status_code == 404
    assert db.execute("SELECT status FROM rounds WHERE round_id = %s", (state["round_id"],)).fetchone()[0] == "open"


@pytest.mark.parametrize("role", ["operator", "compliance", "admin"])
def test_only_a_supervisor_voids(signed_in, new_table, db, role):
    table_id, terminal = new_table()
    state = play(terminal, table_id, FAULT_WAGERS, FAULTY, stop_after=3)
    console = signed_in(role)
    assert "Void this round" not in console.get(f"/console/tables/{table_id}").get_data(as_text=True)
    assert console.get(f"/console/tables/{table_id}/void?round={state['round_id']}").status_code == 403
    refused = console.post(f"/console/tables/{table_id}/void",
                           {"round_id": state["round_id"], "reason": "fault", "confirmed": "yes"})
    assert refused.status_code == 403
    assert db.execute("SELECT status FROM rounds WHERE round_id = %s", (state["round_id"],)).fetchone()[0] == "open"


@pytest.fixture
def approved_version(api, evaluate):
    """A second approved version of canberra-standard (four eyes through the REST API), measured
    by the evaluation worker's code as its approval needs."""
    author, approver = api("operator"), api("operator")
    document = ok(author.get("/v1/paytables/canberra-standard/versions/1"), 200)["content"]
    document = {key: value for key, value in document.items() if key not in ("name", "version")}
    draft = ok(author.post("/v1/paytables/canberra-standard/versions", {"reason": "console test", "content": document}),
               201)
    evaluate("canberra-standard", draft["version"])
    ok(approver.post(f"/v1/paytables/canberra-standard/versions/{draft['version']}/approve",
                     approver.confirmed({"reason": "checked"})), 200)
    return draft["version"]


def test_an_operator_assigns_an_approved_paytable_version_from_the_next_round(signed_in, new_table, approved_version,
                                                                              api):
    table_id, _ = new_table()
    console = signed_in("operator")
    html = console.get(f"/console/tables/{table_id}").get_data(as_text=True)
    assert f'<option value="{approved_version}"' in html
    empty = console.post(f"/console/tables/{table_id}/paytable", {"version": str(approved_version), "reason": ""})
    assert empty.status_code == 422 and 'id="assign-reason-error"' in empty.get_data(as_text=True)
    for version in ("", "two", "\u00b2", "1.5"):
        refused = console.post(f"/console/tables/{table_id}/paytable", {"version": version, "reason": "promotion"})
        assert refused.status_code == 422 and 'id="assign-version-error"' in refused.get_data(as_text=True), version
    missing = console.post(f"/console/tables/{table_id}/paytable", {"version": "9999", "reason": "promotion"})
    assert missing.status_code == 422 and "has no version 9999" in missing.get_data(as_text=True)
    same = console.post(f"/console/tables/{table_id}/paytable", {"version": "1", "reason": "promotion"})
    assert same.status_code == 409 and "already the version" in same.get_data(as_text=True)

    done = console.post(f"/console/tables/{table_id}/paytable", {"version": str(approved_version),
                                                                  "reason": "promotion"})
    assert done.status_code == 303 and done.headers["Location"].endswith(f"/console/tables/{table_id}")
    shown = text_of(console.get(f"/console/tables/{table_id}").get_data(as_text=True))
    assert f"version {approved_version} applies from the next round" in shown
    assert f"canberra-standard@{approved_version} from the next round" in shown
    waiting = ok(api("operator").get(f"/v1/tables/{table_id}/paytable"), 200)
    assert waiting["pending_version"] == approved_version
    assert waiting["assignments"][-1]["assigned_by"] == f"staff:{console.login.username}"


@pytest.mark.parametrize("role", ["supervisor", "compliance", "admin"])
def test_only_an_operator_assigns_a_paytable(signed_in, new_table, role):
    table_id, _ = new_table()
    console = signed_in(role)
    assert 'name="version"' not in console.get(f"/console/tables/{table_id}").get_data(as_text=True)
    assert console.post(f"/console/tables/{table_id}/paytable", {"version": "1", "reason": "x"}).status_code == 403


def test_an_unknown_table_is_a_404_page(signed_in):
    page = signed_in("operator").get("/console/tables/NO-SUCH-TABLE")
    assert page.status_code == 404 and "There is no table NO-SUCH-TABLE" in page.get_data(as_text=True)


def test_the_live_part_shows_each_card_as_it_is_dealt(signed_in, new_table):
    table_id, terminal = new_table()
    state = play(terminal, table_id, SPLIT_AND_DOUBLE_WAGERS, SPLIT_AND_DOUBLE, stop_after=3)
    console = signed_in("supervisor")
    before = console.get(f"/console/tables/{table_id}/live", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert 'data-card="6C"' in before and 'data-card="8D"' not in before
    assert "Awaiting a card to seat 1, hand 1." in text_of(before)
    ok(terminal.post(f"/v1/rounds/{state['round_id']}/cards", {"card": "8D"}), 200)
    after = console.get(f"/console/tables/{table_id}/live", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert 'data-card="8D"' in after and "Awaiting a card to seat 2, hand 1." in text_of(after)
