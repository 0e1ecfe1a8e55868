-- The application's role: everything on the ordinary tables, but only SELECT and INSERT on the
-- audit log, so the service itself cannot rewrite history (store/session.py sets it per session).
-- Roles are cluster-wide while grants are per database: create the role once, grant every time.

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'pontoon_app') THEN
        CREATE ROLE pontoon_app NOLOGIN;
    END IF;
EXCEPTION
    -- Two databases migrating at the same moment both saw the role missing: one of them wins.
    WHEN duplicate_object OR unique_violation THEN NULL;
END $$;

GRANT USAGE ON SCHEMA public TO pontoon_app;

GRANT SELECT, INSERT, UPDATE, DELETE
    ON tables, shoes, rounds, round_events, api_keys, idempotency_keys, outbox, ledger_entries
    TO pontoon_app;
GRANT SELECT ON schema_migrations TO pontoon_app;

-- The audit log: read and append only. The chain head is a single row per chain that every
-- append moves forward, so it needs UPDATE (the log rows themselves do not).
REVOKE ALL ON audit_log FROM pontoon_app;
GRANT SELECT, INSERT ON audit_log TO pontoon_app;
GRANT SELECT, INSERT, UPDATE ON audit_chain_heads TO pontoon_app;

GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO pontoon_app;

-- Tables and sequences later migrations create (as the migrating role) get the ordinary grants
-- too; a later append-only table must REVOKE UPDATE, DELETE in its own migration.
ALTER DEFAULT PRIVILEGES IN SCHEMA public
    GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO pontoon_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public
    GRANT USAGE, SELECT ON SEQUENCES TO pontoon_app;
