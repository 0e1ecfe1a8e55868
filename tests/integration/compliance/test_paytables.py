"""Paytable change control: file seeds, drafts validated field by field, four-eyes approval with
the house edge measured, assignment waiting for the table's next round, versions never edited."""
from __future__ import annotations

import threading
from typing import Any

import psycopg
import pytest
import yaml

from bench.processes import scratch_database
from service.commands.migrate import Prepared, prepare_database
from service.operators.seed import seed_file_versions
from service.rules.registry import paytables_dir
from service.settlement.connection import connect
from service.store.repositories.audit import AuditRepository
from service.store.repositories.paytables import PaytablesRepository
from tests.support.api_client import ok
from tests.support.scripted_rounds import play_script

NAME = "canberra-standard"
MAIN_WIN = 2000     # a 1000 wager won at 1:1 comes back doubled


def standard() -> dict:
    with open(f"{paytables_dir()}/{NAME}.yaml", encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def with_pair_odds(odds: str) -> dict:
    document = standard()
    document.pop("version")
    document["side_bets"]["pair"]["pays"]["pair"] = odds
    return document


def submit(operator, document: dict, reason: str = "pair bet promotion") -> dict:
    return ok(operator.post(f"/v1/paytables/{NAME}/versions", {"reason": reason, "content": document}), 201)


# One seat with a pair bet: the pair (9H 9C) wins, and 18 beats the dealer's 17 (7D KD).
PAIR_AND_EIGHTEEN = ["9H", "7D", "9C", {"seat": 1, "hand": 0, "action": "stand"}, "KD"]


def settled_under_pair_odds(odds: str, operator, second_operator, new_table, settle, evaluate
                            ) -> tuple[str, Any, int, dict]:
    """A table given a new version paying the pair at `odds` (evaluated, and approved by a second
    operator) and one round settled under it: (table, its terminal, the version, the round's last state)."""
    table_id, terminal = new_table()
    version = submit(operator, with_pair_odds(odds))["version"]
    evaluate(NAME, version)
    ok(approve(second_operator, version, "ok"), 200)
    ok(operator.post(f"/v1/tables/{table_id}/paytable", {"version": version, "reason": "promotion"}), 200)
    state = play_script(terminal, table_id, [{"seat": 1, "wager": 1000, "pair_bet": 500}], PAIR_AND_EIGHTEEN)
    settle([state["round_id"]])
    return table_id, terminal, version, state


def approve(api, version: int, reason: str, name: str = NAME):
    """The key's person approves the version, confirming it with their password."""
    return api.post(f"/v1/paytables/{name}/versions/{version}/approve", api.confirmed({"reason": reason}))


def audit_of(db, kind: str, version: int) -> list[tuple]:
    return db.execute("SELECT actor, payload FROM audit_log WHERE kind = %s AND payload->>'paytable' = %s "
                      "AND (payload->>'version')::int = %s ORDER BY id", (kind, NAME, version)).fetchall()


def test_the_files_are_version_one_approved_by_system(operator, db):
    listed = {entry["name"]: entry["versions"] for entry in ok(operator.get("/v1/paytables"), 200)}
    first = listed[NAME][0]
    assert first["version"] == 1 and first["status"] == "approved" and first["author"] == "system"
    view = ok(operator.get(f"/v1/paytables/{NAME}/versions/1"), 200)
    assert view["odds"] == {"pontoon": "3:2", "win": "1:1", "doubled_win": "1:1"}
    assert view["side_bets"] == {"pair": {"kind": "pair", "pays": {"pair": "11:1"},
                                          "limits": {"min": 500, "max": 50000}}}
    assert view["bonuses"]["678_spades"] == "3:1" and view["super_bonus"]["envy"] == 5000
    assert [step["step"] for step in view["trail"]][0] == "seeded"
    assert db.execute("SELECT count(*) FROM audit_log WHERE kind = 'paytable_version_seeded' "
                      "AND payload->>'paytable' = %s", (NAME,)).fetchone()[0] == 1


def test_seeding_is_idempotent_and_safe_from_many_processes_at_once():
    with scratch_database("pontoon_seed") as url:
        start = threading.Barrier(4)
        failures: list[BaseException] = []

        def seed() -> None:
            try:
                with connect(url) as conn:
                    start.wait()
                    with conn.transaction():
                        seed_file_versions(PaytablesRepository(conn), AuditRepository(conn))
            except BaseException as exc:  # reported below: a thread's failure must fail the test
                failures.append(exc)

        threads = [threading.Thread(target=seed) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not failures, failures
        with psycopg.connect(url) as conn:
            rows = conn.execute("SELECT name, count(*) FROM paytable_versions GROUP BY name").fetchall()
            seeded = conn.execute("SELECT payload->>'paytable', count(*) FROM audit_log "
                                  "WHERE kind = 'paytable_version_seeded' GROUP BY 1").fetchall()
            with conn.transaction():
                assert seed_file_versions(PaytablesRepository(conn), AuditRepository(conn)) == []
        assert rows and all(count == 1 for _, count in rows)
        assert dict(seeded) == dict(rows)
        assert prepare_database(url) == Prepared(applied=[], seeded=[])


def test_reading_paytables_writes_nothing(operator, db):
    before = db.execute("SELECT count(*), max(id) FROM audit_log").fetchone()
    ok(operator.get("/v1/paytables"), 200)
    ok(operator.get(f"/v1/paytables/{NAME}/versions"), 200)
    ok(operator.get(f"/v1/paytables/{NAME}/versions/1"), 200)
    assert db.execute("SELECT count(*), max(id) FROM audit_log").fetchone() == before


def test_a_bad_document_is_refused_naming_each_bad_field(operator):
    document = standard()
    document["odds"]["pontoon"] = "0:1"
    document["odds"]["win"] = "-1:1"
    document["odds"]["royal_flush"] = "9:1"
    document["bonuses"]["9_card_blah"] = "2:1"
    document["super_bonus"]["prizes"][0]["wager_below"] = 0
    document["version"] = 99
    reply = operator.post(f"/v1/paytables/{NAME}/versions", {"reason": "typos", "content": document})
    assert reply.status == 422 and reply.body["code"] == "invalid_paytable", reply.body
    errors = reply.body["errors"]
    for field in ("odds.pontoon", "odds.win", "odds.royal_flush", "bonuses.9_card_blah",
                  "super_bonus.prizes[0].wager_below", "version"):
        assert field in errors and errors[field], (field, errors)
    assert "positive" in errors["odds.pontoon"][0] and "unknown hand name" in errors["bonuses.9_card_blah"][0]


@pytest.mark.parametrize("body, field", [
    ({"reason": "x", "yaml": "odds: [unclosed"}, "yaml"),
    ({"reason": "x", "yaml": "a: &x [1]\nb: *x\n"}, "yaml"),
    ({"reason": "x", "yaml": "just text"}, "(document)"),
    ({"reason": "x", "content": {"name": "other", "odds": {"pontoon": "3:2", "win": "1:1"}}}, "name"),
    ({"reason": "x"}, "content"),
    ({"reason": "x", "yaml": "a: 1", "content": {}}, "content"),
    ({"reason": "   ", "content": {"odds": {"pontoon": "3:2", "win": "1:1"}}}, "reason"),
    ({"content": {"odds": {"pontoon": "3:2", "win": "1:1"}}}, "reason"),
])
def test_malformed_submissions_are_422_with_the_field(operator, body, field):
    reply = operator.post(f"/v1/paytables/{NAME}/versions", body)
    assert reply.status == 422 and field in reply.body["errors"], reply.body


def test_an_unknown_paytable_is_404(operator):
    assert operator.post("/v1/paytables/no-such-table/versions", {"reason": "x", "yaml": "a: 1"}).status == 404
    assert operator.get("/v1/paytables/no-such-table/versions/1").status == 404
    assert operator.get(f"/v1/paytables/{NAME}/versions/999").status == 404


def test_four_eyes_approval_and_the_trail(operator, second_operator, db, evaluate):
    draft = submit(operator, with_pair_odds("12:1"))
    assert draft["status"] == "draft" and draft["side_bets"]["pair"]["pays"] == {"pair": "12:1"}
    assert draft["changes"] == [{"path": "side_bets.pair.pays.pair", "change": "changed", "before": "11:1",
                                 "after": "12:1"},
                                {"path": "version", "change": "changed", "before": 1, "after": draft["version"]}]
    version = draft["version"]
    own = approve(operator, version, "looks right")
    assert own.status == 403 and own.body["code"] == "own_draft"
    assert audit_of(db, "paytable_approval_refused", version), "the refusal is audited"
    assert ok(operator.get(f"/v1/paytables/{NAME}/versions/{version}"), 200)["status"] == "draft"

    early = approve(second_operator, version, "too soon")
    assert early.status == 409 and early.body["code"] == "evaluation_under_way", early.body
    assert "still being measured" in early.body["message"]
    assert evaluate(NAME, version) == "done"
    measured = ok(operator.get(f"/v1/paytables/{NAME}/versions/{version}/evaluation"), 200)
    assert measured["status"] == "done" and measured["method"] == "exact" and measured["attempts"] == 1

    approved = ok(approve(second_operator, version, "checked against the promotion sheet"), 200)
    assert approved["status"] == "approved"
    assert approved["house_edge_percent"] is not None and approved["rtp_percent"] is not None
    assert approved["house_edge_percent"] + approved["rtp_percent"] == pytest.approx(100)
    assert approved["house_edge_percent"] == measured["house_edge_percent"], "approval keeps what was measured"
    assert approved["evaluation"]["method"] == "exact" and approved["evaluation"]["bonus_lines"]
    # The pair bet at 12:1 is kept with the approval as what it is: the player's edge, 4/191.
    assert approved["evaluation"]["side_bets"]["pair"]["house_edge"] == "-4/191"
    assert [step["step"] for step in approved["trail"]] == ["submitted", "approved"]
    assert approved["trail"][1]["reason"] == "checked against the promotion sheet"
    again = approve(second_operator, version, "twice")
    assert again.status == 409 and again.body["code"] == "not_a_draft"

    [(author, submitted)] = audit_of(db, "paytable_version_submitted", version)
    assert submitted["reason"] == "pair bet promotion"
    assert submitted["before"]["side_bets"]["pair"]["pays"]["pair"] == "11:1"
    assert submitted["after"]["side_bets"]["pair"]["pays"]["pair"] == "12:1"
    assert submitted["changes"][0]["path"] == "side_bets.pair.pays.pair"
    [(approver, decided)] = audit_of(db, "paytable_version_approved", version)
    assert approver != author and decided["before"]["status"] == "draft" and decided["after"]["status"] == "approved"


def test_a_yaml_draft_keeps_its_text_and_can_be_rejected_by_its_author(operator):
    text = yaml.safe_dump(with_pair_odds("10:1"), sort_keys=False) + "# a comment kept in the source\n"
    draft = ok(operator.post(f"/v1/paytables/{NAME}/versions", {"reason": "lower pair", "yaml": text}), 201)
    assert draft["source_format"] == "yaml" and draft["side_bets"]["pair"]["pays"]["pair"] == "10:1"
    rejected = ok(operator.post(f"/v1/paytables/{NAME}/versions/{draft['version']}/reject",
                                {"reason": "withdrawn"}), 200)
    assert rejected["status"] == "rejected" and rejected["house_edge_percent"] is None


def test_only_approved_versions_can_be_assigned(operator, second_operator, new_table):
    table_id, _ = new_table()
    draft = submit(operator, with_pair_odds("13:1"))
    refused = operator.post(f"/v1/tables/{table_id}/paytable", {"version": draft["version"], "reason": "early"})
    assert refused.status == 409 and refused.body["code"] == "not_approved"
    ok(second_operator.post(f"/v1/paytables/{NAME}/versions/{draft['version']}/reject", {"reason": "no"}), 200)
    assert operator.post(f"/v1/tables/{table_id}/paytable",
                         {"version": draft["version"], "reason": "late"}).body["code"] == "not_approved"
    missing = operator.post(f"/v1/tables/{table_id}/paytable", {"version": 999, "reason": "typo"})
    assert missing.status == 422 and "version" in missing.body["errors"]
    same = operator.post(f"/v1/tables/{table_id}/paytable", {"version": 1, "reason": "noop"})
    assert same.status == 409 and same.body["code"] == "already_assigned"


def test_an_assignment_waits_for_the_next_round(operator, second_operator, new_table, db, evaluate):
    table_id, terminal = new_table()
    version = submit(operator, with_pair_odds("12:1"), reason="pair promotion")["version"]
    evaluate(NAME, version)
    ok(approve(second_operator, version, "ok"), 200)
    wagers = [{"seat": 1, "wager": 1000, "pair_bet": 500}]
    pair_round = PAIR_AND_EIGHTEEN

    in_play = play_script(terminal, table_id, wagers, pair_round, stop_after=3)
    assigned = ok(operator.post(f"/v1/tables/{table_id}/paytable", {"version": version, "reason": "promotion"}), 200)
    assert assigned["version"] == 1 and assigned["pending_version"] == version and assigned["round_open"]
    finished = _finish(terminal, in_play, pair_round[3:])
    assert finished["paytable"] == f"{NAME}@1", "the round in play keeps the version it opened under"
    assert _returned(db, finished["round_id"]) == MAIN_WIN + 500 + 11 * 500

    table = ok(operator.get(f"/v1/tables/{table_id}/paytable"), 200)
    assert table["version"] == 1 and table["pending_version"] == version, "nothing applies between rounds"
    after = play_script(terminal, table_id, wagers, pair_round)
    assert after["paytable"] == f"{NAME}@{version}"
    assert _returned(db, after["round_id"]) == MAIN_WIN + 500 + 12 * 500
    table = ok(operator.get(f"/v1/tables/{table_id}/paytable"), 200)
    assert table["version"] == version and table["pending_version"] is None
    assert table["assignments"][-1]["applied_round_id"] == after["round_id"]
    assert ok(operator.get(f"/v1/tables/{table_id}"), 200)["paytable"] == f"{NAME}@{version}"
    trail = ok(operator.get(f"/v1/paytables/{NAME}/versions/{version}"), 200)["trail"]
    assert [step["step"] for step in trail] == ["submitted", "approved", "assigned", "applied"]
    [(_, record)] = db.execute("SELECT actor, payload FROM audit_log WHERE kind = 'paytable_assigned' "
                               "AND table_id = %s", (table_id,)).fetchall()
    assert record["before"] == {"paytable_version": 1, "pending_version": None}
    assert record["after"] == {"paytable_version": 1, "pending_version": version} and record["reason"] == "promotion"


def _finish(terminal, state: dict, steps: list) -> dict:
    for step in steps:
        path = "cards" if isinstance(step, str) else "actions"
        state = ok(terminal.post(f"/v1/rounds/{state['round_id']}/{path}",
                                 {"card": step} if isinstance(step, str) else step), 200)
    assert state["status"] == "complete"
    return state


def _returned(db, round_id: str) -> int:
    """Seat 1's return in the result stored when the round completed."""
    [(result,)] = db.execute("SELECT result FROM rounds WHERE round_id = %s", (round_id,)).fetchall()
    return result["seats"][0]["returned"]


def test_versions_are_never_edited_or_deleted(database_url, operator):
    draft = submit(operator, with_pair_odds("14:1"))
    with connect(database_url) as conn:  # the application's own role
        for statement, params in (
                ("UPDATE paytable_versions SET content = content || '{\"x\": 1}' WHERE name = %s AND version = 1",
                 (NAME,)),
                ("UPDATE paytable_versions SET reason = 'rewritten' WHERE name = %s AND version = %s",
                 (NAME, draft["version"])),
                ("DELETE FROM paytable_versions WHERE name = %s AND version = %s", (NAME, draft["version"])),
                # Four eyes hold in the table itself, not only in the handler.
                ("UPDATE paytable_versions SET status = 'approved', decided_by = author, decided_at = now(), "
                 "decision_reason = 'mine' WHERE name = %s AND version = %s", (NAME, draft["version"]))):
            with pytest.raises(psycopg.Error):
                with conn.transaction():
                    conn.execute(statement, params)
    kept = ok(operator.get(f"/v1/paytables/{NAME}/versions/{draft['version']}"), 200)
    assert kept["status"] == "draft" and kept["side_bets"]["pair"]["pays"]["pair"] == "14:1"
    assert ok(operator.get(f"/v1/paytables/{NAME}/versions/1"), 200)["content"].get("x") is None


def test_a_round_under_an_assigned_version_settles_at_its_odds(operator, second_operator, new_table, settle, db,
                                                               evaluate):
    _, _, _, state = settled_under_pair_odds("15:1", operator, second_operator, new_table, settle, evaluate)
    assert db.execute("SELECT returned FROM ledger_entries WHERE round_id = %s AND kind = 'pair'",
                      (state["round_id"],)).fetchone()[0] == 500 + 15 * 500


def test_a_round_under_a_stored_version_replays_and_verifies_at_its_odds(
        operator, second_operator, new_table, settle, database_url, monkeypatch, evaluate):
    from service.audit.verify import verify_database
    from service.replay import replay_data
    _, terminal, version, state = settled_under_pair_odds("13:1", operator, second_operator, new_table, settle,
                                                          evaluate)
    transcript = ok(terminal.get(f"/v1/rounds/{state['round_id']}/transcript"), 200)
    assert transcript["paytable"] == f"{NAME}@{version}"
    monkeypatch.setenv("DATABASE_URL", database_url)
    replayed = replay_data(transcript)
    # the pair at 13:1 (7000) and 18 beating the dealer's 17 (2000)
    assert replayed["seats"][0]["returned"] == 500 + 13 * 500 + 2000
    with psycopg.connect(database_url) as conn:
        report = verify_database(conn)
    assert report.rounds >= 1 and not report.problems, report.problems


@pytest.mark.parametrize("where, value, field", [
    ("pair", "100000000000000000000000:1", "side_bets.pair.pays.pair"),
    ("pair", "1_000:1", "side_bets.pair.pays.pair"),
    ("envy", 10**30, "super_bonus.envy"),
    ("prize", 10**19, "super_bonus.prizes[0].prize"),
])
def test_numbers_past_what_a_paytable_may_hold_are_refused_at_submission(operator, where, value, field):
    document = with_pair_odds("12:1")
    if where == "pair":
        document["side_bets"]["pair"]["pays"]["pair"] = value
    elif where == "envy":
        document["super_bonus"]["envy"] = value
    else:
        document["super_bonus"]["prizes"][0]["prize"] = value
    reply = operator.post(f"/v1/paytables/{NAME}/versions", {"reason": "too generous", "content": document})
    assert reply.status == 422, reply.body
    assert any(key.endswith(field) or field in key for key in reply.body["errors"]), reply.body


def test_a_draft_whose_house_edge_no_game_could_have_is_not_approved(operator, second_operator, db, evaluate):
    document = with_pair_odds("12:1")
    document["odds"]["pontoon"] = "10000:1"
    draft = submit(operator, document, reason="every pontoon pays ten thousand to one")
    assert evaluate(NAME, draft["version"]) == "done"
    reply = approve(second_operator, draft['version'], "looks fine")
    assert reply.status == 422 and reply.body["code"] == "paytable_out_of_bounds", reply.body
    assert ok(operator.get(f"/v1/paytables/{NAME}/versions/{draft['version']}"), 200)["status"] == "draft"


def _blackjack_draft(operator, **fields) -> dict:
    with open(f"{paytables_dir()}/blackjack.yaml", encoding="utf-8") as handle:
        document = yaml.safe_load(handle)
    document.pop("version")
    document["odds"]["pontoon"] = "6:5"
    document.update(fields)
    return ok(operator.post("/v1/paytables/blackjack/versions", {"reason": "6:5 blackjack", "content": document}), 201)


def test_a_paytable_is_measured_under_the_rules_it_is_dealt_under(operator, second_operator, evaluate):
    """The blackjack paytable names the blackjack rules: its house edge is theirs, not Canberra's
    (where a 6:5 blackjack would be measured against another shoe, dealer and set of bonuses)."""
    draft = _blackjack_draft(operator)
    evaluate("blackjack", draft["version"])
    approved = ok(approve(second_operator, draft['version'], "checked", name="blackjack"), 200)
    assert approved["evaluation"]["rules"] == "blackjack-enhc"


@pytest.mark.parametrize("rules", ["british-traditional", "no-such-rules", "canberra@7", "a" * 300])
def test_a_paytable_measured_under_rules_that_are_no_house_banked_game_is_refused_as_submitted(operator, db, rules):
    """No evaluation could measure it, so it could never be approved: it is not taken as a draft."""
    before = db.execute("SELECT max(version) FROM paytable_versions WHERE name = 'blackjack'").fetchone()
    with open(f"{paytables_dir()}/blackjack.yaml", encoding="utf-8") as handle:
        document = yaml.safe_load(handle)
    document.pop("version")
    document["measured_under"] = rules
    reply = operator.post("/v1/paytables/blackjack/versions", {"reason": "6:5 blackjack", "content": document})
    assert reply.status == 422 and reply.body["code"] == "paytable_unmeasurable", reply.body
    assert "measured_under" in reply.body["errors"]
    assert db.execute("SELECT max(version) FROM paytable_versions WHERE name = 'blackjack'").fetchone() == before


def test_a_submission_queues_its_evaluation_for_a_worker(operator, db):
    draft = submit(operator, with_pair_odds("16:1"))
    assert draft["evaluation_status"] == "queued" and draft["house_edge_percent"] is None
    queued = ok(operator.get(f"/v1/paytables/{NAME}/versions/{draft['version']}/evaluation"), 200)
    assert queued["status"] == "queued" and queued["requested_by"] == draft["trail"][0]["by"]
    assert queued["house_edge_percent"] is None and queued["attempts"] == 0
    sent = db.execute("SELECT count(*) FROM outbox WHERE topic = 'evaluate_paytable' AND published_at IS NULL "
                      "AND payload = %s::jsonb", (f'{{"paytable": "{NAME}", "version": {draft["version"]}}}',)
                      ).fetchone()
    assert sent == (1,), "one message for the workers, in the submission's own transaction"
    again = ok(operator.post(f"/v1/paytables/{NAME}/versions/{draft['version']}/evaluation", {}), 202)
    assert again["status"] == "queued" and again["requested_at"] == queued["requested_at"], "the one queued stands"


def test_a_draft_is_rejected_without_waiting_for_its_evaluation(operator, second_operator):
    draft = submit(operator, with_pair_odds("17:1"))
    rejected = ok(second_operator.post(f"/v1/paytables/{NAME}/versions/{draft['version']}/reject",
                                       {"reason": "not this one"}), 200)
    assert rejected["status"] == "rejected" and rejected["house_edge_percent"] is None


def test_a_seeded_version_is_measured_when_an_operator_asks(operator, compliance, evaluate):
    # The blackjack file's version 1: no other test here asks for its evaluation (the role matrix
    # asks for canberra-standard's).
    never = ok(compliance.get("/v1/paytables/blackjack/versions/1/evaluation"), 200)
    assert never["status"] is None and never["house_edge_percent"] is None
    assert compliance.post("/v1/paytables/blackjack/versions/1/evaluation", {}).status == 403
    asked = ok(operator.post("/v1/paytables/blackjack/versions/1/evaluation", {}), 202)
    assert asked["status"] == "queued"
    assert evaluate("blackjack", 1) == "done"
    assert evaluate("blackjack", 1) is None, "a second delivery of the message finds it done"
    done = ok(compliance.get("/v1/paytables/blackjack/versions/1/evaluation"), 200)
    assert done["status"] == "done" and done["house_edge_percent"] + done["rtp_percent"] == pytest.approx(100)
    assert operator.get(f"/v1/paytables/{NAME}/versions/99999/evaluation").status == 404


def test_a_yaml_draft_writing_a_key_twice_is_refused(operator):
    text = yaml.safe_dump(with_pair_odds("10:1"), sort_keys=False) + "name: canberra-standard\n"
    reply = operator.post(f"/v1/paytables/{NAME}/versions", {"reason": "twice", "yaml": text})
    assert reply.status == 422 and "written twice" in str(reply.body["errors"]), reply.body
