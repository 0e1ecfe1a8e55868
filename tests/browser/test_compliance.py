"""Compliance at work in a browser: a table's last ten rounds recalled with their cards and money,
one re-verified against the ledger, the day's report downloaded as CSV, and the audit log exported
and verified offline with `pontoon audit verify FILE`."""
from __future__ import annotations

import csv
import io
import json
import re
from datetime import date
from zoneinfo import ZoneInfo

from playwright.sync_api import expect

from bench.processes import wait_for
from service.config import Settings
from service.reports.gaming_day import gaming_day_of, parse_day_start
from tests.support.scripted_rounds import play_script

from .console import pontoon, shot, shot_of, sign_in, visit

STAND = {"seat": 1, "hand": 0, "action": "stand"}
# (seat 1's cards, the dealer's cards, what 1000 staked returns); the cards in the order dealt are
# seat, dealer, seat, the stand, then the dealer's draws. No tens: Canberra deals without them.
WIN = (["9H", "7C"], ["6D", "KS", "KC"], 2000)        # 16 stands; the dealer's 6 K K busts
LOSS = (["9S", "5C"], ["7D", "KD"], 0)                 # 14 against the dealer's 17
PUSH = (["8H", "9C"], ["7H", "QD"], 1000)              # 17 each
ROUNDS = [WIN, LOSS, PUSH, WIN, LOSS, LOSS, PUSH, LOSS, WIN, PUSH, LOSS]


def script(seat: list[str], dealer: list[str]) -> list:
    return [seat[0], dealer[0], seat[1], STAND, *dealer[1:]]


def play_the_day(terminal, table_id: str, db) -> list[str]:
    played = []
    for seat, dealer, _ in ROUNDS:     # each from a fresh shoe: four decks hold four of each card
        state = play_script(terminal, table_id, [{"seat": 1, "wager": 1000}], script(seat, dealer))
        played.append(state["round_id"])
    wait_for(lambda: db.execute("SELECT count(*) FROM rounds WHERE table_id = %s AND status = 'settled'",
                                (table_id,)).fetchone()[0] == len(ROUNDS), 60, "every round to be settled")
    return played


def gaming_day_of_rounds(live, db, table_id: str) -> date:
    """The gaming day the table's rounds were played on (the report asks for that day by name, so a
    run that crosses the casino's day start still finds them)."""
    settings = Settings.from_env(live.env)
    (opened,) = db.execute("SELECT min(opened_at) FROM rounds WHERE table_id = %s", (table_id,)).fetchone()
    return gaming_day_of(opened, parse_day_start(settings.gaming_day_starts), ZoneInfo(settings.timezone))


def test_recall_reverify_report_and_audit_export(page, people, new_table, db, live, tmp_path):
    table_id, terminal = new_table(shoe=None)
    played = play_the_day(terminal, table_id, db)
    sign_in(page, people["compliance"])

    visit(page, "/console/recall")
    page.get_by_label("Table").select_option(table_id)
    expect(page.get_by_label("Last rounds")).to_have_value("10")
    page.get_by_role("button", name="Recall").click()
    recalled = page.locator("section.recalled-round")
    expect(recalled).to_have_count(10)
    for shown, round_id, (seat, dealer, returned) in zip(recalled.all(), played[1:], ROUNDS[1:]):
        expect(shown).to_have_attribute("data-round", round_id)
        expect(shown).to_have_attribute("data-status", "settled")
        expect(shown.locator("tr[data-dealer] [data-cards]")).to_have_text(" ".join(dealer))
        expect(shown.locator('tr[data-seat="1"] [data-cards]')).to_have_text(" ".join(seat))
        expect(shown.locator("[data-staked]")).to_have_attribute("data-staked", "1000")
        expect(shown.locator("[data-returned-total]")).to_have_attribute("data-returned-total", str(returned))

    chosen = page.locator(f"#round-{played[4]}")
    chosen.get_by_role("button", name="Re-verify against the ledger").click()
    expect(page.locator(f"#round-{played[4]} [data-verdict]")).to_have_attribute("data-verdict", "agrees")
    expect(page.locator("[data-verdict]")).to_have_count(1)
    shot(page, "recall")
    shot_of(page.locator(f"#round-{played[4]}"), "recall-round")
    with page.expect_download() as transcript:
        page.locator(f"#round-{played[4]}").get_by_role("link", name="Download the transcript (JSON)").click()
    dealt = [step for step in script(*ROUNDS[4][:2]) if isinstance(step, str)]
    assert json.loads(transcript.value.path().read_text())["cards"] == dealt

    handle = 1000 * len(ROUNDS)
    paid = sum(returned for _, _, returned in ROUNDS)
    visit(page, "/console/reports")
    page.get_by_label("Gaming day").fill(gaming_day_of_rounds(live, db, table_id).isoformat())
    page.get_by_role("button", name="Show").click()
    row = page.locator("table.report tbody tr").filter(has_text=table_id)
    expect(row.locator("td.num").nth(3)).to_have_text(f"${handle // 100}.00")
    expect(row.locator("td.num").nth(5)).to_have_text(f"${(handle - paid) // 100}.00")
    shot(page, "reports")
    with page.expect_download() as report:
        page.get_by_role("link", name="Download CSV").click()
    lines = {line["table_id"]: line for line in csv.DictReader(io.StringIO(report.value.path().read_text()))}
    line = lines[table_id]
    assert (line["rounds"], line["handle"], line["paid_out"], line["game_win"]) \
        == (str(len(ROUNDS)), str(handle), str(paid), str(handle - paid))

    visit(page, "/console/audit")
    search = page.locator("#search")
    search.get_by_label("Table").fill(table_id)
    search.get_by_label("Kind").fill("round_voided")
    search.get_by_role("button", name="Search").click()
    expect(page.get_by_text("No record matches.")).to_be_visible()
    search.get_by_label("Kind").fill("payout")
    search.get_by_role("button", name="Search").click()
    expect(page.locator("table.audit-records tbody tr")).not_to_have_count(0)
    expect(page.locator("table.audit-records tbody tr").first.locator("td").nth(5)).to_have_text(table_id)
    shot(page, "audit")
    page.locator("#verify").get_by_role("button", name="Verify the audit log").click()
    # The settlement worker checks the log; the verification's page follows it to the verdict.
    expect(page.get_by_role("heading", level=1)).to_have_text("Audit log verification")
    expect(page.locator("#verify [data-verdict]")).to_have_attribute("data-verdict", "intact", timeout=60_000)
    expect(page.locator("#verify")).to_contain_text(re.compile(r"[1-9]\d* settled rounds"))
    shot(page, "audit-verification")
    visit(page, "/console/audit")
    expect(page.locator("#verify table.verifications tbody tr").first).to_have_attribute("data-status", "intact")
    page.locator("#export").get_by_label("Format").select_option("jsonl")
    with page.expect_download() as export:
        page.locator("#export").get_by_role("button", name="Export").click()
    saved = tmp_path / "audit.jsonl"
    export.value.save_as(saved)
    records = [json.loads(line) for line in saved.read_text().splitlines()]
    assert {record["round_id"] for record in records if record.get("round_id")} >= set(played)
    checked = pontoon(live.env, "audit", "verify", str(saved))
    assert checked.returncode == 0, checked.stdout + checked.stderr
