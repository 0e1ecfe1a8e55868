-- Player-banked tables (traditional Pontoon): the money that moves between rounds, and what each
-- round started from. Money inside a round is in ledger_entries (seat 0 the banker, -1 the kitty);
-- money between rounds (a kitty put up, topped up or taken back, the bank sold) has no round, so
-- it lives here. Both are written once and never changed.

CREATE TABLE table_transfers (
    id          bigserial PRIMARY KEY,
    table_id    text NOT NULL REFERENCES tables(table_id),
    seq         integer NOT NULL CHECK (seq >= 1),       -- the table's n-th transfer, taken under its row lock
    kind        text NOT NULL CHECK (kind IN ('kitty-put-up', 'kitty-topped-up', 'kitty-taken', 'bank-sale')),
    -- Parties as a round's ledger names them: 0 the banker, -1 the kitty, N the player N seats
    -- to the banker's left at that moment; places are the fixed chairs (null for the kitty).
    from_seat   integer NOT NULL,
    to_seat     integer NOT NULL,
    from_place  integer,
    to_place    integer,
    amount      bigint NOT NULL CHECK (amount >= 0),
    round_id    uuid REFERENCES rounds(round_id),         -- the round that passed the bank (kitty-taken)
    actor       text,
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (table_id, seq)
);

-- A round of the player-banked game: where the banker sat and the kitty it was played against
-- (the transcript's `kitty`), so the round replays to the same money.
CREATE TABLE traditional_rounds (
    round_id      uuid PRIMARY KEY REFERENCES rounds(round_id),
    table_id      text NOT NULL REFERENCES tables(table_id),
    banker_place  integer NOT NULL CHECK (banker_place >= 0),
    kitty_before  bigint NOT NULL DEFAULT 0 CHECK (kitty_before >= 0)
);

-- Append-only for the application: 0002's default privileges grant UPDATE and DELETE on new
-- tables, so take them back here (and grant the rest explicitly, whoever ran 0002).
GRANT SELECT, INSERT ON table_transfers, traditional_rounds TO pontoon_app;
REVOKE UPDATE, DELETE, TRUNCATE ON table_transfers, traditional_rounds FROM pontoon_app;
GRANT USAGE, SELECT ON SEQUENCE table_transfers_id_seq TO pontoon_app;
