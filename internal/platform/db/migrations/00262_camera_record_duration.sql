-- +goose Up
-- A recording's playing time as its file states it (camera.mediaDuration), measured when it is finished: the list
-- shows what the player shows. 0: not measured (a recording from before, or one whose file states none), and then
-- the wall time from start to stop stands in.
ALTER TABLE camera_records ADD COLUMN duration_ms BIGINT NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE camera_records DROP COLUMN duration_ms;
