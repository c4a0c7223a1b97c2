-- Schema version 1. Times are unix seconds (UTC) in INTEGER columns.
-- JSON columns are checked with json_valid so a bad write fails loudly.

CREATE TABLE accounts (
    id            INTEGER PRIMARY KEY,
    address       TEXT NOT NULL UNIQUE COLLATE NOCASE,
    password_hash TEXT,                      -- argon2 PHC string; NULL = none set
    time_zone     TEXT NOT NULL DEFAULT 'UTC',
    created_at    INTEGER NOT NULL
);

CREATE TABLE games (
    id              INTEGER PRIMARY KEY,
    name            TEXT NOT NULL UNIQUE COLLATE NOCASE,
    variant         TEXT NOT NULL,
    rules_preset    TEXT NOT NULL,
    settings        TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(settings)),
    status          TEXT NOT NULL DEFAULT 'forming'
                    CHECK (status IN ('forming', 'active', 'paused', 'finished')),
    current_phase   TEXT,
    next_deadline   INTEGER,
    state           TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(state)),
    lot_commitment  TEXT,
    lot_secret      TEXT,
    lot_revealed    INTEGER NOT NULL DEFAULT 0 CHECK (lot_revealed IN (0, 1)),
    created_at      INTEGER NOT NULL
);
CREATE INDEX games_by_deadline ON games (status, next_deadline);

CREATE TABLE memberships (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games (id),
    account_id  INTEGER NOT NULL REFERENCES accounts (id),
    role        TEXT NOT NULL CHECK (role IN ('player', 'observer', 'master', 'standby')),
    power       TEXT,
    preferences TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(preferences)),
    joined_at   INTEGER NOT NULL,
    left_at     INTEGER
);
-- Among current memberships: one row per (game, account, role), one player per power.
CREATE UNIQUE INDEX memberships_current
    ON memberships (game_id, account_id, role) WHERE left_at IS NULL;
CREATE UNIQUE INDEX memberships_power_holder
    ON memberships (game_id, power) WHERE left_at IS NULL AND role = 'player' AND power IS NOT NULL;
CREATE INDEX memberships_by_account ON memberships (account_id);

CREATE TABLE inbound_mails (
    id           INTEGER PRIMARY KEY,
    message_id   TEXT NOT NULL UNIQUE,
    sender       TEXT NOT NULL,
    raw          BLOB NOT NULL,
    received_at  INTEGER NOT NULL,
    status       TEXT NOT NULL DEFAULT 'pending'
                 CHECK (status IN ('pending', 'processed', 'ignored', 'failed')),
    outcome      TEXT,
    processed_at INTEGER
);
CREATE INDEX inbound_pending ON inbound_mails (id) WHERE status = 'pending';

-- What was received is evidence: it never changes, only its processing outcome does.
CREATE TRIGGER inbound_mails_keep_raw BEFORE UPDATE OF message_id, sender, raw, received_at
ON inbound_mails
BEGIN
    SELECT RAISE(ABORT, 'inbound mail is immutable');
END;
CREATE TRIGGER inbound_mails_no_delete BEFORE DELETE ON inbound_mails
BEGIN
    SELECT RAISE(ABORT, 'inbound mail is immutable');
END;

CREATE TABLE phases (
    id              INTEGER PRIMARY KEY,
    game_id         INTEGER NOT NULL REFERENCES games (id),
    seq             INTEGER NOT NULL,
    phase           TEXT NOT NULL,
    position_before TEXT NOT NULL CHECK (json_valid(position_before)),
    orders          TEXT NOT NULL CHECK (json_valid(orders)),
    results         TEXT NOT NULL CHECK (json_valid(results)),
    position_after  TEXT NOT NULL CHECK (json_valid(position_after)),
    rolled_back     INTEGER NOT NULL DEFAULT 0 CHECK (rolled_back IN (0, 1)),
    processed_at    INTEGER NOT NULL,
    UNIQUE (game_id, seq)
);

-- A processed phase is history: the only change allowed is marking it rolled back.
CREATE TRIGGER phases_history_only BEFORE UPDATE ON phases
WHEN NEW.id IS NOT OLD.id OR NEW.game_id IS NOT OLD.game_id OR NEW.seq IS NOT OLD.seq
  OR NEW.phase IS NOT OLD.phase OR NEW.position_before IS NOT OLD.position_before
  OR NEW.orders IS NOT OLD.orders OR NEW.results IS NOT OLD.results
  OR NEW.position_after IS NOT OLD.position_after OR NEW.processed_at IS NOT OLD.processed_at
  OR NEW.rolled_back < OLD.rolled_back
