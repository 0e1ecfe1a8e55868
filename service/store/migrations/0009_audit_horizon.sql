-- The instant before which every audit record is committed (or rolled back), for exports: a
-- writer stamps its records after locking its chain's head, so its transaction has an id by then
-- and started before the stamp; the oldest open transaction with an id bounds every stamp still
-- to commit. The application's role may not read other sessions' transactions in
-- pg_stat_activity, so the function runs as its owner, the role that migrates (and logs in).
CREATE FUNCTION pontoon_audit_horizon() RETURNS timestamptz
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = pg_catalog AS $$
    SELECT least(clock_timestamp(), min(xact_start)) FROM pg_stat_activity
    WHERE datname = current_database() AND backend_xid IS NOT NULL AND pid <> pg_backend_pid()
$$;
REVOKE ALL ON FUNCTION pontoon_audit_horizon() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION pontoon_audit_horizon() TO pontoon_app;
