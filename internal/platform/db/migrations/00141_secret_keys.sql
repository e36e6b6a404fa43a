-- Secret keys (spec §2 /secret-keys, §3 key, §5 format, §7 /ds/key/*). Owner: internal/secretkey. A customer's
-- key ring of voice-encryption keys for its radio side; at most one key is current, the one terminals and consoles
-- receive as secretKey (docs/adr/0021). accounts.secret_key is no longer read.

-- +goose Up
CREATE TABLE secret_keys (
    id          {{identity}},
    customer_id BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    name        TEXT    NOT NULL,
    key_text    TEXT    NOT NULL,                  -- 32 digits and capital letters (spec §5)
    is_current  BOOLEAN NOT NULL DEFAULT FALSE,
    create_by   TEXT    NOT NULL DEFAULT '',
    created_at  BIGINT  NOT NULL,
    updated_at  BIGINT  NOT NULL,
    rotated_at  BIGINT  NOT NULL DEFAULT 0         -- when it last became the current key
);
CREATE UNIQUE INDEX secret_keys_customer_key ON secret_keys (customer_id, key_text);
CREATE UNIQUE INDEX secret_keys_customer_name ON secret_keys (customer_id, name);
CREATE UNIQUE INDEX secret_keys_current ON secret_keys (customer_id) WHERE is_current;

-- +goose Down
DROP TABLE secret_keys;
