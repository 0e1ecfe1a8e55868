"""Every console page, as each role opens it, checked by axe (axe-core through axe-playwright-python):
no critical, serious or moderate violation, so a person using the keyboard or a screen reader can
do their work. A page given a serious violation on purpose is caught, so the check itself works."""
from __future__ import annotations

import uuid

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

from tests.support.console_access import ROLES
from tests.support.scripted_rounds import SIMPLE_PUSH, play_script

from .console import sign_in, visit

BLOCKING = ("critical", "serious", "moderate")


def violations(page: Page) -> list[str]:
    """What axe finds on the page as it stands that keeps someone from using it, one line each."""
    found = Axe().run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']} at {'; '.join(str(n['target']) for n in v['nodes'][:3])}"
            for v in found if v["impact"] in BLOCKING]


@pytest.fixture(scope="module")
def places(new_table, make_person, make_key) -> dict[str, str]:
    """A table with a finished round and one open (every page has something to show), an account
    and a key to confirm acts on."""
    table_id, terminal = new_table(shoe=None)
    done = play_script(terminal, table_id, [{"seat": 1, "wager": 1000}], SIMPLE_PUSH)
    open_round = play_script(terminal, table_id, [{"seat": 1, "wager": 1000, "pair_bet": 500}], SIMPLE_PUSH,
                             new_shoe=False, stop_after=3)
    someone = make_person("operator", "Cléo Ñúñez")
    make_key("terminal", table_id)
    return {"table_id": table_id, "round_id": open_round["round_id"], "done": done["round_id"],
            "username": someone.username}


def pages_for(role: str, places: dict[str, str], key_id: str) -> list[str]:
    table, round_id = places["table_id"], places["round_id"]
    every = ["/console/floor", f"/console/tables/{table}", "/console/paytables",
             "/console/paytables/canberra-standard/1", "/console/account", "/console/no-such-page"]
    own = {
        "admin": ["/console/access", "/console/access/review",
                  f"/console/access/accounts/{places['username']}/deactivate",
                  f"/console/access/accounts/{places['username']}/reset-password",
                  f"/console/access/keys/{key_id}/revoke", "/console/reports"],
        "operator": ["/console/paytables/canberra-standard/draft", "/console/recall"],
        "supervisor": [f"/console/recall?table={table}&last=5", f"/console/tables/{table}/void?round={round_id}",
                       "/console/audit", f"/console/tables/{table}/chips", f"/console/tables/{table}/screens"],
        "compliance": [f"/console/recall?table={table}&last=5", "/console/reports",
                       "/console/reports?period=month_to_date&by=day", "/console/reports?period=range&from=2026-01-02",
                       "/console/audit", "/console/audit?kind=staff_created", "/console/audit?from=nonsense",
                       "/console/statement", f"/console/tables/{table}/chips"],
        "cage": ["/console/cage", f"/console/tables/{table}/chips"],
        "count": ["/console/count"],
    }
    return every + own[role]


@pytest.mark.parametrize("role", ROLES)
def test_every_page_a_role_opens_passes_axe(new_page, people, places, db, role):
    key_id = str(db.execute("SELECT key_id FROM api_keys WHERE table_id = %s", (places["table_id"],)).fetchone()[0])
    page = sign_in(new_page(), people[role])
    found: dict[str, list[str]] = {}
    for path in pages_for(role, places, key_id):
        visit(page, path)
        page.wait_for_load_state("networkidle")
        if problems := violations(page):
            found[path] = problems
    assert found == {}, f"{role}: pages with accessibility violations:\n" + "\n".join(
        f"{path}: {problem}" for path, problems in found.items() for problem in problems)


def test_the_pages_after_a_form_pass_axe(new_page, people, places):
    """The pages a form leads to: a draft refused at its lines, a void to confirm, a sign-in refused."""
    operator = sign_in(new_page(), people["operator"])
    visit(operator, "/console/paytables/canberra-standard/draft")
    operator.locator("#yaml").fill("name: canberra-standard\nodds:\n  pontoon: 3:x\n")
    operator.get_by_label("Reason for the change").fill("a test")
    operator.get_by_role("button", name="Submit the draft").click()
    assert operator.locator(".yaml-lines").count() == 1
    supervisor = sign_in(new_page(), people["supervisor"])
    visit(supervisor, f"/console/tables/{places['table_id']}/void?round={places['round_id']}")
    supervisor.get_by_label("Reason").fill("the shoe fell")
    supervisor.get_by_role("button", name="Continue").click()
    stranger = new_page()
    visit(stranger, "/console/login")
    stranger.locator("input[name=username]").fill(f"nobody{uuid.uuid4().hex[:4]}")
    stranger.locator("input[name=password]").fill("not a password at all")
    stranger.locator("input[name=password]").press("Enter")
    stranger.wait_for_load_state()
    found = {page.url: violations(page) for page in (operator, supervisor, stranger)}
    assert not any(found.values()), "\n".join(f"{url}: {problem}" for url, problems in found.items()
                                              for problem in problems)


def test_a_serious_violation_fails_the_check(page, people):
    sign_in(page, people["compliance"])
    visit(page, "/console/floor")
    assert violations(page) == []
    # A button nobody can name and an image with no text: what a screen reader cannot read out.
    page.evaluate("""() => {
        const main = document.querySelector('main');
        main.insertAdjacentHTML('beforeend', '<button type="button"></button><img src="data:,">');
    }""")
    found = violations(page)
    assert any(line.startswith("button-name (critical)") for line in found), found
    assert any(line.startswith("image-alt (critical)") for line in found), found
