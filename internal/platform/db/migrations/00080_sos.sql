-- Safety: SOS alarm records (spec §3 alarm record, §4 states 0 sending, 1 acknowledged, 2 closed).
-- ms_id has no foreign key on purpose: an alarm is a safety record and outlives the terminal's account; the name
-- and type are kept as they were when the alarm was raised.

-- +goose Up
CREATE TABLE sos_alarms (
    id             {{identity}},
    customer_id    BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    ms_id          TEXT    NOT NULL,
    ms_name        TEXT    NOT NULL DEFAULT '',
    ms_type        TEXT    NOT NULL DEFAULT '',
    type           TEXT    NOT NULL DEFAULT '0',   -- 0 SOS key, 1 man down, 2 no movement, 3 app button, …
    state          INTEGER NOT NULL DEFAULT 0,
    at             BIGINT  NOT NULL,               -- raised (ms)
    lat            DOUBLE PRECISION,
    lng            DOUBLE PRECISION,
    responder_id   TEXT    NOT NULL DEFAULT '',
    responder_name TEXT    NOT NULL DEFAULT '',
    response_at    BIGINT  NOT NULL DEFAULT 0,     -- 0 = nobody responded yet
    closer_id      TEXT    NOT NULL DEFAULT '',
    closer_name    TEXT    NOT NULL DEFAULT '',
    close_at       BIGINT  NOT NULL DEFAULT 0,
    close_kind     TEXT    NOT NULL DEFAULT '',    -- console | remote | terminal
    remark         TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX sos_alarms_customer_at ON sos_alarms (customer_id, at);
CREATE INDEX sos_alarms_customer_ms_at ON sos_alarms (customer_id, ms_id, at);
-- At most one open alarm per terminal: a second SOS press while one is open refers to it.
CREATE UNIQUE INDEX sos_alarms_one_open ON sos_alarms (ms_id) WHERE state < 2;

-- +goose Down
DROP TABLE sos_alarms;
