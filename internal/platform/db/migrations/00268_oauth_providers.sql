-- +goose Up
-- The OAuth 2.0 providers a host offers on its login page (authorization-code flow; docs/api.md "OAuth
-- sign-in"). platform is the name getAccountByOauth and oauth_links use; the client secret never leaves the server.
CREATE TABLE oauth_providers (
    hostname      TEXT NOT NULL,
    platform      TEXT NOT NULL,
    name          TEXT NOT NULL,
    authorize_url TEXT NOT NULL,
    token_url     TEXT NOT NULL,
    userinfo_url  TEXT NOT NULL,
    client_id     TEXT NOT NULL,
    client_secret TEXT NOT NULL,
    scope         TEXT NOT NULL DEFAULT '',
    id_field      TEXT NOT NULL DEFAULT 'sub',
    PRIMARY KEY (hostname, platform)
);

-- +goose Down
DROP TABLE oauth_providers;
