-- Durable socket events are kept for a retention period (serve --event-retention-days); the pruner deletes by
-- age, oldest first (internal/platform/realtime Hub.PruneEvents).

-- +goose Up
CREATE INDEX events_at ON events (at);

-- +goose Down
DROP INDEX events_at;
