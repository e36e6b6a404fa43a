-- Broadcast tenancy (issue 30 M1, L1; docs/adr/0018 "Credentials"): a caster's code is unique per customer, not on
-- the server, so one customer can neither take another's code (a dispatcher's console caster has the dispatcher's
-- id as its code) nor learn which codes exist elsewhere from 1002; a caster's md5 login is a credential of its
-- customer, so (realm, customer_id, login) is unique and a sign-in name shared by customers is resolved by the
-- password that matches. A broadcast session opened with a console session ('{secret}') records that session
-- (parent_hash, the parent's token_hash): signing out of the console ends it.

-- +goose Up
DROP INDEX bc_casters_code;
CREATE UNIQUE INDEX bc_casters_code ON bc_casters (customer_id, code);

DROP INDEX service_credentials_login;
CREATE UNIQUE INDEX service_credentials_login ON service_credentials (realm, customer_id, login);
CREATE INDEX service_credentials_name ON service_credentials (realm, login);

ALTER TABLE sessions ADD COLUMN parent_hash TEXT NOT NULL DEFAULT '';  -- '': no parent session
CREATE INDEX sessions_parent ON sessions (parent_hash) WHERE parent_hash <> '';

-- +goose Down
DROP INDEX sessions_parent;
ALTER TABLE sessions DROP COLUMN parent_hash;

DROP INDEX service_credentials_name;
DROP INDEX service_credentials_login;
CREATE UNIQUE INDEX service_credentials_login ON service_credentials (realm, login);

DROP INDEX bc_casters_code;
CREATE UNIQUE INDEX bc_casters_code ON bc_casters (code);
