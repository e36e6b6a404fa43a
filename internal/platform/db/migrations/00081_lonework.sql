-- Safety: lone-worker plans (one row per terminal, spec §3 "Lone work") with the engine's runtime state, and the
-- alarms the engine (or a dispatcher) raised for them. Alarm rows keep no foreign key to their plan or terminal:
-- they are safety records and outlive a deleted plan or account.

-- +goose Up
CREATE TABLE lone_works (
    id            {{identity}},
    customer_id   BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    ms_id         TEXT    NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    start_at      BIGINT  NOT NULL,                -- planned start (ms)
    duration_min  INTEGER NOT NULL,                -- 1 .. 1440
    interval_min  INTEGER NOT NULL,                -- 1 .. duration
    countdown_sec INTEGER NOT NULL DEFAULT 60,     -- time to answer a prompt
    enabled       BOOLEAN NOT NULL DEFAULT TRUE,
    status        INTEGER NOT NULL DEFAULT 0,      -- 0 normal, 1 alarm, 2 over
    real_start_at BIGINT  NOT NULL DEFAULT 0,
    real_stop_at  BIGINT  NOT NULL DEFAULT 0,
    next_check_at BIGINT  NOT NULL DEFAULT 0,      -- engine: next prompt due
    deadline_at   BIGINT  NOT NULL DEFAULT 0,      -- engine: a prompt awaits the worker until then; 0 = none
    flags         INTEGER NOT NULL DEFAULT 0,      -- engine: conditions already alarmed (offline, weak signal)
    alarm_count   INTEGER NOT NULL DEFAULT 0,
    created_by    TEXT    NOT NULL DEFAULT '',
    created_at    BIGINT  NOT NULL
);
CREATE INDEX lone_works_customer_start ON lone_works (customer_id, start_at);
CREATE INDEX lone_works_ms ON lone_works (ms_id, start_at);
CREATE INDEX lone_works_running ON lone_works (start_at) WHERE real_stop_at = 0;

CREATE TABLE lone_work_alarms (
    id           {{identity}},
    customer_id  BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    work_id      BIGINT  NOT NULL,
    ms_id        TEXT    NOT NULL,
    ms_name      TEXT    NOT NULL DEFAULT '',
    reason       INTEGER NOT NULL,                 -- 1 battery off, 2 offline, 3 weak signal, 4 busy, 5 forgot to reply
    at           BIGINT  NOT NULL,
    remark       TEXT    NOT NULL DEFAULT '',
    handler_id   TEXT    NOT NULL DEFAULT '',
    handler_name TEXT    NOT NULL DEFAULT '',
    handled_at   BIGINT  NOT NULL DEFAULT 0        -- 0 = nobody handled it yet
);
CREATE INDEX lone_work_alarms_work ON lone_work_alarms (work_id, at);
CREATE INDEX lone_work_alarms_customer_at ON lone_work_alarms (customer_id, at);

-- +goose Down
DROP TABLE lone_work_alarms;
DROP TABLE lone_works;
