-- An index that keeps the metrics scrape's "rounds awaiting settlement" and the sweep's stale-round
-- query off a full scan of rounds. (IF NOT EXISTS: a database migrated before this file took its
-- present name has the index already, under the same name.)

CREATE INDEX IF NOT EXISTS rounds_awaiting_settlement ON rounds (completed_at) WHERE status = 'complete';
