-- Verifications of the whole audit log, asked for in the console and run by a worker: a log of
-- months takes longer to check than a web request may last. A row is the request, its progress
-- while a worker holds it, and its verdict once done.
CREATE TABLE audit_verifications (
    verification_id  uuid PRIMARY KEY,
    requested_by     text NOT NULL,                    -- the actor who asked, as the audit log names them
    requested_at     timestamptz NOT NULL DEFAULT now(),
    status           text NOT NULL DEFAULT 'queued'
                     CHECK (status IN ('queued', 'running', 'intact', 'broken', 'failed')),
    attempts         integer NOT NULL DEFAULT 0,       -- times a worker took it up
    started_at       timestamptz,
    heartbeat_at     timestamptz,                      -- moved on as the worker checks; a stale one means it died
    finished_at      timestamptz,
    records          bigint NOT NULL DEFAULT 0,        -- so far while running, in all once done
    chains           integer NOT NULL DEFAULT 0,
    shoes            integer NOT NULL DEFAULT 0,
    rounds           bigint NOT NULL DEFAULT 0,
    problem_count    integer NOT NULL DEFAULT 0,
    problems         jsonb NOT NULL DEFAULT '[]',      -- the first problems found, as text
    notes            jsonb NOT NULL DEFAULT '[]',
    error            text                              -- why a failed run could not finish
);
-- One verification at a time: asking again while one is waiting or running joins that one.
CREATE UNIQUE INDEX audit_verifications_one_under_way ON audit_verifications ((true))
    WHERE status IN ('queued', 'running');
CREATE INDEX audit_verifications_newest ON audit_verifications (requested_at DESC);
