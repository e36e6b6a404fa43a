-- Who talks in a group: a group call's audience is read by (customer, ptt group) when its first press opens the
-- call (internal/call Store.GroupAudience). Without this index that read scans every account of the customer.

-- +goose Up
CREATE INDEX accounts_customer_ptt_group ON accounts (customer_id, ptt_group_id);

-- +goose Down
DROP INDEX accounts_customer_ptt_group;
