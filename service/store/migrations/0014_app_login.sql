-- The service, its settlement workers and its relay log in as pontoon_app itself (no longer as the
-- owner, acting as the role by SET ROLE, which RESET ROLE undid). The role may log in, holds no
-- attribute beyond that, inherits nothing and is a member of no role: there is no role it can
-- SET ROLE to, so nothing running in its sessions can do more than its grants (migration 0002
-- and later: only SELECT and INSERT on the audit log and the ledger, no table it owns, so no
-- trigger it can disable). Migrations and owner commands connect as the schema's owner.
-- Roles are cluster-wide: the role is changed only where it differs, so databases migrating
-- side by side on one server do not both rewrite it.

DO $$
DECLARE
    membership record;
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'pontoon_app'
               AND (NOT rolcanlogin OR rolinherit OR rolsuper OR rolcreaterole OR rolcreatedb
                    OR rolreplication OR rolbypassrls)) THEN
        ALTER ROLE pontoon_app LOGIN NOINHERIT NOSUPERUSER NOCREATEROLE NOCREATEDB NOREPLICATION NOBYPASSRLS;
    END IF;
    FOR membership IN
        SELECT granted.rolname FROM pg_auth_members m
        JOIN pg_roles granted ON granted.oid = m.roleid
        JOIN pg_roles app ON app.oid = m.member
        WHERE app.rolname = 'pontoon_app'
    LOOP
        EXECUTE format('REVOKE %I FROM pontoon_app', membership.rolname);
    END LOOP;
END $$;
