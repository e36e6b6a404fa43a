-- Operation log: an entry's remark as data (a template key and its parameters, JSON), so consoles render it in
-- the viewer's language and resolve ids to names. Older rows keep '' and show their plain-text remark.

-- +goose Up
ALTER TABLE oplog ADD COLUMN detail TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE oplog DROP COLUMN detail;
