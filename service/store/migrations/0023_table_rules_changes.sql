-- A table's rules change under four-eyes control, as a paytable version does: an operator proposes
-- another rules file of the table's game with a reason, a different operator approves it (or any
-- operator rejects it), and it applies when the table's next shoe opens: between shoes, never to
-- a shoe or a round already in play. Every step is also in the audit log.
CREATE TABLE table_rules_changes (
    change_id       bigserial PRIMARY KEY,
    table_id        text NOT NULL REFERENCES tables (table_id),
    from_rules      text NOT NULL,                 -- the rules file stem in force when proposed
    to_rules        text NOT NULL,                 -- the rules file stem proposed
    status          text NOT NULL DEFAULT 'proposed'
                    CHECK (status IN ('proposed', 'approved', 'rejected', 'applied')),
    proposed_by     text NOT NULL,
    proposed_at     timestamptz NOT NULL DEFAULT now(),
    reason          text NOT NULL,
    decided_by      text,
    decided_at      timestamptz,
    decision_reason text,
    changes         jsonb,                         -- the knobs that differ, kept with the approval
    applied_at      timestamptz,
    applied_shoe_id uuid REFERENCES shoes (shoe_id),
    CHECK ((status = 'proposed') = (decided_by IS NULL)),
    CHECK ((status = 'applied') = (applied_at IS NOT NULL)),
    CHECK (from_rules <> to_rules)
);
-- One change at a time waits for a table: proposed, or approved and waiting for the next shoe.
CREATE UNIQUE INDEX table_rules_changes_one_waiting ON table_rules_changes (table_id)
    WHERE status IN ('proposed', 'approved');

-- The service proposes, decides and applies changes; none is ever deleted.
GRANT SELECT, INSERT, UPDATE ON table_rules_changes TO pontoon_app;
REVOKE DELETE, TRUNCATE ON table_rules_changes FROM pontoon_app;

-- A player-banked table limits its stake, buy, shoot bet and kitty by those names: a table made
-- before its limits were checked against its game named its stake `main`, and kept limits for bets
-- the game has not, which nothing ever read. The stake's limit is renamed; the others are dropped.
UPDATE tables
SET limits = (SELECT coalesce(jsonb_object_agg(CASE WHEN key = 'main' THEN 'stake' ELSE key END, value), '{}'::jsonb)
              FROM jsonb_each(limits)
              WHERE key IN ('main', 'stake', 'buy', 'shoot', 'kitty')
                AND NOT (key = 'main' AND limits ? 'stake'))
WHERE game = 'traditional' AND limits <> '{}'::jsonb;
