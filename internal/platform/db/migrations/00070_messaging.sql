-- Messaging (internal/message): terminals send messages too (incoming, spec §4 status 0 until a dispatcher reads
-- them, then 1), and a message may carry one uploaded file (kind image, file, audio or video).

-- +goose Up
ALTER TABLE messages ADD COLUMN incoming BOOLEAN NOT NULL DEFAULT FALSE;   -- sent by a terminal
ALTER TABLE messages ADD COLUMN kind TEXT NOT NULL DEFAULT 'text';         -- text | image | file | audio | video
ALTER TABLE messages ADD COLUMN file_id TEXT NOT NULL DEFAULT '';          -- files.id of the attachment, or ''
ALTER TABLE messages ADD COLUMN file_name TEXT NOT NULL DEFAULT '';
ALTER TABLE messages ADD COLUMN file_mime TEXT NOT NULL DEFAULT '';
ALTER TABLE messages ADD COLUMN file_size BIGINT NOT NULL DEFAULT 0;
ALTER TABLE messages ADD COLUMN read_by TEXT NOT NULL DEFAULT '';          -- the dispatcher who read an incoming message
ALTER TABLE messages ADD COLUMN read_at BIGINT NOT NULL DEFAULT 0;
-- Every message stored before this step was a dispatcher's: nothing of it is unread.
UPDATE messages SET status = 1 WHERE incoming = FALSE;
CREATE INDEX messages_unread ON messages (customer_id, status, id);
CREATE INDEX messages_sender ON messages (customer_id, sender_id, created_at);
CREATE INDEX messages_target_ms ON messages (customer_id, target_ms_id, created_at);
CREATE INDEX messages_target_gid ON messages (customer_id, target_gid, created_at);

-- +goose Down
DROP INDEX messages_target_gid;
DROP INDEX messages_target_ms;
DROP INDEX messages_sender;
DROP INDEX messages_unread;
ALTER TABLE messages DROP COLUMN read_at;
ALTER TABLE messages DROP COLUMN read_by;
ALTER TABLE messages DROP COLUMN file_size;
ALTER TABLE messages DROP COLUMN file_mime;
ALTER TABLE messages DROP COLUMN file_name;
ALTER TABLE messages DROP COLUMN file_id;
ALTER TABLE messages DROP COLUMN kind;
ALTER TABLE messages DROP COLUMN incoming;
