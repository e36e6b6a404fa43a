-- Broadcast credentials and sessions move to internal/auth (docs/adr/0018 "Credentials", house rule: credentials and
-- sessions belong to auth). A caster's md5 login and an organisation's speaker password become rows of
-- service_credentials (auth's credentials of logins that are not accounts, with the accounts' lockout columns),
-- and broadcast tokens become sessions of kind 'broadcast': of the console account that signed in with '{secret}'
-- (account_id) or of the credential that signed in with its md5 (credential_id). sessions is rebuilt so that
-- account_id may be NULL (SQLite cannot drop a NOT NULL in place); every row is copied, the old columns and
-- bc_sessions go.

-- +goose Up
CREATE TABLE service_credentials (
    id            {{identity}},
    realm         TEXT    NOT NULL,                 -- 'broadcast': a caster's login (login = caster code);
                                                    -- 'speaker': an organisation's speaker password (login = org id)
    login         TEXT    NOT NULL,
    customer_id   BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    password_hash TEXT    NOT NULL,                 -- argon2id of the md5 (hex, lower case) the client sends
    failed_logins INTEGER NOT NULL DEFAULT 0,       -- the lockout of docs/adr/0008, as on accounts
    locked_until  BIGINT  NOT NULL DEFAULT 0,
    created_at    BIGINT  NOT NULL
);
CREATE UNIQUE INDEX service_credentials_login ON service_credentials (realm, login);

INSERT INTO service_credentials (realm, login, customer_id, password_hash, created_at)
    SELECT 'broadcast', code, customer_id, pass_hash, created_at FROM bc_casters WHERE pass_hash <> '';
INSERT INTO service_credentials (realm, login, customer_id, password_hash, created_at)
    SELECT 'speaker', CAST(id AS TEXT), customer_id, pass_hash, created_at FROM bc_orgs WHERE pass_hash <> '';

CREATE TABLE sessions_v2 (
    token_hash      TEXT    PRIMARY KEY,            -- sha256 of the token; the token itself is never stored
    account_id      TEXT    REFERENCES accounts(id) ON DELETE CASCADE,             -- NULL: a credential's session
    credential_id   BIGINT  REFERENCES service_credentials(id) ON DELETE CASCADE,  -- NULL: an account's session
    customer_id     BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    created_at      BIGINT  NOT NULL,
    expires_at      BIGINT  NOT NULL,
    socket_login_at BIGINT  NOT NULL DEFAULT 0,     -- first socket login; 0 = not yet (must come within 15 s)
    revoked         BOOLEAN NOT NULL DEFAULT FALSE,
    kind            TEXT    NOT NULL DEFAULT 'console'  -- console | terminal | patrol | broadcast
);
INSERT INTO sessions_v2 (token_hash, account_id, customer_id, created_at, expires_at, socket_login_at, revoked, kind)
    SELECT token_hash, account_id, customer_id, created_at, expires_at, socket_login_at, revoked, kind FROM sessions;

-- A broadcast token of a console account's caster (code = the account, signed in with '{secret}') stays the
-- account's; one of a caster with its own password (signed in with its md5) becomes its credential's.
INSERT INTO sessions_v2 (token_hash, account_id, customer_id, created_at, expires_at, kind)
    SELECT s.token_hash, a.id, s.customer_id, s.created_at, s.expires_at, 'broadcast'
    FROM bc_sessions s JOIN bc_casters c ON c.id = s.caster_id JOIN accounts a ON a.id = c.code AND a.customer_id = c.customer_id;
INSERT INTO sessions_v2 (token_hash, credential_id, customer_id, created_at, expires_at, kind)
    SELECT s.token_hash, k.id, s.customer_id, s.created_at, s.expires_at, 'broadcast'
    FROM bc_sessions s JOIN bc_casters c ON c.id = s.caster_id
    JOIN service_credentials k ON k.realm = 'broadcast' AND k.login = c.code
    WHERE NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = c.code AND a.customer_id = c.customer_id);

DROP TABLE sessions;
ALTER TABLE sessions_v2 RENAME TO sessions;
CREATE INDEX sessions_account ON sessions (account_id);
CREATE INDEX sessions_credential ON sessions (credential_id);

DROP TABLE bc_sessions;
ALTER TABLE bc_casters DROP COLUMN pass_hash;
ALTER TABLE bc_orgs DROP COLUMN pass_hash;

-- +goose Down
ALTER TABLE bc_orgs ADD COLUMN pass_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE bc_casters ADD COLUMN pass_hash TEXT NOT NULL DEFAULT '';
UPDATE bc_orgs SET pass_hash = COALESCE((SELECT k.password_hash FROM service_credentials k
    WHERE k.realm = 'speaker' AND k.login = CAST(bc_orgs.id AS TEXT)), '');
UPDATE bc_casters SET pass_hash = COALESCE((SELECT k.password_hash FROM service_credentials k
    WHERE k.realm = 'broadcast' AND k.login = bc_casters.code), '');

CREATE TABLE bc_sessions (
    token_hash  TEXT   NOT NULL PRIMARY KEY,
    caster_id   BIGINT NOT NULL REFERENCES bc_casters(id) ON DELETE CASCADE,
    customer_id BIGINT NOT NULL,
    created_at  BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL
);
CREATE INDEX bc_sessions_expires ON bc_sessions (expires_at);
INSERT INTO bc_sessions (token_hash, caster_id, customer_id, created_at, expires_at)
    SELECT s.token_hash, c.id, s.customer_id, s.created_at, s.expires_at
    FROM sessions s JOIN bc_casters c ON c.code = s.account_id WHERE s.kind = 'broadcast' AND NOT s.revoked;
INSERT INTO bc_sessions (token_hash, caster_id, customer_id, created_at, expires_at)
    SELECT s.token_hash, c.id, s.customer_id, s.created_at, s.expires_at
    FROM sessions s JOIN service_credentials k ON k.id = s.credential_id JOIN bc_casters c ON c.code = k.login
    WHERE s.kind = 'broadcast' AND k.realm = 'broadcast' AND NOT s.revoked;

CREATE TABLE sessions_v1 (
    token_hash      TEXT    PRIMARY KEY,
    account_id      TEXT    NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    customer_id     BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    created_at      BIGINT  NOT NULL,
    expires_at      BIGINT  NOT NULL,
    socket_login_at BIGINT  NOT NULL DEFAULT 0,
    revoked         BOOLEAN NOT NULL DEFAULT FALSE,
    kind            TEXT    NOT NULL DEFAULT 'console'
);
INSERT INTO sessions_v1 (token_hash, account_id, customer_id, created_at, expires_at, socket_login_at, revoked, kind)
    SELECT token_hash, account_id, customer_id, created_at, expires_at, socket_login_at, revoked, kind
    FROM sessions WHERE kind <> 'broadcast' AND account_id IS NOT NULL;
DROP TABLE sessions;
ALTER TABLE sessions_v1 RENAME TO sessions;
CREATE INDEX sessions_account ON sessions (account_id);
DROP TABLE service_credentials;
