-- Reports and voice rights (issue 19, docs/adr/0022): the online/offline intervals of every account
-- (internal/presence, spec §7 findOnlineDurationPost/findOnlineDetailData), every talk burst whether recorded
-- or not (internal/call talktime.go: the call-duration report), the voice and recording permissions of
-- terminals and the recording time of customers (internal/call rights.go, spec §6).

-- +goose Up
CREATE TABLE presence_intervals (
    id          {{identity}},
    customer_id BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    account_id  TEXT    NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    online_at   BIGINT  NOT NULL,                 -- UTC ms of the login
    offline_at  BIGINT,                           -- UTC ms of the logout; NULL while online
    seen_at     BIGINT  NOT NULL                  -- its login, or its logout once closed
);
CREATE INDEX presence_intervals_account ON presence_intervals (customer_id, account_id, online_at);
CREATE INDEX presence_intervals_open ON presence_intervals (account_id) WHERE offline_at IS NULL;

-- The last moment the server was seen running (one row, refreshed every 30 s): intervals a crash left open end
-- there at the next start.
CREATE TABLE presence_clock (
    id      INTEGER PRIMARY KEY,                  -- always 1
    seen_at BIGINT  NOT NULL
);

CREATE TABLE voice_bursts (
    id          {{identity}},
    customer_id BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    call_id     TEXT    NOT NULL,
    kind        TEXT    NOT NULL,                 -- single | group | temp | all | broadcast
    group_id    BIGINT  NOT NULL DEFAULT 0,
    group_name  TEXT    NOT NULL DEFAULT '',
    talker_id   TEXT    NOT NULL,
    started_at  BIGINT  NOT NULL,                 -- btime: UTC ms of the grant
    duration_ms BIGINT  NOT NULL,
    recorded    TEXT    NOT NULL DEFAULT ''       -- '' recorded (or no recorder), else why not: noRecordPermission | noRecordTime
);
CREATE UNIQUE INDEX voice_bursts_call ON voice_bursts (customer_id, call_id, started_at);
CREATE INDEX voice_bursts_time ON voice_bursts (customer_id, started_at);

CREATE TABLE voice_rights (
    account_id  TEXT    PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    customer_id BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    voice       BOOLEAN NOT NULL DEFAULT TRUE,    -- may talk (and counts in the call-duration statistics)
    record      BOOLEAN NOT NULL DEFAULT TRUE,    -- its bursts are recorded
    updated_at  BIGINT  NOT NULL
);
CREATE INDEX voice_rights_customer ON voice_rights (customer_id);

CREATE TABLE recording_time (
    customer_id BIGINT  PRIMARY KEY REFERENCES customers(id) ON DELETE CASCADE,
    quota_ms    BIGINT  NOT NULL,                 -- recording time bought; no row = unlimited
    used_ms     BIGINT  NOT NULL DEFAULT 0,       -- recorded so far
    updated_at  BIGINT  NOT NULL
);

-- +goose Down
DROP TABLE recording_time;
DROP TABLE voice_rights;
DROP TABLE voice_bursts;
DROP TABLE presence_clock;
DROP TABLE presence_intervals;
