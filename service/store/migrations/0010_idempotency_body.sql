-- A retry with an Idempotency-Key gets back the first response's own bytes and content type,
-- rather than its JSON written again from JSONB (which orders and spaces keys its own way). Keys
-- taken before keep their JSONB response, which a retry of theirs still gets back.
ALTER TABLE idempotency_keys
    ALTER COLUMN response DROP NOT NULL,
    ADD COLUMN body bytea,
    ADD COLUMN content_type text,
    ADD CONSTRAINT idempotency_keys_response_kept CHECK (body IS NOT NULL OR response IS NOT NULL);
