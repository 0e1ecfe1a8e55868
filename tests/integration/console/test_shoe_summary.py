"""The shoe as a table page open on the pit's screen shows it: counted with the round in play, so it
agrees with the floor at every refresh, not only when the page was first loaded."""
from __future__ import annotations

from tests.support.scripted_rounds import play

from .pit_play import api, new_table, row_of, section, text_of  # noqa: F401  (fixtures by name)


def test_the_table_pages_refresh_counts_the_cards_dealt_as_the_floor_does(signed_in, new_table):
    table_id, terminal = new_table()
    console = signed_in("supervisor")
    assert "Cards dealt 0" in text_of(console.get(f"/console/tables/{table_id}").get_data(as_text=True))

    play(terminal, table_id, [{"seat": 1, "wager": 1000}], ["9H", "7D", "8C"])
    floor = text_of(row_of(console.get("/console/floor").get_data(as_text=True), table_id))
    polled = console.get(f"/console/tables/{table_id}/live", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "physical, 3 cards dealt" in floor
    assert "Cards dealt 3" in text_of(section(polled, "table-live"))


def test_a_shoe_opened_while_the_page_is_open_shows_at_the_next_refresh(signed_in, new_table):
    table_id, terminal = new_table(shoe=None)
    console = signed_in("operator")
    live = f"/console/tables/{table_id}/live"
    assert "No shoe open." in text_of(console.get(live, headers={"HX-Request": "true"}).get_data(as_text=True))
    terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": "virtual"})
    polled = text_of(console.get(live, headers={"HX-Request": "true"}).get_data(as_text=True))
    assert "No shoe open." not in polled and "Mode virtual" in polled
