-- Terminal resume tokens (internal/auth Sessions.CreateResume): a terminal that logged in with its password
-- reconnects with a token instead, so a fleet reconnecting after a restart costs no password hashes. They live
-- in sessions beside the console tokens, told apart by kind: a resume token never opens the HTTP API.

-- +goose Up
ALTER TABLE sessions ADD COLUMN kind TEXT NOT NULL DEFAULT 'console';

-- +goose Down
ALTER TABLE sessions DROP COLUMN kind;
