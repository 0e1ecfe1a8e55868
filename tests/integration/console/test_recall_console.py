"""/console/recall: a table's last rounds with every card, decision, bet and payout, each round's
transcript downloadable as the REST API gives it, and a re-verification against the ledger."""
from __future__ import annotations

import json
import re

import pytest

from tests.support.api_client import ok
from tests.support.scripted_rounds import SPLIT_AND_DOUBLE, SPLIT_AND_DOUBLE_WAGERS, play_script

from .pit_play import api, new_table, settle  # noqa: F401  (fixtures by name)

ONE_SEAT = [{"seat": 1, "wager": 1000}]
# Seat 1 stands on 17 against the dealer's 8-K (18): it loses its 1000.
ONE_LOSS = ["9H", "8D", "8C", {"seat": 1, "hand": 0, "action": "stand"}, "KD"]


def section_of(page: str, round_id: str) -> str:
    found = re.search(rf'<section class="card recalled-round" id="round-{round_id}".*?</section>', page, re.S)
    assert found, f"round {round_id} is shown"
    return found.group(0)


@pytest.fixture
def played_table(new_table, settle):   # noqa: F811  (the fixtures, by name)
    """A table with eleven settled rounds (the eighth splits and doubles) and one being dealt."""
    table_id, terminal = new_table(shoe=None)
    played = [play_script(terminal, table_id, SPLIT_AND_DOUBLE_WAGERS, SPLIT_AND_DOUBLE) if number == 8
              else play_script(terminal, table_id, ONE_SEAT, ONE_LOSS) for number in range(1, 12)]
    settle(*[state["round_id"] for state in played])
    in_play = play_script(terminal, table_id, ONE_SEAT, ONE_LOSS, stop_after=2)
    return table_id, [state["round_id"] for state in played], in_play["round_id"]


def test_recall_shows_the_last_ten_rounds_with_every_card_and_the_money(signed_in, played_table):
    table_id, settled, in_play = played_table
    page = signed_in("compliance").get(f"/console/recall?table={table_id}")
    assert page.status_code == 200
    shown = page.get_data(as_text=True)
    assert re.findall(r'data-round="([^"]+)"', shown) == settled[2:] + [in_play], "the last ten, oldest first"

    split = section_of(shown, settled[7])
    assert 'data-status="settled"' in split
    assert 'data-seat="1" data-hand="0"' in split and "<small class=\"mono muted\" data-cards>8H 3S 9S</small>" in split
    assert "<small class=\"mono muted\" data-cards>8D 2C KS</small>" in split
    assert "<small class=\"mono muted\" data-cards>6C KD KC</small>" in split, "the dealer's cards"
    assert re.search(r"<strong>split</strong>", split) and re.search(r"<strong>double</strong> \$10\.00", split)
    for bet, stake, returned in (("1:None:pair", 500, 6000), ("1:0:main", 1000, 2000), ("1:0:double", 1000, 2000),
                                 ("1:1:split", 1000, 2000), ("2:0:main", 2000, 4000)):
        row = re.search(rf'<tr data-bet="{bet}">.*?</tr>', split, re.S)
        assert row, bet
        assert f'data-stake="{stake}"' in row.group(0) and f'data-returned="{returned}"' in row.group(0), bet
    assert 'data-staked="5500"' in split and 'data-returned-total="16000"' in split and 'data-net="10500"' in split
    assert "$105.00" in split, "money in dollars and cents"

    loss = section_of(shown, settled[-1])
    assert 'data-stake="1000"' in loss and 'data-returned="0"' in loss
    dealing = section_of(shown, in_play)
    assert 'data-status="open"' in dealing and "Nothing in the ledger yet" in dealing


def test_the_number_of_rounds_is_asked_for(signed_in, played_table):
    table_id, settled, in_play = played_table
    console = signed_in("supervisor")
    shown = console.get(f"/console/recall?table={table_id}&last=3").get_data(as_text=True)
    assert re.findall(r'data-round="([^"]+)"', shown) == settled[-2:] + [in_play]
    for last in ("0", "101", "ten"):
        refused = console.get(f"/console/recall?table={table_id}&last={last}")
        assert refused.status_code == 422 and 'data-field="last"' in refused.get_data(as_text=True), last
    unknown = console.get("/console/recall?table=NO-SUCH-TABLE")
    assert unknown.status_code == 422 and 'data-field="table"' in unknown.get_data(as_text=True)


