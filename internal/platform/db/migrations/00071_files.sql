-- File service (internal/files): uploaded files. The bytes live in the storage (DataDir/files by default) under
-- the row's id, never under a name a client chose; the original name is kept for display and downloads only.

-- +goose Up
CREATE TABLE files (
    id          TEXT    PRIMARY KEY,                   -- 32 random hex digits, the storage key
    customer_id BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    kind        TEXT    NOT NULL,                      -- image | file | audio | video
    mime        TEXT    NOT NULL,                      -- detected from the content
    name        TEXT    NOT NULL DEFAULT '',
    size        BIGINT  NOT NULL,
    sha256      TEXT    NOT NULL,
    uploaded_by TEXT    NOT NULL,                      -- msId of a dispatcher or terminal
    created_at  BIGINT  NOT NULL
);
CREATE INDEX files_customer ON files (customer_id, created_at);

-- +goose Down
DROP TABLE files;
