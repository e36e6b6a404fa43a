-- Directory: the last reported heading and altitude of each terminal (getLastGps), and an index for the
-- paged terminal list of a customer.

-- +goose Up
ALTER TABLE accounts ADD COLUMN direction DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN altitude DOUBLE PRECISION NOT NULL DEFAULT 0;
CREATE INDEX accounts_customer_id ON accounts (customer_id, id);

-- +goose Down
DROP INDEX accounts_customer_id;
ALTER TABLE accounts DROP COLUMN altitude;
ALTER TABLE accounts DROP COLUMN direction;
