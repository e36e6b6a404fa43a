-- Media cloud (internal/medialib): photos, videos and audio that terminals uploaded and registered.

-- +goose Up
CREATE TABLE media_items (
    id          {{identity}},
    customer_id BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    ms_id       TEXT    NOT NULL,                      -- the terminal (kept if its account goes)
    ms_name     TEXT    NOT NULL DEFAULT '',
    file_id     TEXT    NOT NULL UNIQUE REFERENCES files(id),
    kind        TEXT    NOT NULL,                      -- image | video | audio
    lat         DOUBLE PRECISION,
    lng         DOUBLE PRECISION,
    taken_at    BIGINT  NOT NULL,                      -- when the terminal took it (ms)
    created_at  BIGINT  NOT NULL
);
CREATE INDEX media_items_customer_time ON media_items (customer_id, taken_at);
CREATE INDEX media_items_ms_time ON media_items (customer_id, ms_id, taken_at);

-- +goose Down
DROP TABLE media_items;
