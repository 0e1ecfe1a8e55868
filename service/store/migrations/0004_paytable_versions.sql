-- Paytables under change control: every version a row that is never edited (a draft only moves
-- to approved or rejected), the history of which version each table was given and when it took
-- effect, and a trigger that makes a table's pending version current when its next round opens.

CREATE TABLE paytable_versions (
    name               text NOT NULL,
    version            integer NOT NULL CHECK (version >= 1),
    content            jsonb NOT NULL,                  -- the document, as the engine reads it
    source             text NOT NULL,                   -- the document as submitted (YAML or JSON text)
    source_format      text NOT NULL CHECK (source_format IN ('yaml', 'json', 'file')),
    based_on_version   integer,                         -- the approved version it was drafted from
    status             text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'approved', 'rejected')),
    author             text NOT NULL,                   -- an API key id, or 'system' for the file seeds
    reason             text NOT NULL CHECK (btrim(reason) <> ''),
    created_at         timestamptz NOT NULL DEFAULT now(),
    decided_by         text,
    decided_at         timestamptz,
    decision_reason    text,
    house_edge_percent numeric(9, 4),
    rtp_percent        numeric(9, 4),
    evaluation         jsonb,                           -- the house-edge run behind the two figures
    PRIMARY KEY (name, version),
    CHECK ((status = 'draft') = (decided_by IS NULL)),
    CHECK (status = 'draft' OR (decided_at IS NOT NULL AND btrim(coalesce(decision_reason, '')) <> '')),
    -- Four eyes: whoever approves is not whoever wrote it (the file seeds are the one exception).
    CHECK (status <> 'approved' OR decided_by <> author OR author = 'system')
);

-- Append-only in spirit: no DELETE, and an UPDATE may only decide a draft.
CREATE FUNCTION paytable_versions_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'paytable version %@% cannot be deleted', OLD.name, OLD.version
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF OLD.status <> 'draft' THEN
        RAISE EXCEPTION 'paytable version %@% is % and never changes', OLD.name, OLD.version, OLD.status
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF (NEW.name, NEW.version, NEW.content, NEW.source, NEW.source_format, NEW.based_on_version, NEW.author,
        NEW.reason, NEW.created_at)
       IS DISTINCT FROM
       (OLD.name, OLD.version, OLD.content, OLD.source, OLD.source_format, OLD.based_on_version, OLD.author,
        OLD.reason, OLD.created_at) THEN
        RAISE EXCEPTION 'paytable version %@% is never edited: submit a new version', OLD.name, OLD.version
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER paytable_versions_guard BEFORE UPDATE OR DELETE ON paytable_versions
    FOR EACH ROW EXECUTE FUNCTION paytable_versions_guard();

-- Which version each table was given, by whom and why, and the round it first ran in.
CREATE TABLE table_paytable_assignments (
    id                bigserial PRIMARY KEY,
    table_id          text NOT NULL REFERENCES tables(table_id),
    paytable          text NOT NULL,
    version           integer NOT NULL,
    previous_version  integer,                          -- in force when assigned
    assigned_by       text NOT NULL,
    reason            text NOT NULL CHECK (btrim(reason) <> ''),
    assigned_at       timestamptz NOT NULL DEFAULT now(),
    applied_round_id  uuid REFERENCES rounds(round_id), -- the first round under it
    applied_at        timestamptz,
    superseded_at     timestamptz,                      -- another assignment came before any round
    FOREIGN KEY (paytable, version) REFERENCES paytable_versions(name, version)
);
CREATE INDEX table_paytable_assignments_table ON table_paytable_assignments (table_id, id);
CREATE INDEX table_paytable_assignments_version ON table_paytable_assignments (paytable, version);

