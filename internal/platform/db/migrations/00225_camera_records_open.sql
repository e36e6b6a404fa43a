-- +goose Up
-- The recordings still being written, by node: the cluster's sweep looks for the open recordings of dead nodes
-- every node timeout (camera.Service.CloseOrphans, docs/adr/0024) without reading every finished recording.
CREATE INDEX camera_records_open ON camera_records (node_id) WHERE end_at = 0;

-- +goose Down
DROP INDEX camera_records_open;
