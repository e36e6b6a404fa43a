-- A cluster of nodes (internal/cluster, docs/adr/0024): which node holds each logged-in connection, so that the
-- survivors of a node that died take its accounts offline and a node that restarts ends what it held before.

-- +goose Up
CREATE TABLE cluster_presence (
    node_id     TEXT    NOT NULL,                 -- --node-id of the node holding the connection
    account_id  TEXT    NOT NULL,
    customer_id BIGINT  NOT NULL,
    kind        TEXT    NOT NULL,                 -- console | terminal
    since       BIGINT  NOT NULL,                 -- UTC ms of the login on that node
    PRIMARY KEY (node_id, account_id)
);
CREATE INDEX cluster_presence_account ON cluster_presence (account_id);

-- +goose Down
DROP TABLE cluster_presence;
