-- A statement's own check of what it cannot go on without. Raising fails the transaction, so a
-- statement whose result is read only after the COMMIT sent behind it (one round trip for both)
-- can still stop that COMMIT from keeping anything.

CREATE FUNCTION pontoon_assert(ok boolean, message text) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
    IF ok IS NOT TRUE THEN
        RAISE EXCEPTION '%', message USING ERRCODE = 'assert_failure';
    END IF;
    RETURN true;
END
$$;
