"""The game families: found by a table's game or its rules' game, each answering for its own game."""
from __future__ import annotations

import json
import uuid
from pathlib import Path
from types import SimpleNamespace

import pytest

from service.engine.play import play_transcript, start_round
from service.engine.transcript import parse_transcript
from service.games import FAMILIES, SHOE_DEALT_GAMES, UnknownGame, family_named, family_of
from service.refusals import Conflict
from service.rules import Ref, load_paytable, load_rules
from service.store.repositories.traditional import RoundSetup

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
    # The player-banked game shows the rules' own figures, kind by kind (a buy's most is twice the
    # largest stake; a shoot bet's the largest kitty), and a table's own in their place.
    traditional = family_named("traditional")
    assert traditional.effective_limits(load_rules("british-traditional"), None) == {
        "stake": {"min": 100, "max": 10000}, "buy": {"min": 100, "max": 20000}}
    assert traditional.effective_limits(load_rules("shoot-pontoon"), {"stake": {"min": 500, "max": 2000}}) == {
        "stake": {"min": 500, "max": 2000}, "buy": {"min": 500, "max": 4000},
        "shoot": {"min": 100, "max": 100000}, "kitty": {"min": 500, "max": 100000}}


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


def test_a_request_may_name_every_games_decisions_and_only_them():
    from service.engine.games.canberra import CanberraRound
    from service.engine.games.traditional import TraditionalRound
    from service.games import DECISIONS

    assert set(DECISIONS) == {*CanberraRound.DECISIONS, *TraditionalRound.DECISIONS}
    for family in FAMILIES.values():
        assert family.amount_decisions <= set(family.decisions)


@pytest.mark.parametrize("game", sorted(FAMILIES))
def test_every_game_has_each_of_its_own_parts_of_the_consoles_pages(game):
    from service.games import game_view

    templates = ROOT / "service" / "games" / "templates"
    for part in ("round_in_play", "floor_shoe", "table_facts", "recall_hands"):
        assert (templates / game_view(game, part)).is_file(), f"{game} has no {part}"


def test_a_rules_file_is_read_by_its_games_family_as_by_the_registry():
    from service.rules.reader import Reader
    from service.rules.registry import parse_yaml

    for name in ("canberra", "british-traditional"):
        rules = load_rules(name)
        document = parse_yaml((ROOT / "rules_config" / f"{name}.yaml").read_text())
        reader = Reader(document)
        assert family_of(rules).read_rules(reader, {}) == rules and not reader.errors


def test_the_house_banked_family_refuses_option_overrides_naming_them():
    from service.rules.reader import Reader
    from service.rules.registry import parse_yaml

    reader = Reader(parse_yaml((ROOT / "rules_config" / "canberra.yaml").read_text()))
    assert family_named("canberra").read_rules(reader, {"burn": 13}) is None
    assert "options" in reader.errors


def test_the_words_for_an_outcome_are_each_games_own():
    canberra, traditional = family_named("canberra"), family_named("traditional")
    assert canberra.outcome({"seats": [{"seat": 1, "staked": 1000, "returned": 0}]}) == "house_won"
    assert canberra.outcome({"seats": [{"seat": 1, "staked": 1000, "returned": 2000}]}) == "players_won"
    assert traditional.outcome({"banker": {"net": 0}, "players": []}) == "push"
    assert traditional.outcome({"banker": {"net": 500}, "players": []}) == "banker_won"


def test_recall_and_the_floor_show_the_bank_only_where_a_player_holds_it():
    played = _played(TRANSCRIPTS / "traditional" / "banker-five-card-trick.json")
    snapshot = played.snapshot()
    # The round was dealt with the bank at the fourth chair (place 3): the pit counts chairs from 1.
    uow = SimpleNamespace(traditional=SimpleNamespace(round_setup=lambda round_id: RoundSetup(3, 0)))
    row = SimpleNamespace(round_id=uuid.uuid4())
    recalled = family_named("traditional").recall_fields(uow, row, played, snapshot)
    assert (recalled["banker"], recalled["players"]) == (snapshot["banker"], snapshot["players"])
    assert recalled["bank"]["banker_chair"] == 4 and recalled["bank"]["banker_net"] == played.net("banker")
    assert family_named("traditional").floor_fields({"banker_place": 3, "kitty": 500}) == {
        "banker_place": 3, "banker_chair": 4, "kitty": 500, "since_shuffle": None}
    assert family_named("traditional").floor_fields(None) == {"banker_place": 0, "banker_chair": 1, "kitty": 0,
                                                              "since_shuffle": None}
    house = _played(TRANSCRIPTS / "dealer-bust.json")
    assert family_named("canberra").recall_fields(uow, row, house, house.snapshot()) == {}
    assert family_named("canberra").floor_fields(None) == {}


@pytest.mark.parametrize("path", [TRANSCRIPTS / "dealer-bust.json",
                                  TRANSCRIPTS / "traditional" / "banker-five-card-trick.json"], ids=lambda p: p.stem)
def test_a_family_starts_a_transcripts_round_as_the_engine_does(path):
    parsed = parse_transcript(json.loads(path.read_text()))
    rules = load_rules(parsed.rules.split("@")[0], parsed.options or None)
    paytable = load_paytable(parsed.paytable.split("@")[0]) if parsed.paytable else None
    started = family_of(rules).round_from_transcript(rules, paytable, parsed)
    assert started.snapshot() == start_round(rules, paytable, parsed).snapshot()
