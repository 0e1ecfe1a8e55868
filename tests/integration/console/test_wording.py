"""Counts and periods as a person writes them: "1 round", "3 rounds", a gaming day named once."""
from __future__ import annotations

from service.web.format import counted
from tests.support.api_client import ok
from tests.support.scripted_rounds import SPLIT_AND_DOUBLE, SPLIT_AND_DOUBLE_WAGERS, play

from .pit_play import api, new_table, row_of, text_of  # noqa: F401  (fixtures by name)


def test_a_count_takes_the_plural_only_when_it_is_not_one():
    assert counted(1, "round") == "1 round" and counted(0, "problem") == "0 problems"
    assert counted(3, "field") == "3 fields"


def test_the_days_report_names_its_gaming_day_once(signed_in):
    text = text_of(signed_in("compliance").get("/console/reports").get_data(as_text=True))
    assert "Gaming day: gaming day" not in text
    assert "Month to date:" in text_of(signed_in("compliance").get("/console/reports?period=month_to_date")
                                       .get_data(as_text=True))


def test_recall_counts_its_rounds_in_words(signed_in, new_table):
    table_id, terminal = new_table()
    play(terminal, table_id, SPLIT_AND_DOUBLE_WAGERS, SPLIT_AND_DOUBLE)
    text = text_of(signed_in("supervisor").get(f"/console/recall?table={table_id}").get_data(as_text=True))
    assert f"Table {table_id}: the last round" in text and "round(s)" not in text


def test_a_player_banked_void_on_a_physical_shoe_promises_no_reshuffle(signed_in, new_table):
    table_id, terminal = new_table("british-traditional")
    players = {"players": [{"seat": 1, "stake": 100}]}
    round_id = ok(terminal.post(f"/v1/tables/{table_id}/rounds", players), 201)["round_id"]
    console = signed_in("supervisor")
    page = console.post(f"/console/tables/{table_id}/void", {"round_id": round_id, "reason": "misdeal"})
    text = text_of(page.get_data(as_text=True))
    assert page.status_code == 200 and "Confirm the void" in text
    assert "nothing is refunded" in text and "virtual pack" not in text


def test_the_floor_and_the_table_list_the_open_decisions_in_the_same_order(signed_in, new_table):
    table_id, terminal = new_table()
    play(terminal, table_id, [{"seat": 1, "wager": 1000}], ["9H", "7D", "8C"])
    console = signed_in("supervisor")
    floor = text_of(row_of(console.get("/console/floor").get_data(as_text=True), table_id))
    table = text_of(console.get(f"/console/tables/{table_id}").get_data(as_text=True))
    assert "decision: seat 1, hand 1 (hit, stand, double)" in floor
    assert "Awaiting a decision from seat 1, hand 1: hit, stand, double $5.00 to $10.00." in table
    assert "No decisions yet." in table