BEGIN
    SELECT RAISE(ABORT, 'a processed phase can only be marked rolled back');
END;
CREATE TRIGGER phases_no_delete BEFORE DELETE ON phases
BEGIN
    SELECT RAISE(ABORT, 'a processed phase can only be marked rolled back');
END;

CREATE TABLE orders (
    id           INTEGER PRIMARY KEY,
    game_id      INTEGER NOT NULL REFERENCES games (id),
    phase        TEXT NOT NULL,
    power        TEXT NOT NULL,
    text         TEXT NOT NULL,
    canonical    TEXT,                       -- NULL when the text was not understood
    submitter    TEXT NOT NULL,
    submitted_at INTEGER NOT NULL,
    inbound_id   INTEGER REFERENCES inbound_mails (id)
);
CREATE INDEX orders_by_phase ON orders (game_id, phase, power);

CREATE TABLE outbox (
    id              INTEGER PRIMARY KEY,
    recipients      TEXT NOT NULL CHECK (json_valid(recipients)),
    subject         TEXT NOT NULL,
    headers         TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(headers)),
    body            TEXT NOT NULL,
    message         BLOB,                    -- the composed RFC 5322 bytes, once fixed
    status          TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error      TEXT,
    in_reply_to     INTEGER REFERENCES inbound_mails (id),
    game_id         INTEGER REFERENCES games (id),
    created_at      INTEGER NOT NULL,
    sent_at         INTEGER
);
CREATE INDEX outbox_queue ON outbox (next_attempt_at, id) WHERE status = 'queued';

-- Once the server accepted a mail, its row is the record of what was sent.
CREATE TRIGGER outbox_sent_is_final BEFORE UPDATE ON outbox
WHEN OLD.status = 'sent'
BEGIN
    SELECT RAISE(ABORT, 'a sent outbox mail cannot be changed');
END;
CREATE TRIGGER outbox_sent_no_delete BEFORE DELETE ON outbox
WHEN OLD.status = 'sent'
BEGIN
    SELECT RAISE(ABORT, 'a sent outbox mail cannot be changed');
END;
-- The bytes of a mail never change once fixed, so every retry sends the same mail.
CREATE TRIGGER outbox_message_fixed BEFORE UPDATE OF message ON outbox
WHEN OLD.message IS NOT NULL AND NEW.message IS NOT OLD.message
BEGIN
    SELECT RAISE(ABORT, 'the composed outbox message cannot be changed');
END;

CREATE TABLE press (
    id             INTEGER PRIMARY KEY,
    game_id        INTEGER NOT NULL REFERENCES games (id),
    phase          TEXT,
    from_account   INTEGER REFERENCES accounts (id),
    from_power     TEXT,
    recipients     TEXT NOT NULL CHECK (json_valid(recipients)),
    broadcast      INTEGER NOT NULL DEFAULT 0 CHECK (broadcast IN (0, 1)),
    grey           INTEGER NOT NULL DEFAULT 0 CHECK (grey IN (0, 1)),
    body           TEXT NOT NULL,
    sent_at        INTEGER NOT NULL,
    inbound_id     INTEGER REFERENCES inbound_mails (id)
);
CREATE INDEX press_by_game ON press (game_id, id);

CREATE TABLE votes (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    power      TEXT NOT NULL,
    kind       TEXT NOT NULL,
    value      TEXT NOT NULL,
    phase      TEXT,
    cast_at    INTEGER NOT NULL,
    inbound_id INTEGER REFERENCES inbound_mails (id),
    PRIMARY KEY (game_id, kind, power)
);

CREATE TABLE events (
    id         INTEGER PRIMARY KEY,
    at         INTEGER NOT NULL,
    game_id    INTEGER REFERENCES games (id),
    account_id INTEGER REFERENCES accounts (id),
    inbound_id INTEGER REFERENCES inbound_mails (id),
    kind       TEXT NOT NULL,
    detail     TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(detail))
);
CREATE INDEX events_by_game ON events (game_id, id);

CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'the event log is append-only');
END;
CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, 'the event log is append-only');
END;
