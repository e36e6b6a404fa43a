-- Auth: e-mail verification codes (bind, reset, login), links from external (OAuth) identities to accounts,
-- and one account per e-mail address.

-- +goose Up
CREATE TABLE verify_codes (
    account_id TEXT    NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    purpose    TEXT    NOT NULL,                   -- bind | reset | login
    email      TEXT    NOT NULL,                   -- the address the code was sent to
    code_hash  TEXT    NOT NULL,                   -- sha256; the code itself is never stored
    attempts   INTEGER NOT NULL DEFAULT 0,         -- wrong tries so far (5 invalidate the code)
    created_at BIGINT  NOT NULL,
    expires_at BIGINT  NOT NULL,
    PRIMARY KEY (account_id, purpose)
);

CREATE TABLE oauth_links (
    platform   TEXT   NOT NULL,
    oauth_hash TEXT   NOT NULL,                    -- sha256 of the external identity; it works as a credential
    account_id TEXT   NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (platform, oauth_hash)
);
CREATE INDEX oauth_links_account ON oauth_links (account_id);

-- Bound e-mail addresses are stored lower-cased; "e-mail already exists" is this index.
CREATE UNIQUE INDEX accounts_email_unique ON accounts (email) WHERE email <> '';

-- +goose Down
DROP INDEX accounts_email_unique;
DROP TABLE oauth_links;
DROP TABLE verify_codes;
