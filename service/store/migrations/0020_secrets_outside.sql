-- The console's signing key no longer lives in the database: it comes from the environment or a
-- file only the service's user can read (PONTOON_SECRETS_FILE), as the key sealing TOTP secrets
-- does. Session tokens are kept as an HMAC under that key, so sessions made before this change
-- end (their people sign in again). TOTP secrets stored in clear are sealed by the owner once,
-- with the key: `pontoon users seal-totp`; until then their people cannot sign in.
DROP TABLE service_secrets;
UPDATE staff_sessions SET ended_at = now(), ended_reason = 'keys_moved' WHERE ended_at IS NULL;
COMMENT ON COLUMN staff_users.totp_secret IS 'Fernet token under PONTOON_TOTP_KEY; NULL: no second factor enrolled';
COMMENT ON COLUMN staff_sessions.token_hash IS 'HMAC-SHA256 of the session token under PONTOON_SECRET_KEY';

-- Failed sign-ins are counted per account and source address: a stranger's tries lock the account
-- against that address only, never its owner at their own screen. (staff_users.failed_attempts
-- and locked_until are no longer written.)
CREATE TABLE staff_sign_in_failures (
    user_id       uuid NOT NULL REFERENCES staff_users (user_id),
    address       text NOT NULL,                    -- '' when the request named none
    failures      integer NOT NULL DEFAULT 0,       -- in a row, since the last success or lock
    locked_until  timestamptz,
    updated_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, address)
);
GRANT SELECT, INSERT, UPDATE, DELETE ON staff_sign_in_failures TO pontoon_app;
