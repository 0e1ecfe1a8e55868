-- Four eyes between people, not between names. A key of a role that drafts, approves, voids or
-- manages access (admin, operator, supervisor) belongs to one staff account: what it does is that
-- person's, and a draft's approver must be another person through every identity they have (their
-- console session and each of their keys). Any other key may name its holder too; a terminal's key
-- stays its table's and belongs to nobody. The owner is written in the key's chained key_created
-- record, which `audit verify` holds the column against.
ALTER TABLE api_keys ADD COLUMN owner_id uuid REFERENCES staff_users (user_id);
ALTER TABLE api_keys ADD COLUMN revoke_reason text;

-- A live key of those roles from before has no person behind it, and nobody can say whose its
-- past approvals were: it stops working now (an admin issues its holder a key of their own). The
-- reason stays with it; the access list shows it.
UPDATE api_keys
   SET revoked_at = now(),
       revoke_reason = 'belonged to no staff account: keys of admins, operators and supervisors are people''s (migration 0025)'
 WHERE role IN ('admin', 'operator', 'supervisor') AND revoked_at IS NULL;

ALTER TABLE api_keys ADD CONSTRAINT api_keys_people_own_them
    CHECK (role NOT IN ('admin', 'operator', 'supervisor') OR owner_id IS NOT NULL OR revoked_at IS NOT NULL);
ALTER TABLE api_keys ADD CONSTRAINT api_keys_terminals_own_none CHECK (role <> 'terminal' OR owner_id IS NULL);
CREATE INDEX api_keys_by_owner ON api_keys (owner_id) WHERE owner_id IS NOT NULL;

-- Who set the account's password when it was not the person: an admin creating the account or
-- resetting its password (staff:<username>, a key's id, or cli). Until the person sets their own
-- (at their next console sign-in) they approve nothing. NULL: the password is the person's own.
ALTER TABLE staff_users ADD COLUMN password_set_by text;
-- Accounts from before: one whose last password was set by its creation or a reset, never changed
-- by its person since, carries who set it.
UPDATE staff_users u
   SET password_set_by = coalesce(last.actor, u.created_by, 'unknown')
  FROM (SELECT DISTINCT ON (payload->>'user_id') payload->>'user_id' AS user_id, kind, actor
          FROM audit_log
         WHERE kind IN ('staff_created', 'staff_password_reset', 'staff_password_changed')
         ORDER BY payload->>'user_id', at DESC, id DESC) AS last
 WHERE last.user_id = u.user_id::text AND last.kind <> 'staff_password_changed';