def test_a_rounds_transcript_downloads_as_the_rest_api_gives_it(signed_in, played_table, api):  # noqa: F811
    table_id, settled, _ = played_table
    download = signed_in("compliance").get(f"/console/recall/rounds/{settled[7]}/transcript.json")
    assert download.status_code == 200 and download.mimetype == "application/json"
    assert "attachment" in download.headers["Content-Disposition"]
    rest = ok(api("supervisor").get(f"/v1/rounds/{settled[7]}/transcript"), 200)
    assert json.loads(download.get_data(as_text=True)) == rest
    assert signed_in("compliance").get(
        "/console/recall/rounds/00000000-0000-0000-0000-000000000000/transcript.json").status_code == 404


def test_re_verify_agrees_with_the_ledger(signed_in, played_table):
    table_id, settled, in_play = played_table
    console = signed_in("compliance")
    for round_id in (settled[7], in_play):
        verified = console.post("/console/recall/verify", {"round_id": round_id, "table": table_id, "last": "10"})
        assert verified.status_code == 200
        shown = section_of(verified.get_data(as_text=True), round_id)
        assert 'data-verdict="agrees"' in shown, shown[-1500:]
    assert verified.get_data(as_text=True).count("data-verdict=") == 1, "the verdict is at its own round"
    older = console.post("/console/recall/verify", {"round_id": settled[0], "table": table_id, "last": "1"})
    page = older.get_data(as_text=True)
    assert f'id="round-{settled[0]}-verdict"' in page and 'data-verdict="agrees"' in page, \
        "a round no longer among those shown has its verdict above them"


def test_re_verify_names_a_ledger_row_that_differs_from_the_replay(signed_in, played_table, db):
    table_id, settled, _ = played_table
    changed = "UPDATE ledger_entries SET returned = returned + %s WHERE round_id = %s AND seat = 2"
    db.execute(changed, (100, settled[7]))
    try:
        verified = signed_in("supervisor").post("/console/recall/verify",
                                                {"round_id": settled[7], "table": table_id, "last": "10"})
    finally:   # the folder's database stays intact for the tests that verify all of it
        db.execute(changed, (-100, settled[7]))
    shown = section_of(verified.get_data(as_text=True), settled[7])
    assert 'data-verdict="disagrees"' in shown and "seat 2" in shown


@pytest.mark.parametrize("role", ["operator", "admin"])
def test_recall_is_for_compliance_and_supervisors(signed_in, played_table, role):
    table_id, settled, _ = played_table
    console = signed_in(role)
    assert console.get(f"/console/recall?table={table_id}").status_code == 403
    assert console.get(f"/console/recall/rounds/{settled[0]}/transcript.json").status_code == 403
    assert console.post("/console/recall/verify", {"round_id": settled[0]}).status_code == 403


def test_a_player_banked_round_is_recalled_card_by_card(signed_in, new_table):   # noqa: F811
    table_id, terminal = new_table("british-traditional")
    opened = ok(terminal.post(f"/v1/tables/{table_id}/rounds",
                              {"players": [{"seat": 1, "stake": 100}, {"seat": 2, "stake": 250}]}), 201)
    for card in ("5H", "9C", "KD"):
        ok(terminal.post(f"/v1/rounds/{opened['round_id']}/cards", {"card": card}), 200)
    console = signed_in("supervisor")
    shown = section_of(console.get(f"/console/recall?table={table_id}").get_data(as_text=True), opened["round_id"])
    assert [re.search(rf'data-card="{card}"', shown) is not None for card in ("5H", "9C", "KD")] == [True] * 3
    # The hands table names the banker and each player's hand, with the cards each holds.
    hands = re.search(r'<table class="data hands">.*?</table>', shown, re.S).group(0)
    rows = re.findall(r'<tr (data-banker|data-seat="\d+" data-hand="\d+")>.*?data-cards>([^<]*)</small>', hands, re.S)
    assert [who for who, _ in rows] == ["data-banker", 'data-seat="1" data-hand="0"', 'data-seat="2" data-hand="0"']
    assert sorted(" ".join(cards for _, cards in rows).split()) == ["5H", "9C", "KD"]
    verified = console.post("/console/recall/verify", {"round_id": opened["round_id"], "table": table_id})
    assert 'data-verdict="agrees"' in section_of(verified.get_data(as_text=True), opened["round_id"])
