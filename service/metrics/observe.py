"""Business observations: rounds completed (from the API) and rounds settled (from settlement)."""
from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Iterable
from functools import partial
from typing import Any

from .definitions import metrics
from .flask_hooks import defer_until_committed


def observe_round_completed(table_id: str, outcome: str) -> None:
    """Count a completed round by table and outcome, in its game's words for it (house_won,
    banker_won, players_won, push). Inside a request it counts only once the request has succeeded
    (its transaction committed); a retried request answered from the idempotency store never
    reaches here, so nothing counts twice."""
    observation = partial(_count_completed, table_id, outcome)
    if not defer_until_committed(observation):
        observation()


def _count_completed(table_id: str, outcome: str) -> None:
    metrics().rounds_completed.labels(table_id, outcome).inc()


def observe_access_refused(status: int, reason: str) -> None:
    """Count a request refused before a valid key was known, at once: the refusal is the answer,
    whatever happens to the request's transaction."""
    metrics().access_refused.labels(str(status), reason).inc()


def observe_settled(settled: Iterable[Any], lags: Iterable[float]) -> None:
    """After a settling transaction committed: rounds settled and money staked and returned by
    table and bet kind (from the players' ledger rows just written), and the complete-to-settled
    lag of each round (as the store read them back). `settled` holds objects with `round_id`,
    `table_id` and `ledger` (rows with table_id, kind, stake, returned)."""
    recorded = metrics()
    staked: Tally = Tally()
    returned: Tally = Tally()
    for round_ in settled:
        recorded.rounds_settled.labels(round_.table_id).inc()
        for row in round_.ledger:
            # The players' side only: in the player-banked game the banker (seat 0) and the kitty
            # (seat -1) are the other side of every transfer, and counted too they would make
            # every kind's staked equal its returned.
            if row.seat >= 1:
                staked[row.table_id, row.kind] += row.stake
                returned[row.table_id, row.kind] += row.returned
    for (table_id, kind), cents in staked.items():
        recorded.money_staked.labels(table_id, kind).inc(cents)
    for (table_id, kind), cents in returned.items():
        recorded.money_returned.labels(table_id, kind).inc(cents)
    for lag in lags:
        recorded.settlement_lag.observe(max(lag, 0.0))
