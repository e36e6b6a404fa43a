-- +goose Up
-- SIP accounts (issue 34, docs/adr/0037): the directory marks an account's kind — '' for the native terminals and
-- dispatchers, 'sip' for a desk phone, softphone or radio gateway that registers over SIP.
ALTER TABLE accounts ADD COLUMN kind TEXT NOT NULL DEFAULT '';
-- auth's digest credential of a SIP account: HA1 = MD5(id:realm:password), written wherever its password is set,
-- never returned. The row goes with its account.
CREATE TABLE sip_digests (
    account_id TEXT   PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    realm      TEXT   NOT NULL,
    ha1        TEXT   NOT NULL,
    updated_at BIGINT NOT NULL
);

-- +goose Down
DROP TABLE sip_digests;
ALTER TABLE accounts DROP COLUMN kind;
