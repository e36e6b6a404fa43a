-- Remote control (internal/terminalctl): the parameters a terminal acknowledged (param.set), re-sent at each
-- of its logins. Call-set status lives in accounts.call_set_status.

-- +goose Up
CREATE TABLE terminal_params (
    account_id TEXT   NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    name       TEXT   NOT NULL,                       -- gpsInterval, heartbeat, statusInterval
    value      TEXT   NOT NULL,                       -- an interval with its unit: "30s", "5m", "1h"
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, name)
);

-- +goose Down
DROP TABLE terminal_params;
