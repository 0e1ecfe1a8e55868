"""The dealer's screen in chromium: every worked round of both games played through it with a
physical shoe, by touches and by the keyboard alone, each round's own transcript replaying to the
fixture's money; and what must never happen at a table (an action applied twice or lost, a card
that cannot come, a decision the rules refuse) does not."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from service.replay import replay_data
from tests.conftest import worked_rounds
from tests.support.api_client import ok

from .console import pontoon
from .dealer_screen import By, NotOffered, ScreenDriver

CANBERRA = worked_rounds()
TRADITIONAL = worked_rounds("traditional")
RULES_FOR_OPTIONS = {(): "british-traditional", (("shoot", True),): "shoot-pontoon"}


def _rules_of(transcript: dict) -> tuple[str, str | None]:
    """The rules file (and paytable) a table for this transcript is created with."""
    if "players" in transcript:
        return RULES_FOR_OPTIONS[tuple(sorted((transcript.get("options") or {}).items()))], None
    return transcript["rules"], transcript["paytable"]


def _bet_rows(transcript: dict) -> list[dict[str, int]]:
    """The transcript's seats as the screen's bets form names its fields."""
    if "players" in transcript:
        return [{"seat": p["seat"], "stake": p["stake"], **({"shoot": p["shoot"]} if p.get("shoot") else {})}
                for p in transcript["players"]]
    rows = []
    for seat in transcript["seats"]:
        row = {"seat": seat["seat"], "wager": seat["wager"]}
        side_bets = dict(seat.get("side_bets") or {})
        if seat.get("pair_bet"):
            side_bets["pair"] = seat["pair_bet"]
        row.update({f"side_bets.{name}": stake for name, stake in side_bets.items() if stake})
        rows.append(row)
    return rows


def _money(result: dict) -> object:
    """What a round paid, in either game's result."""
    if "banker" in result:
        return (result["banker"]["net"], [(p["seat"], p["net"]) for p in result["players"]], result["kitty"],
                result["next_banker"], result["reshuffle"])
    return [(seat["seat"], seat["net"]) for seat in result["seats"]]


def _nets_shown(screen: ScreenDriver) -> dict[int, int]:
    results = screen.root.locator(".result[data-seat]")
    return {int(results.nth(i).get_attribute("data-seat") or -1): int(results.nth(i).get_attribute("data-net") or 0)
            for i in range(results.count())}


def _play_worked_round(path: Path, by: By, table_at_screen, admin_api) -> None:
    transcript = json.loads(path.read_text())
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    rules, paytable = _rules_of(transcript)
    screen = ScreenDriver(table_at_screen(rules, paytable), by)
    screen.open_shoe("physical")
    if transcript.get("kitty"):
        screen.put_up_kitty(transcript["kitty"])
    screen.bets(_bet_rows(transcript))
    try:
        left = screen.play(transcript["cards"], transcript["actions"])
    except NotOffered:
        # The worked round's next decision is one the rules refuse: the screen never offers it.
        assert expected.get("error"), f"{path.stem}: a decision the round should take was not offered"
        return
    assert not expected.get("error"), f"{path.stem}: the screen offered every decision of a refused round"
    assert left == [] and screen.awaiting() == "complete", f"{path.stem}: {left} left, awaiting {screen.awaiting()}"

    own = ok(admin_api.get(f"/v1/rounds/{screen.round_id()}/transcript"), 200)
    assert _money(replay_data(own)) == _money(replay_data(transcript)) == _money(expected)
    shown = _nets_shown(screen)
    if "banker" in expected:
        assert shown == {0: expected["banker"]["net"], **{p["seat"]: p["net"] for p in expected["players"]}}
    else:
        assert shown == {seat["seat"]: seat["net"] for seat in expected["seats"]}, shown


@pytest.mark.parametrize("by", list(By))
@pytest.mark.parametrize("path", CANBERRA, ids=[p.stem for p in CANBERRA])
def test_a_worked_canberra_round_plays_through_the_screen_to_its_money(path, by, table_at_screen, admin_api):
    _play_worked_round(path, by, table_at_screen, admin_api)


