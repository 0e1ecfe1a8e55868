"""The money counters settlement feeds: the players' side of every ledger row."""
from __future__ import annotations

import uuid
from types import SimpleNamespace

from service.metrics.observe import observe_settled
from service.store.repositories.ledger import NO_HAND, LedgerRow
from tests.support.metrics import sample


def _row(table: str, seat: int, kind: str, stake: int, returned: int) -> LedgerRow:
    return LedgerRow(str(uuid.uuid4()), table, None, "british-traditional@1", None, seat, NO_HAND, kind, stake,
                     returned, kind)


def test_a_player_banked_rounds_money_is_counted_on_the_players_side():
    table = f"T{uuid.uuid4().hex[:6]}"
    # Seat 1 busts and pays the banker 100; the banker pays seat 2 200; seat 2's shoot bet of 50
    # comes from the kitty. Each transfer is a row for the payer and a row for the payee.
    ledger = [_row(table, 1, "bust", 100, 0), _row(table, 0, "bust", 0, 100),
              _row(table, 0, "win", 200, 0), _row(table, 2, "win", 0, 200),
              _row(table, -1, "shoot-won", 50, 0), _row(table, 2, "shoot-won", 0, 50)]
    observe_settled([SimpleNamespace(round_id=ledger[0].round_id, table_id=table, ledger=ledger)], lags=[])

    def cents(name: str, kind: str) -> float:
        return sample(f"pontoon_money_{name}_cents_total", table=table, kind=kind)

    assert [cents("staked", kind) for kind in ("bust", "win", "shoot-won")] == [100, 0, 0]
    assert [cents("returned", kind) for kind in ("bust", "win", "shoot-won")] == [0, 200, 50]
