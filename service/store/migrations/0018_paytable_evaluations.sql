-- Evaluations of paytable versions: the house edge and RTP under the rules a paytable is dealt
-- under, by the exact analysis (or the simulation where it does not reach), run by a worker since
-- an analysis not cached takes longer than a web request may last. Submitting a draft asks for
-- its evaluation; approval waits for it to be done and keeps its figures with the version. A row
-- is the request, the worker's claim, and the figures (or why they could not be had).
CREATE TABLE paytable_evaluations (
    paytable           text NOT NULL,
    version            integer NOT NULL,
    requested_by       text NOT NULL,                 -- the actor who asked, as the audit log names them
    requested_at       timestamptz NOT NULL DEFAULT now(),
    status             text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
    attempts           integer NOT NULL DEFAULT 0,    -- times a worker took it up
    started_at         timestamptz,
    finished_at        timestamptz,
    house_edge_percent double precision,              -- any figure a document yields: approval bounds it
    rtp_percent        double precision,
    detail             jsonb,                         -- the run behind the figures (method, lines, ...)
    error              text,                          -- why a failed evaluation could not finish
    PRIMARY KEY (paytable, version),
    FOREIGN KEY (paytable, version) REFERENCES paytable_versions (name, version),
    CHECK ((status = 'done') = (house_edge_percent IS NOT NULL AND rtp_percent IS NOT NULL)),
    CHECK ((status = 'failed') = (error IS NOT NULL))
);

-- The service asks for, claims and finishes evaluations; none is ever deleted.
GRANT SELECT, INSERT, UPDATE ON paytable_evaluations TO pontoon_app;
REVOKE DELETE, TRUNCATE ON paytable_evaluations FROM pontoon_app;
