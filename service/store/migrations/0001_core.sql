-- Core schema: tables, shoes, rounds and their events, keys, idempotency, outbox, ledger, audit.

CREATE TABLE tables (
    table_id          text PRIMARY KEY,
    game              text NOT NULL,                 -- canberra | traditional
    rules             text NOT NULL,                 -- rules file stem
    rules_version     integer NOT NULL DEFAULT 1,
    paytable          text,                          -- null for games without a paytable
    paytable_version  integer,
    pending_paytable_version integer,                -- applies from the table's next round
    limits            jsonb NOT NULL DEFAULT '{}'::jsonb,
    state             jsonb NOT NULL DEFAULT '{}'::jsonb,   -- game state across rounds (bank, kitty, pack)
    created_by        text,
    created_at        timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE shoes (
    shoe_id     uuid PRIMARY KEY,
    table_id    text NOT NULL REFERENCES tables(table_id),
    mode        text NOT NULL CHECK (mode IN ('virtual', 'physical')),
    commitment  text,                                -- published at start (virtual shoes)
    card_order  jsonb,                               -- secret until the shoe closes (virtual)
    salt        text,
    position    integer NOT NULL DEFAULT 0,          -- cards dealt so far
    dealt       jsonb NOT NULL DEFAULT '[]'::jsonb,  -- physical shoes: cards reported so far
    opened_at   timestamptz NOT NULL DEFAULT now(),
    closed_at   timestamptz
);
CREATE UNIQUE INDEX shoes_one_open_per_table ON shoes (table_id) WHERE closed_at IS NULL;

CREATE TABLE rounds (
    round_id          uuid PRIMARY KEY,
    table_id          text NOT NULL REFERENCES tables(table_id),
    shoe_id           uuid REFERENCES shoes(shoe_id),
    status            text NOT NULL CHECK (status IN ('open', 'complete', 'settled', 'void')),
    rules_ref         text NOT NULL,                 -- name@version the round runs under
    paytable_ref      text,
    wagers            jsonb NOT NULL,                -- the transcript's seats (or players)
    version           integer NOT NULL DEFAULT 0,    -- bumped by every change: optimistic check
    result            jsonb,                         -- the replayed money once complete
    opened_at         timestamptz NOT NULL DEFAULT now(),
    completed_at      timestamptz,
    settled_at        timestamptz,
    voided_at         timestamptz,
    void_reason       text
);
CREATE INDEX rounds_table_opened ON rounds (table_id, opened_at);
CREATE UNIQUE INDEX rounds_one_open_per_table ON rounds (table_id) WHERE status = 'open';

CREATE TABLE round_events (
    round_id   uuid NOT NULL REFERENCES rounds(round_id),
    seq        integer NOT NULL,
    kind       text NOT NULL CHECK (kind IN ('card', 'action')),
    payload    jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (round_id, seq)
);

CREATE TABLE api_keys (
    key_id       uuid PRIMARY KEY,
    key_hash     text NOT NULL UNIQUE,               -- SHA-256 of the secret; the secret is never stored
    role         text NOT NULL CHECK (role IN ('admin', 'operator', 'supervisor', 'compliance', 'terminal')),
    table_id     text,                               -- terminals are bound to one table
    name         text,
    created_by   text,
    created_at   timestamptz NOT NULL DEFAULT now(),
    revoked_at   timestamptz,
    last_used_at timestamptz,
    CHECK (role <> 'terminal' OR table_id IS NOT NULL)
);

CREATE TABLE idempotency_keys (
    key_id        uuid NOT NULL,                     -- the API key that sent it: keys are per client
    idem_key      text NOT NULL,
    request_hash  text NOT NULL,
    status_code   integer NOT NULL,
    response      jsonb NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (key_id, idem_key)
);

CREATE TABLE outbox (
    id            bigserial PRIMARY KEY,
    topic         text NOT NULL,                     -- e.g. 'settle_round'
    round_id      uuid,
    payload       jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at    timestamptz NOT NULL DEFAULT now(),
    published_at  timestamptz,
    attempts      integer NOT NULL DEFAULT 0
);
CREATE INDEX outbox_unpublished ON outbox (id) WHERE published_at IS NULL;

-- One row per bet: its stake and return, exactly once (the unique key makes re-runs no-ops).
CREATE TABLE ledger_entries (
    id                bigserial PRIMARY KEY,
    round_id          uuid NOT NULL REFERENCES rounds(round_id),
    table_id          text NOT NULL,
    shoe_id           uuid,
    rules_ref         text NOT NULL,
    paytable_ref      text,
    seat              integer NOT NULL,              -- 0: the banker (traditional); -1: the kitty
    hand              integer NOT NULL DEFAULT -1,   -- -1: a seat-level bet (pair, insurance, envy)
    kind              text NOT NULL,                 -- main, split, double, insurance, pair, super_bonus, envy, void_refund, ...
    stake             bigint NOT NULL,
    returned          bigint NOT NULL,
    outcome           text NOT NULL,
    created_at        timestamptz NOT NULL DEFAULT now(),
    UNIQUE (round_id, seat, hand, kind)
);
CREATE INDEX ledger_table_time ON ledger_entries (table_id, created_at);

-- Append-only, hash-chained audit log: one chain per table (and 'system' for the rest), so
-- tables never wait on each other's chain head.
CREATE TABLE audit_chain_heads (
    chain      text PRIMARY KEY,
    seq        bigint NOT NULL,
    hash       text NOT NULL
);

CREATE TABLE audit_log (
    id          bigserial PRIMARY KEY,
    chain       text NOT NULL,
    seq         bigint NOT NULL,
    at          timestamptz NOT NULL,
    kind        text NOT NULL,
    actor       text,
    table_id    text,
    round_id    uuid,
    payload     jsonb NOT NULL,
    prev_hash   text NOT NULL,
    hash        text NOT NULL,
    UNIQUE (chain, seq)
);
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_round ON audit_log (round_id);

CREATE FUNCTION audit_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP;
END $$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION audit_log_refuse_change();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
    FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse_change();
