-- +goose Up
-- When an SOS alarm's position was fixed (issue 32): the raise for a position the terminal sent with the SOS, the
-- terminal's last fix for its last known position (which may be hours old); 0 when the alarm has no position.
-- NULL in the rows stored before: they read as the raise time.
ALTER TABLE sos_alarms ADD COLUMN fix_at BIGINT;

-- +goose Down
ALTER TABLE sos_alarms DROP COLUMN fix_at;
