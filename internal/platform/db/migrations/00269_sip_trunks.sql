-- +goose Up
-- SIP trunks (issue 34, docs/sip.md "Trunks"), owned by internal/sip: an operator's registration of tenfour to a
-- PBX or a SIP provider. tenfour REGISTERs as username (digest with password) at registrar, through
-- outbound_proxy when one is set; the trunk's calls are carried by account_id, a SIP account of the customer (its
-- groups, its floor). status is the registration's last state as the node that registers it saw it, at status_at.
CREATE TABLE sip_trunks (
    id             {{identity}},
    customer_id    BIGINT NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    name           TEXT   NOT NULL,
    registrar      TEXT   NOT NULL,
    username       TEXT   NOT NULL,
    password       TEXT   NOT NULL,
    outbound_proxy TEXT   NOT NULL DEFAULT '',
    account_id     TEXT   NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    status         TEXT   NOT NULL DEFAULT '',
    status_at      BIGINT NOT NULL DEFAULT 0,
    UNIQUE (customer_id, name)
);
-- The numbers a trunk's callers dial and where each lands: a group of the trunk's account (half duplex, as a
-- phone into a group) or a dispatcher (an individual call).
CREATE TABLE sip_trunk_numbers (
    trunk_id      BIGINT NOT NULL REFERENCES sip_trunks(id) ON DELETE CASCADE,
    number        TEXT   NOT NULL,
    group_id      BIGINT REFERENCES ptt_groups(id) ON DELETE CASCADE,
    dispatcher_id TEXT   REFERENCES accounts(id) ON DELETE CASCADE,
    PRIMARY KEY (trunk_id, number),
    CHECK ((group_id IS NULL) <> (dispatcher_id IS NULL))
);

-- +goose Down
DROP TABLE sip_trunk_numbers;
DROP TABLE sip_trunks;
