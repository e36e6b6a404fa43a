-- Video: per-customer limits of video calls and video monitoring (spec §8: maximum concurrent video calls,
-- no video credit, maximum duration, maximum monitored entries), and one row per video session (a call or a
-- monitoring) when it ends, which is also what spends the customer's video credit.

-- +goose Up
CREATE TABLE video_limits (
    customer_id     BIGINT  PRIMARY KEY REFERENCES customers(id) ON DELETE CASCADE,
    max_calls       INTEGER NOT NULL DEFAULT 8,    -- concurrent video calls of the customer (406)
    max_monitors    INTEGER NOT NULL DEFAULT 16,   -- concurrent monitored entries of the customer (406)
    max_duration_s  INTEGER NOT NULL DEFAULT 3600, -- one call's longest connected time (418)
    credit_ms       BIGINT  NOT NULL DEFAULT -1,   -- video-call time left; -1 = unlimited (402 at 0)
    updated_at      BIGINT  NOT NULL DEFAULT 0
);

CREATE TABLE video_sessions (
    id            {{identity}},
    customer_id   BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    call_id       TEXT    NOT NULL,
    kind          TEXT    NOT NULL,               -- call | monitor
    caller_id     TEXT    NOT NULL,               -- call: who invited; monitor: the dispatcher
    caller_name   TEXT    NOT NULL DEFAULT '',
    callee_id     TEXT    NOT NULL DEFAULT '',    -- call: who answered (or was rung); monitor: the terminal
    callee_name   TEXT    NOT NULL DEFAULT '',
    codec         TEXT    NOT NULL DEFAULT '',    -- VP8 | H264 ('' when it never connected)
    started_at    BIGINT  NOT NULL,               -- invite (UTC ms)
    connected_at  BIGINT  NOT NULL DEFAULT 0,     -- 0 = never connected
    ended_at      BIGINT  NOT NULL,
    duration_ms   BIGINT  NOT NULL DEFAULT 0,     -- connected time
    status        INTEGER NOT NULL,               -- why it ended (spec §4 call status codes)
    ended_by      TEXT    NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX video_sessions_call ON video_sessions (customer_id, call_id, caller_id);
CREATE INDEX video_sessions_time ON video_sessions (customer_id, started_at);

-- +goose Down
DROP TABLE video_sessions;
DROP TABLE video_limits;