@pytest.mark.parametrize("by", list(By))
@pytest.mark.parametrize("path", TRADITIONAL, ids=[p.stem for p in TRADITIONAL])
def test_a_worked_player_banked_round_plays_through_the_screen_to_its_money(path, by, table_at_screen, admin_api):
    _play_worked_round(path, by, table_at_screen, admin_api)


def _canberra_round(screen: ScreenDriver, first_cards: list[str]) -> None:
    screen.open_shoe("physical")
    screen.bets([{"seat": 1, "wager": 1000}])
    for card in first_cards:
        screen.card(card)


def test_a_reload_mid_round_shows_the_round_as_the_service_holds_it(table_at_screen, admin_api):
    screen = ScreenDriver(table_at_screen("canberra", "canberra-standard"), By.CLICKS)
    _canberra_round(screen, ["9H", "5C"])
    round_id, revision = screen.round_id(), screen.root.get_attribute("data-revision")
    screen.page.reload()
    expect(screen.root).to_have_attribute("data-round", round_id or "")
    expect(screen.root).to_have_attribute("data-revision", revision or "")
    screen.card("3D")                                   # the round goes on from where it was
    screen.decide(1, "hit", 0)
    state = ok(admin_api.get(f"/v1/rounds/{round_id}"), 200)
    assert state["seats"][0]["hands"][0]["cards"] == ["9H", "3D"] and state["awaiting"] == "card"


def test_a_double_tap_applies_the_decision_once(table_at_screen, admin_api):
    screen = ScreenDriver(table_at_screen("canberra", "canberra-standard"), By.CLICKS)
    _canberra_round(screen, ["9H", "5C", "3D"])
    before = ok(admin_api.get(f"/v1/rounds/{screen.round_id()}/transcript"), 200)
    drawn = screen.root.get_attribute("data-drawn")
    screen.decision_button(1, "hit", 0).dblclick()
    expect(screen.root).not_to_have_attribute("data-drawn", drawn or "")
    after = ok(admin_api.get(f"/v1/rounds/{screen.round_id()}/transcript"), 200)
    assert after["actions"] == [*before["actions"], {"seat": 1, "hand": 0, "action": "hit"}]


def test_the_same_touch_sent_twice_is_carried_out_once(table_at_screen, admin_api):
    """A form resent (a dropped connection's retry) with its key: the second finds it done."""
    page = table_at_screen("canberra", "canberra-standard")
    screen = ScreenDriver(page, By.CLICKS)
    _canberra_round(screen, ["9H", "5C", "3D"])
    form = screen.decision_button(1, "hit", 0).locator("xpath=ancestor::form")
    fields = {name: form.locator(f"input[name='{name}']").get_attribute("value")
              for name in ("csrf_token", "action_key", "round_id", "revision", "seat", "hand", "action")}
    answers = [page.request.post("/dealer/actions", form=fields, headers={"HX-Request": "true"}) for _ in range(2)]
    assert [answer.status for answer in answers] == [200, 200]
    transcript = ok(admin_api.get(f"/v1/rounds/{screen.round_id()}/transcript"), 200)
    assert transcript["actions"] == [{"seat": 1, "hand": 0, "action": "hit"}]


def test_a_second_tab_acting_on_a_round_that_moved_on_changes_nothing(table_at_screen, admin_api):
    first_tab = table_at_screen("canberra", "canberra-standard")
    first = ScreenDriver(first_tab, By.CLICKS)
    _canberra_round(first, ["9H", "5C", "3D"])
    second = ScreenDriver(first_tab.context.new_page(), By.CLICKS)
    second.page.goto("/dealer/table")
    second.expect_awaiting("decision")
    first.decide(1, "hit", 0)                            # the round moves on in the first tab
    second._touched(lambda: second.decision_button(1, "double", 0).click())
    expect(second.refusal("decision")).to_contain_text("moved on")
    second.expect_awaiting("card")                       # and the second tab now shows it as it stands
    transcript = ok(admin_api.get(f"/v1/rounds/{first.round_id()}/transcript"), 200)
    assert transcript["actions"] == [{"seat": 1, "hand": 0, "action": "hit"}]


