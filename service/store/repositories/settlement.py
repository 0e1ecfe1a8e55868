"""Rounds as settlement finds them: complete ones locked for a batch with their events, stale ones
for the sweep, the batch marked settled, and what still waits to be settled."""
from __future__ import annotations

import json
from dataclasses import dataclass

from psycopg.rows import class_row, dict_row

from ..transaction import Statements, returned
from .rounds import RoundStatus


@dataclass(frozen=True)
class CompletedRound:
    """A round as stored when it completed: what settlement reads."""

    round_id: str
    table_id: str
    shoe_id: str | None
    rules_ref: str
    paytable_ref: str | None
    wagers: list[dict]
    result: dict | None
    kitty: int | None = None    # the player-banked game: the Shoot kitty the round was played against
    limits: dict | None = None  # its table's own limits, which the round was played under


@dataclass(frozen=True)
class SettlementBacklog:
    """What waits to be settled: rounds complete and not yet settled, how long the oldest has
    waited (0 when none does), and outbox rows not yet published to the workers."""

    rounds_awaiting: int
    oldest_awaiting_seconds: float
    outbox_unpublished: int


class SettlementRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    def lock_complete(self, round_ids: list[str]) -> list[CompletedRound]:
        """Those of the rounds still complete, locked in id order. SKIP LOCKED: a round another
        settler holds is that settler's; if it rolls back, the round stays complete and the task's
        retry or the sweep settles it."""
        with self.db.cursor(row_factory=class_row(CompletedRound)) as cur:
            return cur.execute(
                "SELECT round_id::text AS round_id, table_id, shoe_id::text AS shoe_id, rules_ref, paytable_ref, "
                "wagers, result, "
                "(SELECT t.kitty_before FROM traditional_rounds t WHERE t.round_id = rounds.round_id) AS kitty, "
                "(SELECT t.limits FROM tables t WHERE t.table_id = rounds.table_id) AS limits "
                "FROM rounds WHERE round_id = ANY(%s::uuid[]) AND status = 'complete' "
                "ORDER BY round_id FOR UPDATE SKIP LOCKED", (round_ids,)).fetchall()

    def events_of(self, round_ids: list[str]) -> dict[str, list[tuple[str, dict]]]:
        """Each round's events as (kind, payload) in seq order, aggregated by the server: one row
        (and one JSON parse) per round instead of one per card."""
        if not round_ids:
            return {}
        with self.db.cursor(row_factory=dict_row) as cur:
            rows = cur.execute(
                "SELECT round_id::text AS round_id, "
                "json_agg(json_build_object('kind', kind, 'payload', payload) ORDER BY seq) AS events "
                "FROM round_events WHERE round_id = ANY(%s::uuid[]) GROUP BY round_id", (round_ids,)).fetchall()
        return {row["round_id"]: [(event["kind"], event["payload"]) for event in row["events"]] for row in rows}

    def mark_settled(self, round_ids: list[str], missing_results: dict[str, dict]) -> None:
        """The rounds settled (status, settled_at, version); `missing_results` fills in the result
        of a round that completed without one stored (the result stored at completion is kept)."""
        self.db.execute("UPDATE rounds SET status = 'settled', settled_at = now(), version = version + 1 "
                        "WHERE round_id = ANY(%s::uuid[]) AND status = 'complete'", (round_ids,))
        if missing_results:
            self.db.execute("UPDATE rounds AS r SET result = v.result::jsonb "
                            "FROM unnest(%s::uuid[], %s::text[]) AS v(round_id, result) "
                            "WHERE r.round_id = v.round_id",
                            (list(missing_results), [json.dumps(result) for result in missing_results.values()]))

    def statuses(self, round_ids: list[str]) -> dict[str, RoundStatus]:
        """The status of each of these rounds this database holds, in id order: a round missing
        is another floor's; one still complete is still waiting to be settled."""
        if not round_ids:
            return {}
        with self.db.cursor(row_factory=dict_row) as cur:
            rows = cur.execute("SELECT round_id::text AS round_id, status FROM rounds "
                               "WHERE round_id = ANY(%s::uuid[]) ORDER BY round_id", (round_ids,)).fetchall()
        return {row["round_id"]: RoundStatus(row["status"]) for row in rows}

    def settlement_lags(self, round_ids: list[str]) -> list[float]:
        """Seconds from completion to settlement of each of these rounds that has both."""
        with self.db.cursor(row_factory=dict_row) as cur:
            rows = cur.execute("SELECT extract(epoch FROM settled_at - completed_at)::float8 AS lag FROM rounds "
                               "WHERE round_id = ANY(%s::uuid[]) AND completed_at IS NOT NULL "
                               "AND settled_at IS NOT NULL", (round_ids,)).fetchall()
        return [row["lag"] for row in rows]

    def backlog(self) -> SettlementBacklog:
        """What waits to be settled, in one statement (the metrics read it at every scrape)."""
        with self.db.cursor(row_factory=class_row(SettlementBacklog)) as cur:
            return returned(cur.execute(
                "SELECT (SELECT count(*) FROM rounds WHERE status = 'complete') AS rounds_awaiting, "
                "       (SELECT COALESCE(extract(epoch FROM now() - min(completed_at)), 0)::float8 "
                "          FROM rounds WHERE status = 'complete') AS oldest_awaiting_seconds, "
                "       (SELECT count(*) FROM outbox WHERE published_at IS NULL) AS outbox_unpublished").fetchone())

    def stale(self, older_than_seconds: float, limit: int) -> list[tuple[str, str]]:
        """(round_id, table_id) of rounds complete for longer than the given age, oldest first."""
        with self.db.cursor(row_factory=dict_row) as cur:
            rows = cur.execute(
                "SELECT round_id::text AS round_id, table_id FROM rounds WHERE status = 'complete' "
                "AND COALESCE(completed_at, opened_at) < now() - make_interval(secs => %s) "
                "ORDER BY COALESCE(completed_at, opened_at) LIMIT %s", (older_than_seconds, limit)).fetchall()
        return [(row["round_id"], row["table_id"]) for row in rows]
