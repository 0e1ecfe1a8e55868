"""openapi.yaml as a terminal vendor uses it: a Python client generated from it (openapi-python-client,
with no warning) type-checks with mypy, and plays rounds at a table of the running stack through its
generated functions only: a table, its terminal key, shoes, rounds with wagers and side bets, cards,
decisions, a refused decision read with its legal ones, a replayed retry, the settlement a worker
wrote and the transcript, whose replay gives the same money."""
from __future__ import annotations

import importlib
import itertools
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import psycopg
import pytest

from bench.processes import Processes
from service.replay import replay_data
from tests.browser.stack import LiveStack
from tests.conftest import ROOT
from tests.support.app_fixtures import chained_key

PACKAGE = "pontoon_client"
BIN = Path(sys.executable).parent
# The generator's own transport wrapper (client.py, the same for every document) passes `*args:
# object` to httpx's typed __exit__, which mypy refuses whatever the document says; every module
# written from the document (its models and operations) is held to no error at all.
MYPY_CONFIG = f"[mypy]\nno_incremental = True\n\n[mypy-{PACKAGE}.client]\nignore_errors = True\n"
# Cards a physical shoe of four decks without tens holds, each card as many times as the shoe has it.
CARDS = [rank + suit for rank, suit in zip("A23456789JQK" * 4, itertools.cycle("SHDC"))]
# The house-banked game's decisions a simple player never needs at its first decision.
UNLIKELY_FIRST = ("forfeit", "split", "surrender", "double")
SETTLED_WITHIN = 60.0   # seconds: the worker settles a round shortly after it completes


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Iterator[ModuleType]:
    """The client generated from the committed document, importable as `pontoon_client`."""
    where = tmp_path_factory.mktemp("generated")
    # The generator formats what it writes with ruff, which it finds on PATH (the environment's own).
    path = os.pathsep.join([str(BIN), os.environ.get("PATH", "")])
    run = subprocess.run([str(BIN / "openapi-python-client"), "generate", "--path", str(ROOT / "openapi.yaml"),
                          "--meta", "none", "--output-path", str(where / PACKAGE)],
                         cwd=where, capture_output=True, text=True, timeout=300, env={**os.environ, "PATH": path})
    said = (run.stdout + run.stderr).strip().splitlines()
    assert run.returncode == 0 and said == [f"Generating {where / PACKAGE}"], "\n".join(said)
    sys.path.insert(0, str(where))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(where))
        for name in [name for name in sys.modules if name == PACKAGE or name.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def test_the_generated_client_type_checks(generated):
    where = Path(generated.__file__).parent.parent
    (where / "mypy.ini").write_text(MYPY_CONFIG)
    run = subprocess.run([sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--cache-dir", "/dev/null",
                          "-p", PACKAGE], cwd=where, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.fixture(scope="module")
def stack(database_url, tmp_path_factory) -> Iterator[LiveStack]:
    """The API under gunicorn, a settlement worker and the relay, as `make run` starts them."""
    processes = Processes(tmp_path_factory.mktemp("stack-logs"))
    live = LiveStack(database_url, processes, tmp_path_factory.mktemp("stack-run"))
    try:
        live.start()
        yield live
    except BaseException:
        print(processes.logs())
        raise
    finally:
        processes.stop_all()


class Vendor:
    """The generated client as a terminal vendor's code calls it: operations by tag and name,
    models by name; every answer a status the document lists (anything else raises)."""

    def __init__(self, package: ModuleType, base_url: str) -> None:
        self.package = package
        self.models = importlib.import_module(f"{package.__name__}.models")
        self.base_url = base_url

    def client(self, secret: str) -> Any:
        return self.package.AuthenticatedClient(base_url=self.base_url, token=secret,
                                                raise_on_unexpected_status=True)

    def call(self, tag: str, operation: str, client: Any, *args: Any, **kwargs: Any) -> Any:
        module = importlib.import_module(f"{self.package.__name__}.api.{tag}.{operation}")
        return module.sync_detailed(*args, client=client, **kwargs)

    def ok(self, status: int, answer: Any) -> Any:
        assert answer.status_code == status and not isinstance(answer.parsed, self.models.Error), answer.content
        return answer.parsed

    def refused(self, status: int, code: str, answer: Any) -> Any:
        assert answer.status_code == status, answer.content
        error = answer.parsed
        assert isinstance(error, self.models.Error) and error.code == code, answer.content
        return error


def decision(vendor: Vendor, state: Any) -> Any:
    """What a simple player decides for the hand in turn: stand where it may, else hit, else the
    first decision allowed (never insurance, which the seat need not take)."""
    names = [legal.action for legal in state.in_turn.legal_actions if legal.action != "insurance"]
    action = "stand" if "stand" in names else "hit" if "hit" in names else names[0]
    return vendor.models.HandDecision(seat=state.in_turn.seat, hand=state.in_turn.hand,
                                      action=vendor.models.HandDecisionAction(action))


def settled(vendor: Vendor, terminal: Any, round_id: uuid.UUID) -> Any:
    """The round once a worker has settled it, read through the client."""
    deadline = time.monotonic() + SETTLED_WITHIN
    while True:
        state = vendor.ok(200, vendor.call("rounds", "get_round", terminal, round_id))
        if state.settlement is not None or time.monotonic() > deadline:
            return state
        time.sleep(0.2)


def same_money_as_its_replay(vendor: Vendor, terminal: Any, state: Any) -> Any:
    """The round's transcript, read through the client, replays to the settlement it shows."""
    transcript = vendor.ok(200, vendor.call("rounds", "get_transcript", terminal, state.round_id))
    assert isinstance(transcript, vendor.models.Transcript)
    assert state.settlement is not None, "no worker settled the round"
    replayed = replay_data(transcript.to_dict())
    money = ("seat", "staked", "returned", "net")
    assert [seat.to_dict() for seat in state.settlement.seats] == \
        [{name: seat[name] for name in money} for seat in replayed["seats"]]
    return transcript


@pytest.fixture(scope="module")
def table(generated, stack, database_url) -> tuple[Vendor, Any, str]:
    """A house-banked table created, and its terminal's key issued, with an admin's key; the
    terminal's client bound to it."""
    vendor = Vendor(generated, stack.url)
    with psycopg.connect(database_url) as conn:   # the first key is issued on the host (`pontoon keys create`)
        admin = vendor.client(chained_key(conn, "admin", None, "vendor test admin"))
    models = vendor.models
    table_id = f"VENDOR-{uuid.uuid4().hex[:8]}"
    created = vendor.ok(201, vendor.call("tables", "create_table", admin, body=models.CreateHouseBankedTable(
        table_id=table_id, rules=models.CreateHouseBankedTableRules("canberra"),
        paytable=models.CreateHouseBankedTablePaytable("canberra-standard"))))
    assert isinstance(created, models.Table) and created.current_shoe is None
    read = vendor.ok(200, vendor.call("tables", "get_table", admin, table_id))
    assert read.table_id == table_id and "pair" in read.side_bets   # the paytable's side bet, with its limits
    key = vendor.ok(201, vendor.call("keys", "create_key", admin, body=models.CreateTerminalKey(
        role=models.CreateTerminalKeyRole.TERMINAL, table_id=table_id, name="vendor's terminal")))
    assert key.table_id == table_id
    return vendor, vendor.client(key.secret), table_id


def test_a_round_on_a_virtual_shoe(table):
    vendor, terminal, table_id = table
    models = vendor.models
    shoe = vendor.ok(201, vendor.call("tables", "open_shoe", terminal, table_id,
                                      body=models.OpenShoe(mode=models.ShoeMode.VIRTUAL)))
    assert shoe.closed_shoe is None and shoe.commitment
    wagers = [models.Wager(seat=1, wager=1000, side_bets=models.SideBetStakes.from_dict({"pair": 500})),
              models.Wager(seat=2, wager=2000)]
    for _ in range(20):   # a round the deal completes (a Pontoon, say) waits for no decision: deal another
        state = vendor.ok(201, vendor.call("tables", "open_round", terminal, table_id,
                                           body=models.OpenHouseBankedRound(wagers=wagers)))
        if state.awaiting == models.Awaiting.DECISION:
            break
    else:
        pytest.fail("twenty rounds in a row waited for no decision")
    assert isinstance(state.in_turn, models.InTurn) and state.seats[0].side_bets.to_dict() == {"pair": 500}

    # A decision the rules do not allow now is refused with the ones they do.
    allowed = {legal.action for legal in state.in_turn.legal_actions}
    illegal = next(name for name in UNLIKELY_FIRST if name not in allowed)
    refused = vendor.refused(409, "decision_refused", vendor.call(
        "rounds", "post_decision", terminal, state.round_id, body=models.HandDecision(
            seat=state.in_turn.seat, hand=state.in_turn.hand, action=models.HandDecisionAction(illegal))))
    assert refused.legal_actions and all(isinstance(legal, models.LegalAction) for legal in refused.legal_actions)
    assert {legal.action for legal in refused.legal_actions} == {legal.action for legal in state.legal_actions}

    first = True
    while state.awaiting == models.Awaiting.DECISION:
        key = f"decision-{uuid.uuid4().hex}"
        body = decision(vendor, state)
        answer = vendor.call("rounds", "post_decision", terminal, state.round_id, body=body, idempotency_key=key,
                             if_match=str(state.revision))
        after = vendor.ok(200, answer)
        if first:   # the same decision sent again with its key is the first answer, replayed
            again = vendor.call("rounds", "post_decision", terminal, state.round_id, body=body,
                                idempotency_key=key, if_match=str(state.revision))
            assert vendor.ok(200, again).to_dict() == after.to_dict()
            assert again.headers.get("Idempotent-Replayed") == "true" and "Idempotent-Replayed" not in answer.headers
            first = False
        state = after
    assert state.status == models.RoundStatus.COMPLETE and state.awaiting is None and state.in_turn is None

    state = settled(vendor, terminal, state.round_id)
    assert state.status == models.RoundStatus.SETTLED
    transcript = same_money_as_its_replay(vendor, terminal, state)
    assert [(seat.seat, seat.wager, seat.side_bets.to_dict() if seat.side_bets else {})
            for seat in transcript.seats] == [(1, 1000, {"pair": 500}), (2, 2000, {})]


def test_a_round_on_a_physical_shoe(table):
    vendor, terminal, table_id = table
    models = vendor.models
    vendor.ok(201, vendor.call("tables", "open_shoe", terminal, table_id,
                               body=models.OpenShoe(mode=models.ShoeMode.PHYSICAL)))
    state = vendor.ok(201, vendor.call("tables", "open_round", terminal, table_id, body=models.OpenHouseBankedRound(
        wagers=[models.Wager(seat=3, wager=1500)])))
    assert state.shoe_mode == models.ShoeMode.PHYSICAL and state.awaiting == models.Awaiting.CARD
    cards, reported = iter(CARDS), []
    while state.awaiting is not None:
        if state.awaiting == models.Awaiting.CARD:
            reported.append(next(cards))
            answer = vendor.call("rounds", "report_card", terminal, state.round_id,
                                 body=models.Card(card=reported[-1]), if_match=str(state.revision))
        else:
            answer = vendor.call("rounds", "post_decision", terminal, state.round_id, body=decision(vendor, state))
        state = vendor.ok(200, answer)
    assert state.dealer is not None and len(state.dealer.cards) >= 2
    state = settled(vendor, terminal, state.round_id)
    transcript = same_money_as_its_replay(vendor, terminal, state)
    assert transcript.cards == reported
