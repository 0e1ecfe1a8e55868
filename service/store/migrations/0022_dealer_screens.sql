-- The dealer's screen: a browser at one table, enrolled by an admin or a supervisor with a one-time
-- code, on which a dealer (a staff account of the role `dealer`, signing in with a PIN) deals; and
-- the dealer's calls for a supervisor. Tokens and codes live only with their holders: each row
-- keeps an HMAC of its token under the service's signing key (from outside the database), so a row
-- written by hand, or a copy of the database, enrols no screen and signs nobody in.

ALTER TABLE staff_users DROP CONSTRAINT staff_users_role_check;
ALTER TABLE staff_users ADD CONSTRAINT staff_users_role_check
    CHECK (role IN ('admin', 'operator', 'supervisor', 'compliance', 'dealer'));
COMMENT ON COLUMN staff_users.password_hash IS 'argon2id of the password (of the PIN, for a dealer)';

-- A screen enrolled for a table: the device cookie's token, kept as its HMAC.
CREATE TABLE dealer_screens (
    screen_id      uuid PRIMARY KEY,
    name           text NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
    table_id       text NOT NULL REFERENCES tables (table_id),
    token_hash     text NOT NULL UNIQUE,
    enrolled_by    text NOT NULL,                   -- who issued the code it was enrolled with (staff:<username>)
    enrolled_at    timestamptz NOT NULL DEFAULT now(),
    last_seen_at   timestamptz,                     -- its last request
    revoked_at     timestamptz,
    revoked_by     text,
    revoke_reason  text,
    CHECK ((revoked_at IS NULL) = (revoked_by IS NULL))
);
-- A live screen's name is the table's own: it is what the round's records name.
CREATE UNIQUE INDEX dealer_screens_live_name ON dealer_screens (table_id, name) WHERE revoked_at IS NULL;

-- A one-time enrolment code: shown once in the console, good for ten minutes and one screen.
CREATE TABLE screen_enrolment_codes (
    code_hash   text PRIMARY KEY,                   -- HMAC of the code under the signing key
    table_id    text NOT NULL REFERENCES tables (table_id),
    name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 64),   -- the screen's, once enrolled
    created_by  text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz,
    screen_id   uuid REFERENCES dealer_screens (screen_id),            -- the screen it enrolled
    CHECK ((used_at IS NULL) = (screen_id IS NULL))
);
CREATE INDEX screen_enrolment_codes_by_table ON screen_enrolment_codes (table_id) WHERE used_at IS NULL;

-- A dealer's session on a screen: checked on every request, with the screen's own token beside it.
CREATE TABLE dealer_sessions (
    session_id    uuid PRIMARY KEY,
    token_hash    text NOT NULL UNIQUE,             -- HMAC of the session cookie's token
    user_id       uuid NOT NULL REFERENCES staff_users (user_id),
    screen_id     uuid NOT NULL REFERENCES dealer_screens (screen_id),
    address       text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    last_seen_at  timestamptz NOT NULL DEFAULT now(),
    ended_at      timestamptz,
    ended_reason  text                              -- signed_out | relieved | screen_revoked | deactivated | ...
);
CREATE INDEX dealer_sessions_open_by_user ON dealer_sessions (user_id) WHERE ended_at IS NULL;
CREATE INDEX dealer_sessions_open_by_screen ON dealer_sessions (screen_id) WHERE ended_at IS NULL;

-- A dealer's call for a supervisor (a misdeal, a dispute): open until a supervisor voids the round
-- or dismisses the call with a reason. One open call per table: a second press is the same call.
CREATE TABLE supervisor_calls (
    call_id        uuid PRIMARY KEY,
    table_id       text NOT NULL REFERENCES tables (table_id),
    screen_id      uuid NOT NULL REFERENCES dealer_screens (screen_id),
    round_id       uuid REFERENCES rounds (round_id),    -- the round open at the table when called, if any
    called_by      text NOT NULL,                        -- staff:<username>
    reason         text,
    called_at      timestamptz NOT NULL DEFAULT now(),
    closed_at      timestamptz,
    closed_by      text,
    outcome        text CHECK (outcome IN ('voided', 'dismissed')),
    closing_reason text,
    CHECK ((closed_at IS NULL) = (outcome IS NULL))
);
CREATE UNIQUE INDEX supervisor_calls_open_at_table ON supervisor_calls (table_id) WHERE closed_at IS NULL;

-- Nothing here is ever deleted (the audit log names the screens, sessions and calls).
GRANT SELECT, INSERT, UPDATE ON dealer_screens, screen_enrolment_codes, dealer_sessions, supervisor_calls
    TO pontoon_app;
REVOKE DELETE, TRUNCATE ON dealer_screens, screen_enrolment_codes, dealer_sessions, supervisor_calls
    FROM pontoon_app;
