-- The ledger is written once a bet and never changed: settlement and voids append rows, nothing
-- updates or deletes one. The application may only read and append (as it may on the audit log),
-- and no row can hold a negative stake or return (a party's net is returned - stake).
REVOKE UPDATE, DELETE, TRUNCATE ON ledger_entries FROM pontoon_app;
ALTER TABLE ledger_entries
    ADD CONSTRAINT ledger_entries_amounts_not_negative CHECK (stake >= 0 AND returned >= 0);
