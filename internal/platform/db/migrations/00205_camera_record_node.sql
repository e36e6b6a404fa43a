-- +goose Up
-- The node writing a camera recording (--node-id; '' on a node alone): a node restarting closes only the
-- recordings it left open, not the ones another node of the cluster is still writing (docs/adr/0024).
ALTER TABLE camera_records ADD COLUMN node_id TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE camera_records DROP COLUMN node_id;
