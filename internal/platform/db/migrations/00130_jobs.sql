-- Job tickets (internal/job, spec §3 "Job ticket", §4 job ticket states, §7 /ds/job/*). A job is the task a
-- dispatcher sends (text, address, position); each assignee holds its own ticket of it (jobMsList) with its own
-- state. A ticket is stored before it is sent, and stays pending (delivered_at = 0) until its terminal
-- acknowledged `job.deliver`; every state change is kept in job_history.

-- +goose Up
CREATE TABLE jobs (
    id           {{identity}},
    customer_id  BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    job          TEXT    NOT NULL,                 -- the task
    address      TEXT    NOT NULL DEFAULT '',
    lat          DOUBLE PRECISION,                 -- the task's position; NULL when it has none
    lng          DOUBLE PRECISION,
    creator_id   TEXT    NOT NULL,                 -- the dispatcher's msId (kept if the account goes)
    creator_name TEXT    NOT NULL DEFAULT '',
    created_at   BIGINT  NOT NULL                  -- sending time (ms)
);
CREATE INDEX jobs_customer_time ON jobs (customer_id, created_at);

CREATE TABLE job_tickets (
    job_id       BIGINT  NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    customer_id  BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    ms_id        TEXT    NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    state        INTEGER NOT NULL DEFAULT 0,       -- 0 unsettled, 1 accepted, 2 rejected, 3 working, 4 over
    reason       TEXT    NOT NULL DEFAULT '',      -- why it was rejected
    remark       TEXT    NOT NULL DEFAULT '',      -- the worker's note when completing
    delivered_at BIGINT  NOT NULL DEFAULT 0,       -- dispatch time: the terminal acknowledged it; 0 = pending
    accepted_at  BIGINT  NOT NULL DEFAULT 0,       -- also the time of a rejection
    started_at   BIGINT  NOT NULL DEFAULT 0,
    ended_at     BIGINT  NOT NULL DEFAULT 0,
    updated_at   BIGINT  NOT NULL,
    PRIMARY KEY (job_id, ms_id)
);
CREATE INDEX job_tickets_pending ON job_tickets (ms_id, delivered_at, job_id);
CREATE INDEX job_tickets_customer_ms ON job_tickets (customer_id, ms_id, state);

CREATE TABLE job_history (
    id          {{identity}},
    job_id      BIGINT  NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    customer_id BIGINT  NOT NULL,
    ms_id       TEXT    NOT NULL,                  -- the ticket's terminal
    action      TEXT    NOT NULL,                  -- created, delivered, accepted, rejected, started, completed
    state       INTEGER NOT NULL,                  -- the ticket's state after the action
    reason      TEXT    NOT NULL DEFAULT '',
    by_id       TEXT    NOT NULL DEFAULT '',       -- who acted (dispatcher or terminal)
    by_name     TEXT    NOT NULL DEFAULT '',
    at          BIGINT  NOT NULL
);
CREATE INDEX job_history_job ON job_history (job_id, id);

-- +goose Down
DROP TABLE job_history;
DROP TABLE job_tickets;
DROP TABLE jobs;
