"""The table's books at the dealer's screen: between rounds the dealer signs the tray's count a
supervisor wrote and receives a fill the cage issued, and records a seat's buy-in, each touch
carried out once and recorded under the dealer and the screen. The routes are a dealer's: a console
session, or a screen with nobody signed in, reaches none of them."""
from __future__ import annotations

import re
import uuid

import pytest

from tests.support.api_client import ok
from tests.support.dealer_screen import ScreenClient

pytestmark = pytest.mark.integration

HTMX = {"HX-Request": "true"}


def _touch(screen, path: str, form: dict, key: str | None = None):
    return screen.post(path, {**form, "action_key": key or uuid.uuid4().hex}, headers=HTMX)


def test_the_dealer_signs_a_count_and_a_fill_and_records_buy_ins_once(new_table, key_of, dealer_at, db):
    table_id, terminal = new_table()
    screen, dealer = dealer_at(table_id, "left")
    supervisor, cage = key_of("supervisor"), key_of("cage")
    opener = ok(supervisor.post(f"/v1/tables/{table_id}/tray-counts", {"kind": "opener", "chips": {"2500": 40}}), 201)
    fill = ok(supervisor.post(f"/v1/tables/{table_id}/fills", {"chips": {"10000": 2}}), 201)
    page = screen.get("/dealer/table").get_data(as_text=True)
    assert f'data-serial="{opener["serial"]}"' in page and f'data-serial="{fill["serial"]}"' not in page
    ok(cage.post(f"/v1/slips/{fill['serial']}/issue", {}), 200)

    signed = _touch(screen, "/dealer/slips/sign", {"serial": opener["serial"]})
    assert signed.status_code == 200 and 'id="table-books"' in signed.get_data(as_text=True)
    received = _touch(screen, "/dealer/slips/sign", {"serial": fill["serial"]})
    assert received.status_code == 200
    slip = ok(supervisor.get(f"/v1/slips/{opener['serial']}"), 200)
    dealer_signature = next(s for s in slip["signatures"] if s["capacity"] == "dealer")
    assert (dealer_signature["actor"], dealer_signature["screen"]) == (f"staff:{dealer.username}", "left")
    again = _touch(screen, "/dealer/slips/sign", {"serial": opener["serial"]})
    assert again.status_code == 409 and 'data-refusal="books"' in again.get_data(as_text=True)

    key = uuid.uuid4().hex
    for _ in range(2):   # a double tap: one buy-in
        touched = _touch(screen, "/dealer/buy-ins", {"seat": "3", "amount": "250", "method": "cash"}, key)
        assert touched.status_code == 200
    bought = ok(terminal.get(f"/v1/tables/{table_id}/buy-ins"), 200)["buy_ins"]
    assert [(b["seat"], b["amount"], b["recorded_by"], b["screen"]) for b in bought] == [
        (3, 25000, f"staff:{dealer.username}", "left")]
    bad = _touch(screen, "/dealer/buy-ins", {"seat": "3", "amount": "2.5.0"})
    assert bad.status_code == 422 and re.search(r'data-refusal="books"[^>]*>\s*The amount', bad.get_data(as_text=True))
    seat = _touch(screen, "/dealer/buy-ins", {"seat": "9", "amount": "5"})
    assert seat.status_code == 409 and "a seat of this table" in seat.get_data(as_text=True)


def test_another_tables_slip_is_not_the_dealers_to_sign(new_table, key_of, dealer_at):
    table_id, _ = new_table(shoe=None)
    other, _ = new_table(shoe=None)
    screen, _ = dealer_at(table_id)
    slip = ok(key_of("supervisor").post(f"/v1/tables/{other}/tray-counts", {"kind": "opener", "chips": {"2500": 1}}),
              201)
    refused = _touch(screen, "/dealer/slips/sign", {"serial": slip["serial"]})
    assert refused.status_code == 404


@pytest.mark.parametrize("path", ["/dealer/buy-ins", "/dealer/slips/sign"])
def test_only_a_dealer_signed_in_at_a_screen_reaches_the_books(new_table, signed_in, screen_at, path):
    table_id, _ = new_table(shoe=None)
    for role in ("supervisor", "cage", "count"):   # a console session is no screen's
        browser = ScreenClient(signed_in(role).client)
        response = browser.post(path, {"seat": "1", "amount": "5", "action_key": uuid.uuid4().hex})
        assert response.status_code in (302, 303) and "/dealer/enrol" in response.headers["Location"], role
    nobody = screen_at(table_id).post(path, {"seat": "1", "amount": "5"})
    assert nobody.status_code in (302, 303) and "/dealer/sign-in" in nobody.headers["Location"]
