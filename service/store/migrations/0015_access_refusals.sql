-- Requests refused before a valid key is known (no key, a malformed or unknown one): counted per
-- source and minute here, not chained one by one, so that anyone who can reach the service cannot
-- fill the audit log. Once its minute is over each row becomes one access_refused_summary record
-- (chained = true); the application prunes chained rows after a day.
CREATE TABLE access_refusals (
    source   text NOT NULL,                        -- the client's address as the server saw it
    minute   timestamptz NOT NULL,
    refused  bigint NOT NULL,
    reasons  jsonb NOT NULL,                       -- reason -> count
    chained  boolean NOT NULL DEFAULT false,
    PRIMARY KEY (source, minute)
);
CREATE INDEX access_refusals_to_chain ON access_refusals (minute) WHERE NOT chained;
GRANT SELECT, INSERT, UPDATE, DELETE ON access_refusals TO pontoon_app;
