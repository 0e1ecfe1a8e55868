-- Table games accounting: the chips at each table and the cash and markers in its drop box. A
-- tray counted by denomination (opener, shift change, closer), a fill the cage sends a table and
-- a credit it takes back are slips with a serial number; each step on a slip (counted, requested,
-- issued, signed, received, a void asked and confirmed) is a signature of its own. Buy-ins at a
-- seat, each drop box's count by two counters, and each gaming day's statement as issued. Nothing
-- here is ever changed or deleted: a mistaken slip is voided by two people and issued again.

-- Two new kinds of staff, who may also hold API keys: the cage and the count team.
ALTER TABLE staff_users DROP CONSTRAINT staff_users_role_check;
ALTER TABLE staff_users ADD CONSTRAINT staff_users_role_check
    CHECK (role IN ('admin', 'operator', 'supervisor', 'compliance', 'dealer', 'cage', 'count'));
ALTER TABLE api_keys DROP CONSTRAINT api_keys_role_check;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_role_check
    CHECK (role IN ('admin', 'operator', 'supervisor', 'compliance', 'terminal', 'cage', 'count'));

-- Each kind of slip's serial numbers run without a gap: the counter's row is locked while a slip
-- takes its number, and a slip rolled back gives its number back with it.
CREATE TABLE slip_serials (
    prefix       text PRIMARY KEY CHECK (prefix IN ('T', 'F', 'C')),   -- tray count, fill, credit
    last_number  bigint NOT NULL DEFAULT 0 CHECK (last_number >= 0)
);
INSERT INTO slip_serials (prefix) VALUES ('T'), ('F'), ('C');

CREATE TABLE chip_slips (
    slip_id     uuid PRIMARY KEY,
    serial      text NOT NULL UNIQUE,                       -- e.g. F-000042
    kind        text NOT NULL CHECK (kind IN ('opener', 'shift_change', 'closer', 'fill', 'credit')),
    table_id    text NOT NULL REFERENCES tables (table_id),
    gaming_day  date NOT NULL,
    chips       jsonb NOT NULL,                             -- {"2500": 40}: chips by denomination in cents
    total       bigint NOT NULL CHECK (total >= 0),
    replaces    uuid REFERENCES chip_slips (slip_id),       -- the voided slip this one is issued in place of
    created_by  text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    CHECK (kind IN ('opener', 'shift_change', 'closer') OR total > 0)
);
-- A voided slip is issued again once.
CREATE UNIQUE INDEX chip_slips_replaced_once ON chip_slips (replaces) WHERE replaces IS NOT NULL;
CREATE INDEX chip_slips_by_day ON chip_slips (gaming_day, table_id, created_at);

-- Who did each step of a slip, in which capacity, and when. A step is done once per capacity.
CREATE TABLE slip_signatures (
    slip_id   uuid NOT NULL REFERENCES chip_slips (slip_id),
    act       text NOT NULL CHECK (act IN ('signed', 'requested', 'issued', 'received', 'void_asked', 'voided')),
    capacity  text NOT NULL CHECK (capacity IN ('dealer', 'supervisor', 'cage')),
    actor     text NOT NULL,                                -- staff:<username>, or an API key's id
    screen    text,                                         -- the dealer's screen it was signed at, if any
    reason    text,                                         -- a void's
    at        timestamptz NOT NULL DEFAULT clock_timestamp(),   -- two steps in one transaction keep their order
    PRIMARY KEY (slip_id, act, capacity)
);

-- A seat's buy-in: cash (or a marker) into the drop box, chips out of the tray.
CREATE TABLE buy_ins (
    buy_in_id    uuid PRIMARY KEY,
    table_id     text NOT NULL REFERENCES tables (table_id),
    gaming_day   date NOT NULL,
    seat         integer NOT NULL CHECK (seat BETWEEN 1 AND 16),
    amount       bigint NOT NULL CHECK (amount > 0),
    method       text NOT NULL CHECK (method IN ('cash', 'marker')),
    recorded_by  text NOT NULL,
    screen       text,
    recorded_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX buy_ins_by_day ON buy_ins (gaming_day, table_id, recorded_at);

-- The soft count: every figure a counter entered for a table's drop box of a gaming day, and how it
-- stood against the one entered before it by someone else.
CREATE TABLE drop_count_entries (
    entry_id    uuid PRIMARY KEY,
    table_id    text NOT NULL REFERENCES tables (table_id),
    gaming_day  date NOT NULL,
    cash        bigint NOT NULL CHECK (cash >= 0),
    markers     bigint NOT NULL CHECK (markers >= 0),
    counted_by  text NOT NULL,
    outcome     text NOT NULL CHECK (outcome IN ('entered', 'agreed', 'disagreed')),
    counted_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX drop_count_entries_by_box ON drop_count_entries (table_id, gaming_day, counted_at);

-- A box's count once two counters agreed on it: final.
CREATE TABLE drop_counts (
    table_id     text NOT NULL REFERENCES tables (table_id),
    gaming_day   date NOT NULL,
    cash         bigint NOT NULL CHECK (cash >= 0),
    markers      bigint NOT NULL CHECK (markers >= 0),
    entered_by   text NOT NULL,
    verified_by  text NOT NULL CHECK (verified_by <> entered_by),
    final_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (table_id, gaming_day)
);

-- A gaming day's statement as it was issued (each issue kept; the latest stands).
CREATE TABLE table_statements (
    statement_id  uuid PRIMARY KEY,
    gaming_day    date NOT NULL,
    figures       jsonb NOT NULL,
    issued_by     text NOT NULL,
    issued_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX table_statements_by_day ON table_statements (gaming_day, issued_at);

GRANT SELECT, UPDATE ON slip_serials TO pontoon_app;
REVOKE INSERT, DELETE, TRUNCATE ON slip_serials FROM pontoon_app;
GRANT SELECT, INSERT ON chip_slips, slip_signatures, buy_ins, drop_count_entries, drop_counts, table_statements
    TO pontoon_app;
REVOKE UPDATE, DELETE, TRUNCATE ON chip_slips, slip_signatures, buy_ins, drop_count_entries, drop_counts,
    table_statements FROM pontoon_app;
