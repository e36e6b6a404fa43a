-- Patrol (spec §3 "Patrol point … Route … Plan … Order / order point / order log", §7 /patrolService,
-- docs/adr/0019): areas, points with a tag value (NFC, also printed as a QR code) and a position with a radius,
-- routes as ordered points, plans (model 2) with a date range and classes (shifts), the orders the server
-- generates per plan class per day with their points, and every punch (order logs). Orders and their points copy
-- the names they show, so history survives a deleted plan, route or point; punches are never lost.

-- +goose Up
CREATE TABLE patrol_users (
    id          {{identity}},
    customer_id BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    ms_id       TEXT    NOT NULL REFERENCES accounts(id) ON DELETE CASCADE, -- the PoC account (pocAccount)
    role        TEXT    NOT NULL DEFAULT 'terminal',                       -- dispatcher | terminal
    created_at  BIGINT  NOT NULL
);
CREATE UNIQUE INDEX patrol_users_ms ON patrol_users (customer_id, ms_id);

CREATE TABLE patrol_areas (
    id          {{identity}},
    customer_id BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    name        TEXT    NOT NULL,
    remark      TEXT    NOT NULL DEFAULT '',
    created_at  BIGINT  NOT NULL
);
CREATE UNIQUE INDEX patrol_areas_name ON patrol_areas (customer_id, name);

CREATE TABLE patrol_points (
    id          {{identity}},
    customer_id BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    area_id     BIGINT  NOT NULL REFERENCES patrol_areas(id),
    name        TEXT    NOT NULL,
    remark      TEXT    NOT NULL DEFAULT '',
    type        TEXT    NOT NULL DEFAULT '0',
    nfc_value   TEXT    NOT NULL,
    lat         DOUBLE PRECISION NOT NULL,
    lng         DOUBLE PRECISION NOT NULL,
    radius      INTEGER NOT NULL DEFAULT 50,       -- metres: an "I am here" check-in counts within it
    created_at  BIGINT  NOT NULL
);
CREATE UNIQUE INDEX patrol_points_name ON patrol_points (area_id, name);
CREATE UNIQUE INDEX patrol_points_nfc ON patrol_points (area_id, nfc_value);
CREATE INDEX patrol_points_customer ON patrol_points (customer_id, id);

CREATE TABLE patrol_routes (
    id          {{identity}},
    customer_id BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    area_id     BIGINT  NOT NULL REFERENCES patrol_areas(id),
    name        TEXT    NOT NULL,
    type        TEXT    NOT NULL DEFAULT '0',
    remark      TEXT    NOT NULL DEFAULT '',
    created_at  BIGINT  NOT NULL
);
CREATE UNIQUE INDEX patrol_routes_name ON patrol_routes (area_id, name);