-- Only the outcome columns of an assignment are ever set, and each only once.
CREATE FUNCTION table_paytable_assignments_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'paytable assignments cannot be deleted' USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF (NEW.id, NEW.table_id, NEW.paytable, NEW.version, NEW.previous_version, NEW.assigned_by, NEW.reason,
        NEW.assigned_at)
       IS DISTINCT FROM
       (OLD.id, OLD.table_id, OLD.paytable, OLD.version, OLD.previous_version, OLD.assigned_by, OLD.reason,
        OLD.assigned_at)
       OR (OLD.applied_at IS NOT NULL AND NEW.applied_at IS DISTINCT FROM OLD.applied_at)
       OR (OLD.applied_round_id IS NOT NULL AND NEW.applied_round_id IS DISTINCT FROM OLD.applied_round_id)
       OR (OLD.superseded_at IS NOT NULL AND NEW.superseded_at IS DISTINCT FROM OLD.superseded_at) THEN
        RAISE EXCEPTION 'paytable assignment % is never edited', OLD.id USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER table_paytable_assignments_guard BEFORE UPDATE OR DELETE ON table_paytable_assignments
    FOR EACH ROW EXECUTE FUNCTION table_paytable_assignments_guard();

-- The round that opens under a table's pending version makes it the table's current one, in the
-- round's own transaction (the opener holds the table row's lock, so nothing slips in between).
-- A round never opens under a version that is not approved; version 1 may still be only the
-- YAML file (not seeded into this database yet). One statement-level pass: bulk loads of rounds
-- pay one join, not one query per row.
CREATE FUNCTION rounds_open_under_approved_paytable() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    refused text;
BEGIN
    SELECT n.paytable_ref INTO refused
    FROM new_rounds n
    LEFT JOIN paytable_versions p
           ON p.name = split_part(n.paytable_ref, '@', 1)
          AND p.version = coalesce(substring(n.paytable_ref FROM '@([0-9]+)$')::integer, 1)
    WHERE n.paytable_ref IS NOT NULL
      AND CASE WHEN p.name IS NULL THEN coalesce(substring(n.paytable_ref FROM '@([0-9]+)$')::integer, 1) <> 1
               ELSE p.status <> 'approved' END
    LIMIT 1;
    IF refused IS NOT NULL THEN
        RAISE EXCEPTION 'a round cannot open under paytable %: not an approved version', refused
            USING ERRCODE = 'check_violation';
    END IF;

    WITH opened AS (
        SELECT DISTINCT ON (n.table_id) n.table_id, n.round_id,
               coalesce(substring(n.paytable_ref FROM '@([0-9]+)$')::integer, 1) AS version
        FROM new_rounds n
        WHERE n.paytable_ref IS NOT NULL
        ORDER BY n.table_id, n.opened_at DESC
    ), applied AS (
        UPDATE tables t SET paytable_version = o.version, pending_paytable_version = NULL
        FROM opened o
        WHERE t.table_id = o.table_id AND t.pending_paytable_version = o.version
        RETURNING t.table_id, o.version, o.round_id
    )
    UPDATE table_paytable_assignments a SET applied_round_id = ap.round_id, applied_at = now()
    FROM applied ap
    WHERE a.table_id = ap.table_id AND a.version = ap.version
      AND a.applied_at IS NULL AND a.superseded_at IS NULL;
    RETURN NULL;
END $$;
CREATE TRIGGER rounds_open_under_approved_paytable AFTER INSERT ON rounds
    REFERENCING NEW TABLE AS new_rounds
    FOR EACH STATEMENT EXECUTE FUNCTION rounds_open_under_approved_paytable();

-- Default privileges (0002) grant the ordinary rights; these two tables are never deleted from.
GRANT SELECT, INSERT, UPDATE ON paytable_versions, table_paytable_assignments TO pontoon_app;
REVOKE DELETE, TRUNCATE ON paytable_versions, table_paytable_assignments FROM pontoon_app;
GRANT USAGE, SELECT ON SEQUENCE table_paytable_assignments_id_seq TO pontoon_app;
