-- Staff accounts (people signing in to the console, each as themselves), their server-side
-- sessions, and the service's own generated secrets. API keys stay for terminals and automation.

CREATE TABLE staff_users (
    user_id          uuid PRIMARY KEY,
    username         text NOT NULL UNIQUE CHECK (username ~ '^[a-z][a-z0-9._-]{1,31}$'),
    display_name     text NOT NULL CHECK (length(display_name) BETWEEN 1 AND 100),
    role             text NOT NULL CHECK (role IN ('admin', 'operator', 'supervisor', 'compliance')),
    active           boolean NOT NULL DEFAULT true,
    password_hash    text NOT NULL,                  -- argon2id, with its parameters and salt
    failed_attempts  integer NOT NULL DEFAULT 0 CHECK (failed_attempts >= 0),  -- in a row, since the last sign-in
    locked_until     timestamptz,
    totp_secret      text,                           -- base32; NULL: no second factor enrolled
    totp_last_step   bigint,                         -- the 30-second step of the last code accepted: each code works once
    created_by       text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    last_sign_in_at  timestamptz,
    deactivated_at   timestamptz
);

-- A session's token lives only in its holder's cookie; the row keeps its SHA-256, so a copy of the
-- database signs nobody in.
CREATE TABLE staff_sessions (
    session_id    uuid PRIMARY KEY,
    token_hash    text NOT NULL UNIQUE,
    user_id       uuid NOT NULL REFERENCES staff_users (user_id),
    created_at    timestamptz NOT NULL DEFAULT now(),
    last_seen_at  timestamptz NOT NULL DEFAULT now(),
    ended_at      timestamptz,
    ended_reason  text                              -- signed_out | deactivated | password_reset | ...
);
CREATE INDEX staff_sessions_open_by_user ON staff_sessions (user_id) WHERE ended_at IS NULL;

-- Secrets the service generates once and every process shares (the console's signing key when
-- none is configured): written once, never changed by the service.
CREATE TABLE service_secrets (
    name        text PRIMARY KEY,
    value       text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- Default privileges from 0002 cover tables created later by the migrating role; granted here too
-- so the migration does not depend on who ran 0002. Accounts and sessions are never deleted (the
-- audit log names them); a secret is never rewritten.
GRANT SELECT, INSERT, UPDATE ON staff_users, staff_sessions TO pontoon_app;
REVOKE DELETE, TRUNCATE ON staff_users, staff_sessions FROM pontoon_app;
GRANT SELECT, INSERT ON service_secrets TO pontoon_app;
REVOKE UPDATE, DELETE, TRUNCATE ON service_secrets FROM pontoon_app;