CREATE TABLE patrol_route_points (
    route_id    BIGINT  NOT NULL REFERENCES patrol_routes(id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,                  -- 1.. the order the points are walked in
    point_id    BIGINT  NOT NULL REFERENCES patrol_points(id),
    PRIMARY KEY (route_id, seq)
);
CREATE INDEX patrol_route_points_point ON patrol_route_points (point_id);

CREATE TABLE patrol_plans (
    id          {{identity}},
    customer_id BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    area_id     BIGINT  NOT NULL REFERENCES patrol_areas(id),
    route_id    BIGINT  NOT NULL REFERENCES patrol_routes(id),
    name        TEXT    NOT NULL,
    model       INTEGER NOT NULL DEFAULT 2,
    type        TEXT    NOT NULL DEFAULT '0',
    start_date  TEXT    NOT NULL,                  -- YYYY-MM-DD, the customer's zone
    end_date    TEXT    NOT NULL,
    created_by  TEXT    NOT NULL DEFAULT '',
    created_at  BIGINT  NOT NULL
);
CREATE UNIQUE INDEX patrol_plans_name ON patrol_plans (customer_id, name);

CREATE TABLE patrol_plan_classes (
    plan_id     BIGINT  NOT NULL REFERENCES patrol_plans(id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    start_time  TEXT    NOT NULL,                  -- HH:MM
    end_time    TEXT    NOT NULL,                  -- HH:MM; not after start_time: the class ends the next day
    ms_id       TEXT    NOT NULL,                  -- the terminal on patrol in this class
    PRIMARY KEY (plan_id, seq)
);

CREATE TABLE patrol_orders (
    id          {{identity}},
    customer_id BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    plan_id     BIGINT  NOT NULL,                  -- no foreign key: an order outlives its plan
    class_seq   INTEGER NOT NULL,
    day         TEXT    NOT NULL,                  -- YYYY-MM-DD the class starts on
    ms_id       TEXT    NOT NULL,
    area_id     BIGINT  NOT NULL,
    route_id    BIGINT  NOT NULL,
    plan_name   TEXT    NOT NULL,
    class_name  TEXT    NOT NULL,
    route_name  TEXT    NOT NULL,
    area_name   TEXT    NOT NULL,
    start_at    BIGINT  NOT NULL,                  -- the class window (ms)
    end_at      BIGINT  NOT NULL,
    judge_at    BIGINT  NOT NULL,                  -- end_at + late grace: missing points are missed from then
    state       INTEGER NOT NULL DEFAULT 0,        -- 0 waiting, 1 normal, 2 abnormal
    reason      TEXT    NOT NULL DEFAULT '',       -- abnormal: comma list of missed, late, outOfOrder
    judged_at   BIGINT  NOT NULL DEFAULT 0,
    created_at  BIGINT  NOT NULL
);
CREATE UNIQUE INDEX patrol_orders_class_day ON patrol_orders (plan_id, class_seq, day);
CREATE INDEX patrol_orders_customer_start ON patrol_orders (customer_id, start_at);
CREATE INDEX patrol_orders_ms ON patrol_orders (ms_id, start_at);
CREATE INDEX patrol_orders_waiting ON patrol_orders (judge_at) WHERE state = 0;

CREATE TABLE patrol_order_points (
    order_id    BIGINT  NOT NULL REFERENCES patrol_orders(id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    point_id    BIGINT  NOT NULL,
    point_name  TEXT    NOT NULL,
    nfc_value   TEXT    NOT NULL,
    lat         DOUBLE PRECISION NOT NULL,
    lng         DOUBLE PRECISION NOT NULL,
    radius      INTEGER NOT NULL,
    state       INTEGER NOT NULL DEFAULT 0,        -- 0 not punched, 1 punched in the window, 2 punched late
    punched_at  BIGINT  NOT NULL DEFAULT 0,
    method      TEXT    NOT NULL DEFAULT '',       -- nfc | qr | gps
    PRIMARY KEY (order_id, seq)
);

CREATE TABLE patrol_order_logs (
    id          {{identity}},
    customer_id BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    order_id    BIGINT  NOT NULL DEFAULT 0,        -- 0: the punch matched no order of the terminal
    ms_id       TEXT    NOT NULL,
    point_id    BIGINT  NOT NULL,
    point_name  TEXT    NOT NULL,
    method      TEXT    NOT NULL,                  -- nfc | qr | gps
    value       TEXT    NOT NULL DEFAULT '',       -- the tag value read (nfc, qr)
    lat         DOUBLE PRECISION,
    lng         DOUBLE PRECISION,
    at          BIGINT  NOT NULL,
    state       INTEGER NOT NULL,                  -- 1 counted for its order in time, 2 late, 3 repeated, 4 no order
    created_at  BIGINT  NOT NULL
);
CREATE INDEX patrol_order_logs_customer_at ON patrol_order_logs (customer_id, at);
CREATE INDEX patrol_order_logs_order ON patrol_order_logs (order_id, at);

-- +goose Down
DROP TABLE patrol_order_logs;
DROP TABLE patrol_order_points;
DROP TABLE patrol_orders;
DROP TABLE patrol_plan_classes;
DROP TABLE patrol_plans;
DROP TABLE patrol_route_points;
DROP TABLE patrol_routes;
DROP TABLE patrol_points;
DROP TABLE patrol_areas;
DROP TABLE patrol_users;
