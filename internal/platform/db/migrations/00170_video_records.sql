-- Recording of video calls and video monitoring (docs/video.md §5, adr/0017): a per-customer switch in
-- video_limits (set by the operator, `tenfour admin video-limits --record`), and one row per finished recording.
-- A row is written only once its file is complete (renamed from its .part name): a row always has a playable file.

-- +goose Up
ALTER TABLE video_limits ADD COLUMN record INTEGER NOT NULL DEFAULT 0; -- 1: calls and monitorings are recorded

CREATE TABLE video_records (
    id            {{identity}},
    customer_id   BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    call_id       TEXT    NOT NULL,               -- the session (v… call, m… monitoring)
    kind          TEXT    NOT NULL,               -- call | monitor
    terminal_id   TEXT    NOT NULL,               -- whose camera and microphone the file holds
    terminal_name TEXT    NOT NULL DEFAULT '',
    by_id         TEXT    NOT NULL DEFAULT '',    -- the dispatcher: a call's other party, a monitoring's first viewer
    by_name       TEXT    NOT NULL DEFAULT '',
    codec         TEXT    NOT NULL,               -- VP8 | H264
    audio         INTEGER NOT NULL DEFAULT 0,     -- 1: the file has the terminal's microphone (Opus)
    path          TEXT    NOT NULL,               -- relative to the data directory (.webm for VP8, .mp4 for H.264)
    start_at      BIGINT  NOT NULL,               -- the first recorded keyframe (UTC ms)
    duration_ms   BIGINT  NOT NULL,
    bytes         BIGINT  NOT NULL,
    frames        BIGINT  NOT NULL DEFAULT 0,     -- video frames written
    dropped       BIGINT  NOT NULL DEFAULT 0      -- packets the recorder's queue could not take (never the live path's)
);
CREATE INDEX video_records_customer_start ON video_records (customer_id, start_at);
CREATE INDEX video_records_terminal_start ON video_records (customer_id, terminal_id, start_at);

-- +goose Down
DROP TABLE video_records;
ALTER TABLE video_limits DROP COLUMN record;