def test_a_card_that_cannot_come_is_refused_in_words_and_changes_nothing(table_at_screen, admin_api):
    page = table_at_screen("canberra", "canberra-standard")
    screen = ScreenDriver(page, By.KEYS)
    screen.open_shoe("physical")
    screen.bets([{"seat": 1, "wager": 1000}])
    revision = screen.root.get_attribute("data-revision")
    screen.type_card("TH")                               # this shoe holds no tens
    expect(screen.refusal("card")).to_be_visible()
    expect(screen.refusal("card")).to_contain_text("cannot come from this shoe")
    expect(screen.root).to_have_attribute("data-revision", revision or "")
    screen.type_card("ZX", enter=True)
    expect(screen.refusal("card")).to_contain_text("is no card")
    screen.card("9H")                                    # and the next good card goes on as if nothing happened
    state = ok(admin_api.get(f"/v1/rounds/{screen.round_id()}"), 200)
    assert state["seats"][0]["hands"][0]["cards"] == ["9H"]


def test_a_card_when_none_is_owed_is_refused(table_at_screen, admin_api):
    page = table_at_screen("canberra", "canberra-standard")
    screen = ScreenDriver(page, By.CLICKS)
    _canberra_round(screen, ["9H", "5C"])
    stale = ScreenDriver(page.context.new_page(), By.CLICKS)
    stale.page.goto("/dealer/table")
    stale.expect_awaiting("card")
    screen.card("3D")                                    # the last card owed, entered in the first tab
    stale._touched(lambda: stale.page.locator("input[name=card]").fill("4S"))   # sent once whole
    expect(stale.refusal("card")).to_be_visible()
    transcript = ok(admin_api.get(f"/v1/rounds/{screen.round_id()}/transcript"), 200)
    assert transcript["cards"] == ["9H", "5C", "3D"]


def test_a_virtual_shoe_shows_the_card_it_dealt(table_at_screen, admin_api):
    screen = ScreenDriver(table_at_screen("canberra", "canberra-standard"), By.CLICKS)
    screen.open_shoe("virtual")
    screen.bets([{"seat": 1, "wager": 1000}, {"seat": 2, "wager": 500}])
    screen.expect_awaiting("decision", "complete")
    state = ok(admin_api.get(f"/v1/rounds/{screen.round_id()}"), 200)
    dealt = state["seats"][0]["hands"][0]["cards"]
    for card in dealt:
        expect(screen.root.locator(f".hand[data-seat='1'][data-hand='0'] [data-card='{card}']")).to_be_visible()
    screen.shot("virtual")



def test_a_pair_is_offered_its_split_and_the_screen_is_pictured_for_the_guide(table_at_screen):
    screen = ScreenDriver(table_at_screen("canberra", "canberra-standard"), By.CLICKS)
    screen.open_shoe("physical")
    screen.root.locator("input[name=wager][data-seat='1']").fill("10")
    screen.root.locator("input[name='side_bets.pair'][data-seat='1']").fill("5")
    screen.root.locator("input[name=wager][data-seat='3']").fill("25")
    screen.shot("bets")
    screen._touched(lambda: screen.root.locator("button[data-action=deal]").click())
    for card in ("8H", "7D", "KS", "8C"):
        screen.card(card)
    screen.shot("card")
    screen.card("9C")
    offered = screen.root.locator("form.decision[data-seat='1'][data-hand='0'] button[data-action]")
    expect(offered).to_have_count(5)
    assert {offered.nth(i).get_attribute("data-action") for i in range(5)} == \
        {"hit", "stand", "double", "split", "surrender"}
    expect(screen.root.locator(".hand.in-turn[data-seat='1'][data-hand='0']")).to_be_visible()
    screen.shot("decision")
    screen.decide(1, "stand", 0)
    screen.decide(3, "stand", 0)
    screen.card("6H")
    screen.card("5D")                                   # the dealer: K 6 5 = 21
    screen.expect_awaiting("complete")
    expect(screen.root.locator(".result[data-seat='3'] > .take")).to_contain_text("Take $25.00")
    screen.shot("result")


