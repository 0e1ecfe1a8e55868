"""Cuts a backlog of rounds into settlement batches: one table per batch, a bounded size."""
from __future__ import annotations

from collections import defaultdict

BATCH_SIZE = 200  # rounds per settle transaction: large enough for COPY to pay, small enough to hold locks briefly


def batches_by_table(rounds: list[tuple[str, str]], size: int = BATCH_SIZE) -> list[list[str]]:
    """Round ids from (round_id, table_id) pairs, grouped by table and cut into chunks of
    `size`. A batch then appends to one audit chain only, so batches of different tables
    settle side by side instead of queueing on each other's chain heads."""
    by_table: dict[str, list[str]] = defaultdict(list)
    for round_id, table_id in rounds:
        by_table[table_id].append(round_id)
    batches: list[list[str]] = []
    for table in sorted(by_table):
        ids = by_table[table]
        batches.extend(ids[start:start + size] for start in range(0, len(ids), size))
    return batches
