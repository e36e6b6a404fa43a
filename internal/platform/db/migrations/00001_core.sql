-- Core tables: customers (the spec's "client"), accounts (dispatchers and terminals), groups, sessions,
-- the operation log, durable events for socket resync, and per-host branding/config.
-- Times are UTC milliseconds since the epoch (BIGINT) on both engines.

-- +goose Up
CREATE TABLE customers (
    id          {{identity}},
    name        TEXT    NOT NULL UNIQUE,
    max_online  INTEGER NOT NULL DEFAULT 0,        -- concurrent dispatcher sessions, 0 = unlimited
    ds_config   TEXT    NOT NULL DEFAULT '{}',     -- data-source configuration: feature key -> 1/0 (spec §6)
    version     TEXT    NOT NULL DEFAULT '1',      -- product version "0" or "1" (spec §6)
    time_zone   TEXT    NOT NULL DEFAULT '0',      -- hours
    language    TEXT    NOT NULL DEFAULT 'en-US',
    created_at  BIGINT  NOT NULL
);

CREATE TABLE ptt_groups (
    id          {{identity}},
    customer_id BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    parent_id   BIGINT  NOT NULL DEFAULT 0,        -- fid; 0 = root
    name        TEXT    NOT NULL,
    color       TEXT    NOT NULL DEFAULT '',
    seq_num     INTEGER NOT NULL DEFAULT 0,
    kind        TEXT    NOT NULL DEFAULT 'fixed',  -- fixed | temp
    creator_id  TEXT    NOT NULL DEFAULT '',
    created_at  BIGINT  NOT NULL
);
CREATE UNIQUE INDEX ptt_groups_customer_kind_name ON ptt_groups (customer_id, kind, name);
CREATE INDEX ptt_groups_customer_parent ON ptt_groups (customer_id, parent_id);

CREATE TABLE accounts (
    id               TEXT    PRIMARY KEY,           -- account number = msId = cid
    customer_id      BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    type             TEXT    NOT NULL,              -- spec §3: 20 dispatcher, 10 app, 8 gateway, 6, 0, PMR, DMR, 505, camera
    acct_type        TEXT    NOT NULL DEFAULT '1',  -- feature access code "1" or "-2" (spec §6)
    admin            BOOLEAN NOT NULL DEFAULT FALSE,
    name             TEXT    NOT NULL,
    password_hash    TEXT    NOT NULL,
    password_changed BOOLEAN NOT NULL DEFAULT FALSE,
    email            TEXT    NOT NULL DEFAULT '',
    disabled         BOOLEAN NOT NULL DEFAULT FALSE,
    expires_at       BIGINT  NOT NULL DEFAULT 0,    -- 0 = never
    default_group_id BIGINT  REFERENCES ptt_groups(id) ON DELETE SET NULL,  -- gId
    ptt_group_id     BIGINT  REFERENCES ptt_groups(id) ON DELETE SET NULL,  -- pttGroup: the group it talks in now
    call_set_status  INTEGER NOT NULL DEFAULT 8,    -- 0 killed, 1 stunned, 8 active
    model            TEXT    NOT NULL DEFAULT '',
    sw_version       TEXT    NOT NULL DEFAULT '',
    avatar           TEXT    NOT NULL DEFAULT '',
    secret_key       TEXT    NOT NULL DEFAULT '',
    battery          INTEGER NOT NULL DEFAULT -1,   -- percent, -1 unknown
    signal           INTEGER NOT NULL DEFAULT -1,   -- 0..5, -1 unknown
    lat              DOUBLE PRECISION,
    lng              DOUBLE PRECISION,
    speed            DOUBLE PRECISION NOT NULL DEFAULT 0,
    last_gps_at      BIGINT  NOT NULL DEFAULT 0,
    online           BOOLEAN NOT NULL DEFAULT FALSE,
    last_online_at   BIGINT  NOT NULL DEFAULT 0,
    last_offline_at  BIGINT  NOT NULL DEFAULT 0,
    failed_logins    INTEGER NOT NULL DEFAULT 0,
    locked_until     BIGINT  NOT NULL DEFAULT 0,
    created_at       BIGINT  NOT NULL
);
CREATE INDEX accounts_customer ON accounts (customer_id, type);

CREATE TABLE group_members (
    group_id   BIGINT NOT NULL REFERENCES ptt_groups(id) ON DELETE CASCADE,
    account_id TEXT   NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    PRIMARY KEY (group_id, account_id)
);
CREATE INDEX group_members_account ON group_members (account_id);

CREATE TABLE sessions (
    token_hash      TEXT    PRIMARY KEY,            -- sha256 of the token; the token itself is never stored
    account_id      TEXT    NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    customer_id     BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    created_at      BIGINT  NOT NULL,
    expires_at      BIGINT  NOT NULL,
    socket_login_at BIGINT  NOT NULL DEFAULT 0,     -- first socket login; 0 = not yet (must come within 15 s)
    revoked         BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX sessions_account ON sessions (account_id);

CREATE TABLE oplog (
    id          {{identity}},
    customer_id BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    at          BIGINT  NOT NULL,
    account_id  TEXT    NOT NULL DEFAULT '',
    name        TEXT    NOT NULL DEFAULT '',
    type        INTEGER NOT NULL,                   -- spec §4 log types 0-9, 100-130
    remark      TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX oplog_customer_at ON oplog (customer_id, at);

-- Durable socket events: stored before they are published, replayed to reconnecting clients by seq.
CREATE TABLE events (
    seq         {{identity}},
    customer_id BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    type        TEXT    NOT NULL,
    data        TEXT    NOT NULL,
    at          BIGINT  NOT NULL
);
CREATE INDEX events_customer_seq ON events (customer_id, seq);

CREATE TABLE host_branding (
    hostname      TEXT PRIMARY KEY,
    sys_name      TEXT NOT NULL DEFAULT '',
    logo_url      TEXT NOT NULL DEFAULT '',
    mini_logo_url TEXT NOT NULL DEFAULT '',
    css_url       TEXT NOT NULL DEFAULT '',
    theme_color   TEXT NOT NULL DEFAULT '',
    remark        TEXT NOT NULL DEFAULT ''        -- JSON string {logoPageBg, loginFrameColor}
);

CREATE TABLE host_config (
    hostname TEXT PRIMARY KEY,
    config   TEXT NOT NULL                        -- JSON client config (spec §3 "Per-host client config")
);

-- +goose Down
DROP TABLE host_config;
DROP TABLE host_branding;
DROP TABLE events;
DROP TABLE oplog;
DROP TABLE sessions;
DROP TABLE group_members;
DROP TABLE accounts;
DROP TABLE ptt_groups;
DROP TABLE customers;
