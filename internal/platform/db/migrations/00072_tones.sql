-- Tone library (internal/tone, spec §3 tone: name, fileUrl/audioUrl, iconUrl, sort, id, createBy).

-- +goose Up
CREATE TABLE tones (
    id          {{identity}},
    customer_id BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    name        TEXT    NOT NULL,
    file_id     TEXT    NOT NULL REFERENCES files(id),
    icon_id     TEXT    NOT NULL REFERENCES files(id),
    sort        INTEGER NOT NULL DEFAULT 0,
    create_by   TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL,
    updated_at  BIGINT  NOT NULL
);
-- spec §5 "name unique", §8 "name exists" / "file exists"
CREATE UNIQUE INDEX tones_name ON tones (customer_id, name);
CREATE UNIQUE INDEX tones_file ON tones (customer_id, file_id);

-- +goose Down
DROP TABLE tones;
