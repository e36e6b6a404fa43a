-- Broadcast / public address (spec §3 "Broadcast", §7 "Broadcast service", docs/adr/0018): organisations (nested)
-- with their speakers, casters (who may broadcast, with a priority), the broadcast sessions, the music library,
-- tasks (manual, timed, and each caster's real-time task) with their files and devices, and plans.

-- +goose Up
CREATE TABLE bc_orgs (
    id          {{identity}},
    customer_id BIGINT NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    parent_id   BIGINT NOT NULL DEFAULT 0,           -- 0: a root organisation
    name        TEXT   NOT NULL,
    code        TEXT   NOT NULL,
    call_number TEXT   NOT NULL,
    pass_hash   TEXT   NOT NULL DEFAULT '',          -- speakers of the org register with it ('' = none set)
    created_at  BIGINT NOT NULL
);
CREATE UNIQUE INDEX bc_orgs_code ON bc_orgs (customer_id, code);
CREATE UNIQUE INDEX bc_orgs_call_number ON bc_orgs (customer_id, call_number);
CREATE INDEX bc_orgs_parent ON bc_orgs (customer_id, parent_id);

CREATE TABLE bc_casters (
    id          {{identity}},
    customer_id BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    user_id     TEXT    NOT NULL DEFAULT '',         -- the console account (msId) this caster belongs to, if any
    name        TEXT    NOT NULL,
    code        TEXT    NOT NULL,                    -- the login name of POST /v1/login: unique on the server
    call_number TEXT    NOT NULL,
    priority    INTEGER NOT NULL DEFAULT 5,          -- 1..9, higher wins a speaker
    pass_hash   TEXT    NOT NULL DEFAULT '',         -- hash of the md5 the client sends; '' = '{secret}' (no password)
    created_at  BIGINT  NOT NULL
);
CREATE UNIQUE INDEX bc_casters_code ON bc_casters (code);
CREATE UNIQUE INDEX bc_casters_call_number ON bc_casters (customer_id, call_number);

CREATE TABLE bc_sessions (
    token_hash  TEXT   NOT NULL PRIMARY KEY,
    caster_id   BIGINT NOT NULL REFERENCES bc_casters(id) ON DELETE CASCADE,
    customer_id BIGINT NOT NULL,
    created_at  BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL
);
CREATE INDEX bc_sessions_expires ON bc_sessions (expires_at);

CREATE TABLE bc_devices (
    id          {{identity}},
    customer_id BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    org_id      BIGINT  NOT NULL REFERENCES bc_orgs(id),  -- no cascade: an org with devices is not deleted
    name        TEXT    NOT NULL,
    code        TEXT    NOT NULL,
    ao_volume   INTEGER NOT NULL DEFAULT 60,          -- 0..100
    online      BOOLEAN NOT NULL DEFAULT FALSE,
    seen_at     BIGINT  NOT NULL DEFAULT 0,
    created_at  BIGINT  NOT NULL
);
CREATE UNIQUE INDEX bc_devices_code ON bc_devices (customer_id, code);
CREATE INDEX bc_devices_org ON bc_devices (org_id);

CREATE TABLE bc_files (
    id            {{identity}},
    customer_id   BIGINT NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    group_id      BIGINT NOT NULL DEFAULT 0,          -- the organisation the file is filed under (0: the customer's)
    original_name TEXT   NOT NULL,
    name          TEXT   NOT NULL,                    -- stored name, served as /broadcast/music/{name}
    length_ms     BIGINT NOT NULL,
    size          BIGINT NOT NULL,
    created_at    BIGINT NOT NULL
);
CREATE UNIQUE INDEX bc_files_name ON bc_files (name);
CREATE INDEX bc_files_group ON bc_files (customer_id, group_id);

CREATE TABLE bc_plans (
    id          {{identity}},
    customer_id BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    name        TEXT    NOT NULL,
    active      BOOLEAN NOT NULL DEFAULT FALSE,       -- at most one active plan per customer (spec §9)
    created_at  BIGINT  NOT NULL
);
CREATE INDEX bc_plans_customer ON bc_plans (customer_id);

CREATE TABLE bc_tasks (
    id             {{identity}},
    customer_id    BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    caster_id      BIGINT  NOT NULL REFERENCES bc_casters(id) ON DELETE CASCADE,
    kind           INTEGER NOT NULL DEFAULT 0,        -- 0 manual, 1 timed, 2 the caster's real-time task
    name           TEXT    NOT NULL DEFAULT '',
    plan_id        BIGINT  NOT NULL DEFAULT 0,
    offline        INTEGER NOT NULL DEFAULT 0,        -- 1: devices coming online later join the running task
    audio_source   INTEGER NOT NULL DEFAULT 0,        -- 0: library files
    loop_count     INTEGER NOT NULL DEFAULT 1,        -- duration_type 1: rounds of the file list
    volume         INTEGER NOT NULL DEFAULT 60,
    duration_type  INTEGER NOT NULL DEFAULT 1,        -- 1 N rounds, 2 for duration_sec, 3 until stopped
    duration_sec   INTEGER NOT NULL DEFAULT 0,
    interval_time  INTEGER NOT NULL DEFAULT 0,        -- seconds of silence between rounds
    start_time     TEXT    NOT NULL DEFAULT '',       -- timed: HH:MM:SS in the customer's zone
    weekdays       TEXT    NOT NULL DEFAULT '',       -- timed: "1,3,5" (Monday = 1); '' = every day
    choice_file_id BIGINT  NOT NULL DEFAULT 0,        -- real-time: the file the player starts from
    state          INTEGER NOT NULL DEFAULT 0,        -- 0 idle, 1 playing, 2 paused
    started_at     BIGINT  NOT NULL DEFAULT 0,
    paused_at      BIGINT  NOT NULL DEFAULT 0,
    paused_ms      BIGINT  NOT NULL DEFAULT 0,        -- time spent paused in this run
    run_devices    TEXT    NOT NULL DEFAULT '',       -- the devices of this run (offline 0: those online at its start)
    fired_until    BIGINT  NOT NULL DEFAULT 0,        -- timed: occurrences up to here are handled (run or missed)
    missed_count   INTEGER NOT NULL DEFAULT 0,
    missed_at      BIGINT  NOT NULL DEFAULT 0,        -- the last occurrence missed (server down past its end)
    ended_at       BIGINT  NOT NULL DEFAULT 0,
    end_reason     TEXT    NOT NULL DEFAULT '',       -- finished, stopped, deleted
    created_at     BIGINT  NOT NULL,
    updated_at     BIGINT  NOT NULL
);
CREATE INDEX bc_tasks_customer ON bc_tasks (customer_id, kind);
CREATE INDEX bc_tasks_plan ON bc_tasks (plan_id);
CREATE UNIQUE INDEX bc_tasks_realtime ON bc_tasks (caster_id) WHERE kind = 2;

CREATE TABLE bc_task_files (
    task_id BIGINT  NOT NULL REFERENCES bc_tasks(id) ON DELETE CASCADE,
    pos     INTEGER NOT NULL,
    file_id BIGINT  NOT NULL REFERENCES bc_files(id),
    PRIMARY KEY (task_id, pos)
){{without_rowid}};
CREATE INDEX bc_task_files_file ON bc_task_files (file_id);

CREATE TABLE bc_task_devices (
    task_id   BIGINT NOT NULL REFERENCES bc_tasks(id) ON DELETE CASCADE,
    device_id BIGINT NOT NULL REFERENCES bc_devices(id) ON DELETE CASCADE,
    PRIMARY KEY (task_id, device_id)
){{without_rowid}};
CREATE INDEX bc_task_devices_device ON bc_task_devices (device_id);

-- +goose Down
DROP TABLE bc_task_devices;
DROP TABLE bc_task_files;
DROP TABLE bc_tasks;
DROP TABLE bc_plans;
DROP TABLE bc_files;
DROP TABLE bc_devices;
DROP TABLE bc_sessions;
DROP TABLE bc_casters;
DROP TABLE bc_orgs;
