-- Operations: the benchmark floor's table (one durable INSERT per request, nothing else), and an
-- index that keeps the metrics scrape's "rounds awaiting settlement" and the sweep's stale-round
-- query off a full scan of rounds.

CREATE TABLE ops_floor (
    id          bigserial PRIMARY KEY,
    key_id      uuid NOT NULL,                       -- who asked: the same key check as every endpoint
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- Default privileges from 0002 cover tables created later by the migrating role; granted here
-- too so the migration does not depend on who ran 0002.
GRANT SELECT, INSERT ON ops_floor TO pontoon_app;
GRANT USAGE, SELECT ON SEQUENCE ops_floor_id_seq TO pontoon_app;

CREATE INDEX rounds_awaiting_settlement ON rounds (completed_at) WHERE status = 'complete';
