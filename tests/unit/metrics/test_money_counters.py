"""The money counters settlement feeds: the players' side of every ledger row."""
from __future__ import annotations

import uuid
from types import SimpleNamespace

import psycopg

from service.metrics.definitions import metrics
from service.metrics.observe import observe_settled
from service.store.repositories.ledger import NO_HAND, LedgerRow


class _NoDatabase:
    """The lag is read back from the database; here it is away, which loses only the lag."""

    def transaction(self):
        raise psycopg.OperationalError("no database here")


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
    observe_settled(_NoDatabase(), [SimpleNamespace(round_id=ledger[0].round_id, table_id=table, ledger=ledger)])
    staked, returned = metrics().money_staked, metrics().money_returned
    assert [staked.labels(table, kind)._value.get() for kind in ("bust", "win", "shoot-won")] == [100, 0, 0]
    assert [returned.labels(table, kind)._value.get() for kind in ("bust", "win", "shoot-won")] == [0, 200, 50]
