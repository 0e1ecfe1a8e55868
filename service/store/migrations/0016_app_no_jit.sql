-- The service's statements read and write a few rows each, and its reports aggregate one period of
-- the ledger: PostgreSQL's JIT compilation of a plan it estimates as costly spends more time
-- compiling than such a query takes to run (a floor refresh or a day's report waited most of a
-- second on it). Off for the service's logins to this database; the owner's sessions keep it.
DO $$
BEGIN
    EXECUTE format('ALTER ROLE pontoon_app IN DATABASE %I SET jit = off', current_database());
END $$;
