"""RoundStateSchema, which the round's answers are dumped through, carries the whole of each game's
view: no field of the view is dropped or changed on its way to the client, only its ids and times
written as text."""
from __future__ import annotations

import dataclasses
import json
import random
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from service.api.schemas.rounds import RoundStateSchema
from service.app import create_app
from service.config import Settings
from service.engine.actions import Action, RuleViolation
from service.engine.play import start_round
from service.engine.shoe import VirtualShoe
from service.engine.transcript import parse_transcript
from service.games import family_of
from service.rounds.views import round_state
from service.rules import Ref, load_paytable, load_rules
from service.store.repositories.rounds import RoundRow
from tests.conftest import worked_rounds

OPENED = datetime(2026, 11, 22, 9, 30, 0, 123456, tzinfo=UTC)
TRADITIONAL = worked_rounds("traditional")


@pytest.fixture(scope="module")
def app():
    app = create_app(Settings.from_env({"DATABASE_URL": "postgresql://unused"}), connect=False)
    with app.app_context():
        yield app


def _row(wagers: list[dict], **changes) -> RoundRow:
    row = RoundRow(uuid.uuid4(), "T-1", uuid.uuid4(), "virtual", "open", "canberra@1", "canberra-standard@1",
                   wagers, 0, None, OPENED, None, None, None)
    return dataclasses.replace(row, **changes)


def _states(seed: int):
    """(row, game) at every step of one round played with random legal decisions, then the round
    complete, settled and void."""
    rng = random.Random(seed)
    rules, paytable = load_rules("canberra"), load_paytable("canberra-standard")
    wagers = [{"seat": seat, "wager": rng.choice((500, 1000, 2500))} for seat in range(1, rng.randint(1, 5) + 1)]
    for wager in wagers:
        if rng.random() < 0.3:
            wager["pair_bet"] = 500
    shoe = VirtualShoe(rules.shoe)
    game = family_of(rules).start(rules, paytable, wagers, None, None)
    row = _row(wagers)
    while game.awaiting is not None:
        if game.awaiting == "card":
            game.deal_card(shoe.deal())
            continue
        yield row, game
        legal = rng.choice(game.legal_actions())
        game.act(Action(legal.seat, legal.action, legal.hand, legal.min_amount))
        row = dataclasses.replace(row, version=row.version + 1)
    result = game.result()
    later = OPENED + timedelta(seconds=rng.randint(1, 90))
    yield dataclasses.replace(row, status="complete", result=result, completed_at=later), game
    yield dataclasses.replace(row, status="settled", result=result, completed_at=later,
                              settled_at=later + timedelta(seconds=2)), game
    yield dataclasses.replace(row, status="void", result=result, completed_at=later, voided_at=later), game


def _as_json(value) -> object:
    """The value as JSON reads it back, its ids and times as text."""
    return json.loads(json.dumps(value, default=lambda v: v.isoformat() if isinstance(v, datetime) else str(v)))


@pytest.mark.parametrize("seed", range(40))
def test_the_schema_carries_the_whole_view(app, seed):
    schema = RoundStateSchema()
    for row, game in _states(seed):
        view = round_state(row, game)
        assert _as_json(schema.dump(view)) == _as_json(view)


def _traditional_states(path: Path):
    """(row, game) at every step of a worked player-banked round, then complete and settled."""
    transcript = json.loads(path.read_text())
    parsed = parse_transcript(transcript)
    rules = load_rules(Ref.parse(parsed.rules).name, parsed.options or None)
    game = start_round(rules, None, parsed)
    row = _row(transcript["players"], rules_ref=parsed.rules, paytable_ref=None)
    cards, actions = list(parsed.cards), list(parsed.actions)
    while game.awaiting is not None and (cards if game.awaiting == "card" else actions):
        yield row, game
        try:
            if game.awaiting == "card":
                game.deal_card(cards.pop(0))
            else:
                game.act(actions.pop(0))
        except RuleViolation:   # a transcript that ends in a refusal: its states up to it
            return
        row = dataclasses.replace(row, version=row.version + 1)
    yield row, game
    if game.awaiting is None:
        result = game.result()
        later = OPENED + timedelta(seconds=30)
        yield dataclasses.replace(row, status="complete", result=result, completed_at=later), game
        yield dataclasses.replace(row, status="settled", result=result, completed_at=later, settled_at=later), game


@pytest.mark.parametrize("path", TRADITIONAL, ids=lambda path: path.stem)
def test_the_schema_carries_the_whole_player_banked_view(app, path):
    schema = RoundStateSchema()
    for row, game in _traditional_states(path):
        view = round_state(row, game)
        assert view["banker"] is not None
        assert _as_json(schema.dump(view)) == _as_json(view)
