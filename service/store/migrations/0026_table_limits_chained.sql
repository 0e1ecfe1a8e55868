-- A table's own betting limits (the least and most of each bet) are stored only with the chained
-- record that sets them, in the same transaction: the service's login cannot raise a table's
-- maximum stake without the audit log saying so. Today only `table_created` sets them; a table
-- with no limits of its own (the game's apply) needs no record. The trigger belongs to the
-- schema's owner, as migration 0019's do, so the service's login can neither drop nor disable it;
-- what the owner changes by hand `audit verify` names (the table and the limit).

-- Whether this transaction chained, on the table's chain, a record of `kinds` whose payload's
-- limits are exactly `p_limits` (containment would let a record of more limits cover fewer).
CREATE FUNCTION pontoon_limits_chained_here(p_table_id text, p_kinds text[], p_limits jsonb)
RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT EXISTS (
        SELECT 1 FROM audit_log a
        WHERE a.chain = 'table:' || p_table_id
          AND a.seq > (SELECT h.seq - 500 FROM audit_chain_heads h WHERE h.chain = 'table:' || p_table_id)
          AND a.xmin::text::bigint = pg_current_xact_id()::text::bigint % 4294967296
          AND a.kind = ANY(p_kinds)
          AND a.payload -> 'limits' = p_limits)
$$;

CREATE FUNCTION tables_limits_chained() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT pontoon_limits_chained_here(NEW.table_id, ARRAY['table_created'], NEW.limits) THEN
        RAISE EXCEPTION 'table %''s limits (%) are stored only with the chained table_created record that sets them',
            NEW.table_id, NEW.limits USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER tables_limits_chained_insert AFTER INSERT ON tables
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (NEW.limits <> '{}'::jsonb)
    EXECUTE FUNCTION tables_limits_chained();
CREATE CONSTRAINT TRIGGER tables_limits_chained_update AFTER UPDATE OF limits ON tables
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (NEW.limits IS DISTINCT FROM OLD.limits)
    EXECUTE FUNCTION tables_limits_chained();
