-- Indoor positioning (internal/indoor, docs/adr/0023): buildings, their floors with a floor-plan image (a row of
-- files) and its scale, the BLE beacons placed on each plan, and the positions the server estimated from the
-- terminals' beacon reports. Plan coordinates are pixels of the floor's image (x right, y down from its top-left
-- corner); scale turns them into metres. Times are UTC milliseconds.

-- +goose Up
CREATE TABLE indoor_buildings (
    id          {{identity}},
    customer_id BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    name        TEXT    NOT NULL,
    remark      TEXT    NOT NULL DEFAULT '',
    created_at  BIGINT  NOT NULL
);
CREATE UNIQUE INDEX indoor_buildings_name ON indoor_buildings (customer_id, name);

CREATE TABLE indoor_floors (
    id          {{identity}},
    customer_id BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    building_id BIGINT  NOT NULL REFERENCES indoor_buildings(id) ON DELETE CASCADE,
    name        TEXT    NOT NULL,
    level       INTEGER NOT NULL DEFAULT 0,          -- storey number (0 ground, -1 basement), the floors' order
    file_id     TEXT    NOT NULL REFERENCES files(id), -- the floor-plan image (PNG, JPEG or GIF)
    width       INTEGER NOT NULL,                    -- the image's size in pixels
    height      INTEGER NOT NULL,
    scale       DOUBLE PRECISION NOT NULL,           -- metres per pixel
    ref         TEXT    NOT NULL DEFAULT '',         -- the two reference points the scale came from (JSON), or ''
    created_at  BIGINT  NOT NULL
);
CREATE INDEX indoor_floors_building ON indoor_floors (building_id, level);
CREATE UNIQUE INDEX indoor_floors_name ON indoor_floors (building_id, name);

CREATE TABLE indoor_beacons (
    id          {{identity}},
    customer_id BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    floor_id    BIGINT  NOT NULL REFERENCES indoor_floors(id) ON DELETE CASCADE,
    mac         TEXT    NOT NULL,                    -- BLE address, upper case AA:BB:CC:DD:EE:FF
    name        TEXT    NOT NULL DEFAULT '',
    x           DOUBLE PRECISION NOT NULL,           -- plan pixels
    y           DOUBLE PRECISION NOT NULL,
    rssi        INTEGER NOT NULL,                    -- RSSI at 1 m, -100 .. -50 dBm (spec §5)
    decay       DOUBLE PRECISION NOT NULL,           -- environment decay (path-loss exponent), 1.1 .. 10.0 (spec §5)
    created_at  BIGINT  NOT NULL
);
CREATE UNIQUE INDEX indoor_beacons_mac ON indoor_beacons (customer_id, mac);
CREATE INDEX indoor_beacons_floor ON indoor_beacons (floor_id);

-- One row per estimate. No foreign key to the account: the history outlives nothing it should not, and a
-- report must never fail on one; a deleted floor takes its positions with it.
CREATE TABLE indoor_positions (
    id          {{identity}},
    customer_id BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    ms_id       TEXT    NOT NULL,
    building_id BIGINT  NOT NULL,
    floor_id    BIGINT  NOT NULL REFERENCES indoor_floors(id) ON DELETE CASCADE,
    at          BIGINT  NOT NULL,
    x           DOUBLE PRECISION NOT NULL,           -- plan pixels
    y           DOUBLE PRECISION NOT NULL,
    accuracy    DOUBLE PRECISION NOT NULL,           -- metres (one standard deviation of the smoothed estimate)
    beacons     INTEGER NOT NULL                     -- beacons the fit used
);
CREATE INDEX indoor_positions_ms ON indoor_positions (ms_id, at);
CREATE INDEX indoor_positions_floor ON indoor_positions (floor_id, at);
CREATE INDEX indoor_positions_customer ON indoor_positions (customer_id, at);

-- +goose Down
DROP TABLE indoor_positions;
DROP TABLE indoor_beacons;
DROP TABLE indoor_floors;
DROP TABLE indoor_buildings;