def test_a_round_dealt_at_the_screen_names_its_dealer_and_screen_and_audit_verify_passes(
        table_at_screen, admin_api, db, live):
    screen = ScreenDriver(table_at_screen("canberra", "canberra-standard"), By.CLICKS)
    _canberra_round(screen, ["9H", "5C", "8D"])
    screen.decide(1, "stand", 0)
    screen.card("KC")                                   # the dealer: 5 K, then
    screen.card("6S")                                   # 21: seat 1's 17 loses
    screen.expect_awaiting("complete")
    round_id = screen.round_id()
    assert ok(admin_api.get(f"/v1/rounds/{round_id}"), 200)["status"] in ("complete", "settled")
    dealer = screen.page.locator("[data-dealer]").get_attribute("data-dealer")
    records = db.execute("SELECT kind, actor, payload->>'screen' FROM audit_log WHERE round_id = %s "
                         "AND kind IN ('round_opened', 'card_dealt', 'decision') ORDER BY seq",
                         (round_id,)).fetchall()
    assert records and {(actor, named) for _, actor, named in records} == {(f"staff:{dealer}", "Left")}
    verified = pontoon(live.env, "audit", "verify")
    assert verified.returncode == 0, verified.stdout + verified.stderr


def _axe_violations(page) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']} at {'; '.join(str(n['target']) for n in v['nodes'][:3])}"
            for v in found if v["impact"] in ("critical", "serious", "moderate")]


def test_every_state_of_the_screen_passes_axe(table_at_screen):
    screen = ScreenDriver(table_at_screen("canberra", "canberra-standard"), By.CLICKS)
    seen = {}
    seen["shoe"] = _axe_violations(screen.page)
    screen.open_shoe("physical")
    seen["wagers"] = _axe_violations(screen.page)
    screen.bets([{"seat": 1, "wager": 1000}])
    seen["card"] = _axe_violations(screen.page)
    screen.type_card("TH")
    seen["card refused"] = _axe_violations(screen.page)
    for card in ("9H", "5C", "8D"):
        screen.card(card)
    seen["decision"] = _axe_violations(screen.page)
    screen.decide(1, "stand", 0)
    for card in ("KC", "4D"):
        screen.card(card)
    screen.expect_awaiting("complete")
    seen["complete"] = _axe_violations(screen.page)
    assert {state: found for state, found in seen.items() if found} == {}


def test_a_misdeal_called_at_the_screen_is_voided_by_the_supervisor_and_the_screen_shows_it(
        table_at_screen, new_page, people):
    from .console import sign_in

    screen = ScreenDriver(table_at_screen("canberra", "canberra-standard"), By.KEYS)
    _canberra_round(screen, ["9H", "5C"])
    table_id = screen.root.get_attribute("data-table")
    screen.page.keyboard.press("Tab")                    # out of the card field, where M would be typed
    screen.page.locator("#call-reason").fill("two cards stuck together")
    screen.page.locator("#call-reason").press("Enter")
    expect(screen.page.locator("#call-supervisor[data-called=yes]")).to_be_visible()

    supervisor = sign_in(new_page(), people["supervisor"])
    supervisor.goto(f"/console/tables/{table_id}")
    expect(supervisor.locator("main")).to_contain_text("two cards stuck together")
    calls = supervisor.get_by_role("status", name="Calls for a supervisor")
    calls.get_by_role("link", name=re.compile(r"void this round", re.I)).click()
    supervisor.get_by_label(re.compile(r"reason", re.I)).fill("misdeal: two cards stuck together")
    supervisor.get_by_role("button", name="Continue").click()
    supervisor.get_by_role("button", name="Void round now").click()
    expect(supervisor.get_by_role("heading", name="Round voided")).to_be_visible()

    screen.page.reload()
    screen.expect_awaiting("complete")
    expect(screen.root.locator(".void-reason")).to_contain_text("misdeal: two cards stuck together")
    expect(screen.page.locator("#call-supervisor[data-called=no]")).to_be_visible()
    screen.next_round()
    screen.expect_awaiting("wagers")
