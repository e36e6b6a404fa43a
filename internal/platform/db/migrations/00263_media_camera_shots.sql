-- +goose Up
-- Camera snapshots taken in the console are kept in the media cloud (medialib.KeepShot): the item names its
-- camera (stream id and name at the time); '' for what a terminal uploaded.
ALTER TABLE media_items ADD COLUMN camera TEXT NOT NULL DEFAULT '';
ALTER TABLE media_items ADD COLUMN camera_name TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE media_items DROP COLUMN camera_name;
ALTER TABLE media_items DROP COLUMN camera;
