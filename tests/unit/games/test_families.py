"""The game families: found by a table's game or its rules' game, each answering for its own game."""
from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from service.engine.play import play_transcript
from service.engine.transcript import parse_transcript
from service.games import FAMILIES, SHOE_DEALT_GAMES, UnknownGame, family_named, family_of
from service.refusals import Conflict
from service.rules import Ref, load_paytable, load_rules

ROOT = Path(__file__).parents[3]
TRANSCRIPTS = ROOT / "tests" / "fixtures" / "transcripts"
RULES = sorted(path.stem for path in (ROOT / "rules_config").glob("*.yaml"))


@pytest.mark.parametrize("name", RULES)
def test_every_rules_file_has_a_family_by_its_game(name):
    rules = load_rules(name)
    family = family_of(rules)
    assert family is family_named(rules.game) and family.game == rules.game


def test_the_registry_knows_the_two_games_and_nothing_else():
    assert set(FAMILIES) == {"canberra", "traditional"}
    assert SHOE_DEALT_GAMES == ("canberra",)
    with pytest.raises(UnknownGame):
        family_named("baccarat")


def test_only_the_house_banked_game_takes_a_paytable_and_is_measured():
    canberra, traditional = family_named("canberra"), family_named("traditional")
    assert canberra.needs_paytable and canberra.evaluates_paytables
    assert not traditional.needs_paytable and not traditional.evaluates_paytables


def test_seat_zero_is_the_bankers_only_where_there_is_a_banker():
    family_named("traditional").check_seat(0)
    with pytest.raises(Conflict):   # a well-formed seat this game does not have
        family_named("canberra").check_seat(0)


def test_limits_are_the_tables_or_the_rules():
    rules = load_rules("canberra")
    limits = family_named("canberra").effective_limits(rules, {"main": {"min": 500, "max": 9000}})
    # A side bet's limits are its paytable's: a table that sets none for it shows none of its own.
    assert limits == {"main": {"min": 500, "max": 9000}}
    own = family_named("canberra").effective_limits(rules, {"pair": {"min": 100, "max": 200}})
    assert own == {"main": {"min": rules.main_limits.minimum, "max": rules.main_limits.maximum},
                   "pair": {"min": 100, "max": 200}}
    assert family_named("traditional").effective_limits(load_rules("british-traditional"), None) == {}


def test_a_wager_the_tables_rules_refuse_is_a_conflict_in_either_game():
    with pytest.raises(Conflict):
        family_named("canberra").start(load_rules("canberra"), load_paytable("canberra-standard"),
                                       [{"seat": 1, "wager": 1}], None, None)
    with pytest.raises(Conflict):
        family_named("traditional").start(load_rules("british-traditional"), None, [{"seat": 99, "stake": 100}],
                                          None, None)


def _played(path: Path):
    transcript = json.loads(path.read_text())
    parsed = parse_transcript(transcript)
    rules = load_rules(Ref.parse(parsed.rules).name, parsed.options or None)
    paytable = load_paytable(Ref.parse(parsed.paytable).name) if parsed.paytable else None
    return play_transcript(rules, paytable, parsed)


def _stored(result=None, paytable_ref=None):
    return SimpleNamespace(round_id="00000000-0000-0000-0000-000000000001", table_id="T-1", shoe_id=None,
                           rules_ref="r@1", paytable_ref=paytable_ref, result=result)


@pytest.mark.parametrize("path", sorted(p for p in TRANSCRIPTS.glob("**/*.json")
                                        if not p.name.endswith(".expected.json") and not p.name.startswith("err-")),
                         ids=lambda p: p.stem)
def test_settlement_ledger_matches_the_result_and_a_disagreeing_result_is_refused(path):
    played = _played(path)
    family = family_of(played.rules)
    result = played.result()
    ledger, audit = family.settle(_stored(result), played, result)
    assert ledger and audit
    assert all(record.kind in ("payout", "super_bonus_won") for record in audit)
    if family.game == "traditional":
        assert sum(row.returned - row.stake for row in ledger) == 0, "transfers sum to zero"
    else:
        net = {seat["seat"]: seat["returned"] - seat["staked"] for seat in result["seats"]}
        by_seat: dict[int, int] = {}
        for row in ledger:
            by_seat[row.seat] = by_seat.get(row.seat, 0) + row.returned - row.stake
        assert by_seat == net
    tampered = json.loads(json.dumps(result))
    if family.game == "traditional":
        tampered["banker"]["net"] += 1
    else:
        tampered["seats"][0]["returned"] += 1
    with pytest.raises(ValueError):
        family.settle(_stored(tampered), played, result)


def test_transcripts_name_a_paytable_only_in_the_house_banked_game():
    for path in (TRANSCRIPTS / "dealer-bust.json", TRANSCRIPTS / "traditional" / "banker-five-card-trick.json"):
        played = _played(path)
        family = family_of(played.rules)
        shown = family.transcript(played, "x@1", "p@2" if family.needs_paytable else None)
        assert shown["rules"] == "x@1"
        assert shown["paytable"] == ("p@2" if family.needs_paytable else None)
