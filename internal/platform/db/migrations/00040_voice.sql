-- Voice: call records (one row per recorded talk burst), the mute list and missed individual calls.

-- +goose Up
CREATE TABLE voice_records (
    id              {{identity}},
    customer_id     BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    call_id         TEXT    NOT NULL,
    kind            TEXT    NOT NULL,            -- single | group | temp | all | broadcast
    group_id        BIGINT  NOT NULL DEFAULT 0,
    group_name      TEXT    NOT NULL DEFAULT '',
    peer_ids        TEXT    NOT NULL DEFAULT '', -- single: the other party; temp/all/broadcast: the parties, comma-separated
    talker_id       TEXT    NOT NULL,
    talker_name     TEXT    NOT NULL DEFAULT '',
    started_at      BIGINT  NOT NULL,            -- btime: UTC ms of the grant
    duration_ms     BIGINT  NOT NULL,
    quality         TEXT    NOT NULL,            -- HD | SD
    size            BIGINT  NOT NULL,            -- bytes of the Ogg file
    path            TEXT    NOT NULL,            -- relative to the data directory
    access_us       BIGINT  NOT NULL DEFAULT 0,  -- press → grant
    first_packet_us BIGINT  NOT NULL DEFAULT 0,  -- grant → first forwarded packet
    delay_p99_us    BIGINT  NOT NULL DEFAULT 0   -- server-added delay per packet, 99th percentile
);
CREATE UNIQUE INDEX voice_records_call ON voice_records (customer_id, call_id, started_at);
CREATE INDEX voice_records_time ON voice_records (customer_id, started_at);
CREATE INDEX voice_records_talker ON voice_records (customer_id, talker_id, started_at);
CREATE INDEX voice_records_age ON voice_records (started_at);

CREATE TABLE voice_mutes (
    id          {{identity}},
    customer_id BIGINT NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    ms_id       TEXT   NOT NULL REFERENCES accounts(id) ON DELETE CASCADE, -- the listener
    mute_id     TEXT   NOT NULL REFERENCES accounts(id) ON DELETE CASCADE, -- the talker it does not hear
    created_at  BIGINT NOT NULL
);
CREATE UNIQUE INDEX voice_mutes_pair ON voice_mutes (customer_id, ms_id, mute_id);

CREATE TABLE voice_missed (
    id          {{identity}},
    customer_id BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    callee_id   TEXT    NOT NULL,
    caller_id   TEXT    NOT NULL,
    caller_name TEXT    NOT NULL DEFAULT '',
    call_id     TEXT    NOT NULL,
    status      INTEGER NOT NULL,                -- 408 no answer, 487 canceled, 486 busy, 101 offline
    at          BIGINT  NOT NULL
);
CREATE INDEX voice_missed_callee ON voice_missed (customer_id, callee_id, at);

-- +goose Down
DROP TABLE voice_missed;
DROP TABLE voice_mutes;
DROP TABLE voice_records;
