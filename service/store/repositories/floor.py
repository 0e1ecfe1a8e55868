"""The pit's read side: every table with its shoe, its round in play and its gaming day so far, in one
statement."""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psycopg.rows import dict_row, kwargs_row

from ..transaction import Statements
from .rounds import RoundEvent
from .tables import TableRow


@dataclass(frozen=True, slots=True)
class FloorShoe:
    """A table's open shoe: `cards_dealt` is what has left it (a virtual shoe's position, or the
    cards a physical shoe's dealer has reported)."""

    shoe_id: uuid.UUID
    mode: str                       # virtual | physical
    commitment: str | None
    cards_dealt: int
    opened_at: datetime


@dataclass(frozen=True, slots=True)
class FloorRound:
    """A table's round in play, with every event it has had and what its replay needs."""

    round_id: uuid.UUID
    shoe_id: uuid.UUID | None
    shoe_mode: str | None
    rules_ref: str
    paytable_ref: str | None
    wagers: list[dict[str, Any]]
    version: int
    opened_at: datetime
    events: list[RoundEvent]
    kitty_before: int | None        # a player-banked round's kitty (None for the house-banked game)


@dataclass(frozen=True, slots=True)
class FloorDay:
    """A table's rounds and money between two instants (its gaming day so far), as the table report
    counts them: rounds by the time they opened; handle and paid out are the ledger's stakes and
    returns but for void refunds (handed back, neither won nor lost)."""

    rounds: int                     # settled
    voided_rounds: int
    unsettled_rounds: int           # open, or complete and waiting for settlement: no money yet
    handle: int
    paid_out: int
    void_refunds: int
    # The player-banked game's own figures (nothing at a house-banked table): the players' stakes
    # with their buys and their shoot bets, from the settled rounds' results, and the banker's net
    # from the ledger (seat 0).
    stakes: int = 0
    buys: int = 0
    shoot_bets: int = 0
    banker_net: int = 0


@dataclass(frozen=True, slots=True)
class FloorTableRow:
    table: TableRow
    state: dict[str, Any]           # what a player-banked table carries between rounds
    shoe: FloorShoe | None
    open_round: FloorRound | None
    day: FloorDay


# One row per table: its open shoe (at most one, shoes_one_open_per_table), its open round (at most
# one, rounds_one_open_per_table) with that round's events gathered into one JSON array, and its
# rounds and ledger money from starts_at to ends_at. Each table's rounds of the period are found
# through rounds (table_id, opened_at) and their ledger rows through ledger (table_id, created_at):
# a round's ledger rows are written at its settlement or void, after it opened, so none of them is
# older than the period's start. The work grows with the day's play at the table, never with the
# years of rounds the database keeps.
_FLOOR = """
SELECT t.table_id, t.game, t.rules, t.rules_version, t.paytable, t.paytable_version, t.pending_paytable_version,
       t.limits, t.created_by, t.created_at, t.state,
       s.shoe_id, s.mode AS shoe_mode, s.commitment,
       CASE WHEN s.mode = 'physical' THEN jsonb_array_length(s.dealt) ELSE s.position END AS cards_dealt,
       s.opened_at AS shoe_opened_at,
       r.round_id, r.shoe_id AS round_shoe_id, rs.mode AS round_shoe_mode, r.rules_ref, r.paytable_ref, r.wagers,
       r.version, r.opened_at AS round_opened_at, e.events, tr.kitty_before,
       d.rounds, d.voided_rounds, d.unsettled_rounds,
       coalesce(m.handle, 0)::bigint AS handle, coalesce(m.paid_out, 0)::bigint AS paid_out,
       coalesce(m.void_refunds, 0)::bigint AS void_refunds,
       coalesce(pb.stakes, 0)::bigint AS stakes, coalesce(pb.buys, 0)::bigint AS buys,
       coalesce(pb.shoot_bets, 0)::bigint AS shoot_bets, coalesce(m.banker_net, 0)::bigint AS banker_net
FROM tables t
LEFT JOIN shoes s ON s.table_id = t.table_id AND s.closed_at IS NULL
LEFT JOIN rounds r ON r.table_id = t.table_id AND r.status = 'open'
LEFT JOIN shoes rs ON rs.shoe_id = r.shoe_id
LEFT JOIN traditional_rounds tr ON tr.round_id = r.round_id
LEFT JOIN LATERAL (
    SELECT jsonb_agg(jsonb_build_object('seq', re.seq, 'kind', re.kind, 'payload', re.payload) ORDER BY re.seq)
           AS events
    FROM round_events re WHERE re.round_id = r.round_id
) e ON r.round_id IS NOT NULL
CROSS JOIN LATERAL (
    SELECT count(*) FILTER (WHERE p.status = 'settled') AS rounds,
           count(*) FILTER (WHERE p.status = 'void') AS voided_rounds,
           count(*) FILTER (WHERE p.status IN ('open', 'complete')) AS unsettled_rounds
    FROM rounds p
    WHERE p.table_id = t.table_id AND p.opened_at >= %(starts_at)s AND p.opened_at < %(ends_at)s
) d
CROSS JOIN LATERAL (
    SELECT sum(l.stake) FILTER (WHERE l.kind <> 'void_refund') AS handle,
           sum(l.returned) FILTER (WHERE l.kind <> 'void_refund') AS paid_out,
           sum(l.returned) FILTER (WHERE l.kind = 'void_refund') AS void_refunds,
           sum(l.returned - l.stake) FILTER (WHERE t.game = ANY(%(player_banked)s) AND l.seat = 0) AS banker_net
    FROM rounds p JOIN ledger_entries l ON l.round_id = p.round_id
    WHERE p.table_id = t.table_id AND p.opened_at >= %(starts_at)s AND p.opened_at < %(ends_at)s
      AND l.table_id = t.table_id AND l.created_at >= %(starts_at)s
) m
CROSS JOIN LATERAL (
    -- A player-banked round's result lists each player's hands with its stake (buys included),
    -- its buys and its shoot bets; a house-banked result has no players.
    SELECT sum((h->>'stake')::bigint) AS stakes,
           sum((SELECT coalesce(sum(b::bigint), 0) FROM jsonb_array_elements_text(h->'buys') b)) AS buys,
           sum((h->>'shoot')::bigint) AS shoot_bets
    FROM rounds p
    CROSS JOIN LATERAL jsonb_array_elements(coalesce(p.result->'players', '[]'::jsonb)) pl
    CROSS JOIN LATERAL jsonb_array_elements(pl->'hands') h
    WHERE p.table_id = t.table_id AND p.status = 'settled' AND t.game = ANY(%(player_banked)s)
      AND p.opened_at >= %(starts_at)s AND p.opened_at < %(ends_at)s
) pb
WHERE %(table_id)s::text IS NULL OR t.table_id = %(table_id)s
ORDER BY t.table_id
"""


