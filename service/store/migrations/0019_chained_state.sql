-- Nothing the money depends on is stored without its chained record. The service's login may
-- insert a paytable version only as a draft (the file seeds aside: version 1 by 'system', which
-- `audit verify` holds against its chained seed); a version's submission and decision, a table's
-- paytable assignment and a change of its current or pending version commit only with the audit
-- record that describes them, written by the same transaction. The triggers belong to the
-- schema's owner, so the service's login can neither drop nor disable them.

-- Whether this transaction chained a record of `kinds` on `chain` whose payload holds `fields`
-- (and, when given, by `actor`). Records of one transaction are at the chain's head, so only its
-- last few hundred are read.
CREATE FUNCTION pontoon_chained_here(p_chain text, p_kinds text[], p_fields jsonb, p_actor text)
RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT EXISTS (
        SELECT 1 FROM audit_log a
        WHERE a.chain = p_chain
          AND a.seq > (SELECT h.seq - 500 FROM audit_chain_heads h WHERE h.chain = p_chain)
          AND a.xmin::text::bigint = pg_current_xact_id()::text::bigint % 4294967296
          AND a.kind = ANY(p_kinds)
          AND a.payload @> p_fields
          AND (p_actor IS NULL OR a.actor = p_actor))
$$;

CREATE FUNCTION paytable_versions_insert_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_user = 'pontoon_app' AND NEW.status <> 'draft'
       AND NOT (NEW.version = 1 AND NEW.author = 'system' AND NEW.decided_by = 'system') THEN
        RAISE EXCEPTION 'paytable version %@% may be stored only as a draft: approval is a decision of its own',
            NEW.name, NEW.version USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER paytable_versions_insert_guard BEFORE INSERT ON paytable_versions
    FOR EACH ROW EXECUTE FUNCTION paytable_versions_insert_guard();

CREATE FUNCTION paytable_versions_chained() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    kinds text[];
BEGIN
    IF TG_OP = 'INSERT' THEN
        kinds := ARRAY['paytable_version_submitted', 'paytable_version_seeded'];
    ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
        kinds := ARRAY['paytable_version_' || NEW.status];
    ELSE
        RETURN NULL;
    END IF;
    IF NOT pontoon_chained_here('system', kinds,
                                jsonb_build_object('paytable', NEW.name, 'version', NEW.version),
                                CASE WHEN TG_OP = 'UPDATE' THEN NEW.decided_by ELSE NEW.author END) THEN
        RAISE EXCEPTION 'paytable version %@% (%) commits only with its chained % record',
            NEW.name, NEW.version, NEW.status, kinds[1] USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER paytable_versions_chained AFTER INSERT OR UPDATE ON paytable_versions
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION paytable_versions_chained();

CREATE FUNCTION table_paytable_assignments_chained() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT pontoon_chained_here('table:' || NEW.table_id, ARRAY['paytable_assigned'],
                                jsonb_build_object('assignment_id', NEW.id, 'version', NEW.version),
                                NEW.assigned_by) THEN
        RAISE EXCEPTION 'the assignment of %@% to table % commits only with its chained paytable_assigned record',
            NEW.paytable, NEW.version, NEW.table_id USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER table_paytable_assignments_chained AFTER INSERT ON table_paytable_assignments
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION table_paytable_assignments_chained();

-- A table's versions move only by an assignment (chained) or by a round opening under the pending
-- version (its pending version becomes current, and there is no longer one pending).
CREATE FUNCTION tables_paytable_chained() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.pending_paytable_version IS NULL AND NEW.paytable_version IS NOT DISTINCT FROM OLD.pending_paytable_version
       AND OLD.pending_paytable_version IS NOT NULL THEN
        RETURN NULL;   -- a round opened under the pending version
    END IF;
    IF NOT pontoon_chained_here('table:' || NEW.table_id, ARRAY['paytable_assigned'],
                                jsonb_build_object('after', jsonb_build_object(
                                    'paytable_version', coalesce(NEW.paytable_version, 1),
                                    'pending_version', NEW.pending_paytable_version)), NULL) THEN
        RAISE EXCEPTION 'table %''s paytable versions (current %, pending %) change only with a chained paytable_assigned record',
            NEW.table_id, NEW.paytable_version, NEW.pending_paytable_version
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER tables_paytable_chained AFTER UPDATE OF paytable_version, pending_paytable_version ON tables
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN ((NEW.paytable_version, NEW.pending_paytable_version)
          IS DISTINCT FROM (OLD.paytable_version, OLD.pending_paytable_version))
    EXECUTE FUNCTION tables_paytable_chained();
