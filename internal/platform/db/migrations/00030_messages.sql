-- SMS relay (internal/message): a message is stored with its recipients before it is sent; each recipient's
-- acknowledgement is recorded, and what a terminal has not acknowledged is delivered at its next login.

-- +goose Up
CREATE TABLE messages (
    id              {{identity}},
    customer_id     BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    sender_id       TEXT    NOT NULL,                 -- msId of the dispatcher (kept if the account goes)
    sender_name     TEXT    NOT NULL DEFAULT '',
    target_ms_id    TEXT    NOT NULL DEFAULT '',      -- a terminal, or '' for a group message
    target_gid      BIGINT  NOT NULL DEFAULT 0,       -- a group, or 0 for a terminal message
    content         TEXT    NOT NULL,
    status          INTEGER NOT NULL DEFAULT 0,       -- spec §4 message status: 0 new (unread), 1 read
    created_at      BIGINT  NOT NULL,
    recipients      INTEGER NOT NULL DEFAULT 0,       -- terminals it was addressed to
    delivered_count INTEGER NOT NULL DEFAULT 0,       -- of which acknowledged
    delivered       BOOLEAN NOT NULL DEFAULT FALSE,   -- every recipient acknowledged
    delivered_at    BIGINT  NOT NULL DEFAULT 0
);
CREATE INDEX messages_customer_time ON messages (customer_id, created_at);

CREATE TABLE message_recipients (
    message_id   BIGINT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    account_id   TEXT   NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    delivered_at BIGINT NOT NULL DEFAULT 0,           -- 0 = waiting for the terminal's acknowledgement
    PRIMARY KEY (message_id, account_id)
);
CREATE INDEX message_recipients_pending ON message_recipients (account_id, delivered_at, message_id);

-- +goose Down
DROP TABLE message_recipients;
DROP TABLE messages;