class FloorRepository:
    def __init__(self, db: Statements) -> None:
        self.db = db

    def tables(self, starts_at: datetime | None = None, ends_at: datetime | None = None,
               table_id: str | None = None, player_banked: tuple[str, ...] = ()) -> list[FloorTableRow]:
        """Every table (or the one named), in table order, with its shoe, its round in play, and
        its rounds and money from starts_at to ends_at (a gaming day; none without them); for the
        `player_banked` games, the players' stakes and the banker's net too."""
        params = {"starts_at": starts_at, "ends_at": ends_at, "table_id": table_id,
                  "player_banked": list(player_banked)}
        with self.db.cursor(row_factory=kwargs_row(_row)) as cur:
            return cur.execute(_FLOOR, params).fetchall()

    def table_ids(self) -> list[str]:
        """Every table's id, in order (for a page's choice of table)."""
        with self.db.cursor(row_factory=dict_row) as cur:
            return [row["table_id"] for row in cur.execute("SELECT table_id FROM tables ORDER BY table_id")]


def _row(*, state: dict[str, Any] | None, shoe_id: uuid.UUID | None, shoe_mode: Any, commitment: Any,
         cards_dealt: Any, shoe_opened_at: Any, round_id: uuid.UUID | None, round_shoe_id: Any,
         round_shoe_mode: Any, rules_ref: Any, paytable_ref: Any, wagers: Any, version: Any, round_opened_at: Any,
         events: list[dict[str, Any]] | None, kitty_before: int | None, rounds: int, voided_rounds: int,
         unsettled_rounds: int, handle: int, paid_out: int, void_refunds: int, stakes: int, buys: int,
         shoot_bets: int, banker_net: int, **table: Any) -> FloorTableRow:
    """One table's row of _FLOOR, by column name: the table's own columns are TableRow's; a shoe's
    and a round's are NULL (Any here) when the table has none open."""
    shoe = (FloorShoe(shoe_id, shoe_mode, commitment, cards_dealt, shoe_opened_at)
            if shoe_id is not None else None)
    open_round = None
    if round_id is not None:
        stored = [RoundEvent(event["seq"], event["kind"], event["payload"]) for event in events or ()]
        open_round = FloorRound(round_id, round_shoe_id, round_shoe_mode, rules_ref, paytable_ref,
                                wagers, version, round_opened_at, stored, kitty_before)
    return FloorTableRow(TableRow(**table), state or {}, shoe, open_round,
                         FloorDay(rounds, voided_rounds, unsettled_rounds, handle, paid_out, void_refunds, stakes,
                                  buys, shoot_bets, banker_net))
