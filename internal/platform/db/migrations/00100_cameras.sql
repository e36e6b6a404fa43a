-- Cameras (spec §3 "Camera": stream id, stream url, protocol) and their recordings. A recording row keeps no
-- foreign key to its camera: recordings outlive a deleted camera until retention removes them.

-- +goose Up
CREATE TABLE cameras (
    id          {{identity}},
    customer_id BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    stream      TEXT    NOT NULL,                 -- the stream id (unique per customer)
    url         TEXT    NOT NULL,                 -- rtsp:// or rtsps://
    protocol    INTEGER NOT NULL DEFAULT 0,       -- RTSP transport: 0 TCP, 1 UDP
    name        TEXT    NOT NULL DEFAULT '',
    app         TEXT    NOT NULL DEFAULT 'monitor',
    created_at  BIGINT  NOT NULL,
    UNIQUE (customer_id, stream)
);

CREATE TABLE camera_records (
    id          {{identity}},
    customer_id BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    camera_id   BIGINT  NOT NULL,
    stream      TEXT    NOT NULL,
    name        TEXT    NOT NULL DEFAULT '',
    app         TEXT    NOT NULL DEFAULT 'monitor',
    remark      TEXT    NOT NULL DEFAULT '',
    path        TEXT    NOT NULL,                 -- relative to the data directory
    start_at    BIGINT  NOT NULL,                 -- ms
    end_at      BIGINT  NOT NULL DEFAULT 0,       -- ms; 0 while recording
    bytes       BIGINT  NOT NULL DEFAULT 0,
    started_by  TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX camera_records_customer_start ON camera_records (customer_id, start_at);
CREATE INDEX camera_records_stream_start ON camera_records (customer_id, stream, start_at);

-- +goose Down
DROP TABLE camera_records;
DROP TABLE cameras;
