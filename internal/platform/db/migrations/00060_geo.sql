-- Geo: the GPS time series, geofences with their terminals and alarm records, and map marks.
-- Times are UTC milliseconds; coordinates WGS-84 degrees; speeds metres per second.

-- +goose Up
-- One row per fix. The key (terminal, time) is the track query's index and makes a resent batch a no-op;
-- the time index serves retention pruning. No foreign key: a batch must never fail on one account.
CREATE TABLE gps_points (
    terminal_id TEXT   NOT NULL,
    at          BIGINT NOT NULL,
    lat         DOUBLE PRECISION NOT NULL,
    lng         DOUBLE PRECISION NOT NULL,
    speed       REAL   NOT NULL DEFAULT 0,
    direction   REAL   NOT NULL DEFAULT 0,
    altitude    REAL   NOT NULL DEFAULT 0,
    PRIMARY KEY (terminal_id, at)
){{without_rowid}};
CREATE INDEX gps_points_at ON gps_points (at);

CREATE TABLE fences (
    id           {{identity}},
    customer_id  BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    type         TEXT    NOT NULL,                 -- in | out
    shape        TEXT    NOT NULL,                 -- polygon | circle | rectangle
    geometry     TEXT    NOT NULL,                 -- GeoJSON (Polygon, or Point for a circle's centre)
    radius       DOUBLE PRECISION NOT NULL DEFAULT 0, -- circle: metres
    creator_id   TEXT    NOT NULL DEFAULT '',
    creator_name TEXT    NOT NULL DEFAULT '',
    created_at   BIGINT  NOT NULL,
    updated_at   BIGINT  NOT NULL,
    ver          INTEGER NOT NULL DEFAULT 1        -- bumped by every edit (alarm engine state)
);
CREATE INDEX fences_customer ON fences (customer_id);

CREATE TABLE fence_terminals (
    fence_id    BIGINT NOT NULL REFERENCES fences(id) ON DELETE CASCADE,
    terminal_id TEXT   NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    PRIMARY KEY (fence_id, terminal_id)
);
CREATE INDEX fence_terminals_terminal ON fence_terminals (terminal_id);

-- Alarm records outlive their fence (no foreign key on fence_id): names are copied in.
CREATE TABLE fence_alarms (
    id             {{identity}},
    customer_id    BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    fence_id       BIGINT  NOT NULL,
    fence_name     TEXT    NOT NULL,
    fence_type     TEXT    NOT NULL,               -- in | out
    terminal_id    TEXT    NOT NULL,
    terminal_name  TEXT    NOT NULL DEFAULT '',
    type           TEXT    NOT NULL,               -- leave | enter
    at             BIGINT  NOT NULL,
    lat            DOUBLE PRECISION NOT NULL,
    lng            DOUBLE PRECISION NOT NULL,
    status         INTEGER NOT NULL DEFAULT 0,     -- 0 raised, 1 responded, 2 closed
    responder_id   TEXT    NOT NULL DEFAULT '',
    responder_name TEXT    NOT NULL DEFAULT '',
    response_at    BIGINT  NOT NULL DEFAULT 0,
    closer_id      TEXT    NOT NULL DEFAULT '',
    closer_name    TEXT    NOT NULL DEFAULT '',
    closed_at      BIGINT  NOT NULL DEFAULT 0,
    remark         TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX fence_alarms_customer_at ON fence_alarms (customer_id, at);
CREATE INDEX fence_alarms_terminal_at ON fence_alarms (terminal_id, at);

CREATE TABLE marks (
    id           {{identity}},
    customer_id  BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    type         TEXT    NOT NULL,                 -- point | line | shape
    name         TEXT    NOT NULL,
    geometry     TEXT    NOT NULL,                 -- GeoJSON Point | LineString | Polygon
    color        TEXT    NOT NULL DEFAULT '',
    icon         TEXT    NOT NULL DEFAULT '',
    link         TEXT    NOT NULL DEFAULT '',
    remark       TEXT    NOT NULL DEFAULT '',
    creator_id   TEXT    NOT NULL DEFAULT '',
    creator_name TEXT    NOT NULL DEFAULT '',
    created_at   BIGINT  NOT NULL,
    updated_at   BIGINT  NOT NULL
);
CREATE INDEX marks_customer ON marks (customer_id, type);

-- The terminal's map icon key (updateMsIcon; its image goes to accounts.avatar).
ALTER TABLE accounts ADD COLUMN map_icon TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE accounts DROP COLUMN map_icon;
DROP TABLE marks;
DROP TABLE fence_alarms;
DROP TABLE fence_terminals;
DROP TABLE fences;
DROP TABLE gps_points;
