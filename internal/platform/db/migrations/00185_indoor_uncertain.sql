-- +goose Up
-- Indoor positions without the 3 m promise (docs/adr/0023): the first scans of a track, or a stated accuracy
-- worse than 1.5 m.
ALTER TABLE indoor_positions ADD COLUMN uncertain BOOLEAN NOT NULL DEFAULT FALSE;

-- +goose Down
ALTER TABLE indoor_positions DROP COLUMN uncertain;
