-- Walkable areas of a floor (internal/indoor, docs/adr/0023 "Walkable areas"): corridors, rooms, doors drawn as
-- polygons on the floor plan. The estimator keeps a terminal's track inside their union on a floor that has any
-- (areas that touch or overlap are connected; a wall is a gap between areas).

-- +goose Up
CREATE TABLE indoor_areas (
    id          {{identity}},
    customer_id BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    floor_id    BIGINT  NOT NULL REFERENCES indoor_floors(id) ON DELETE CASCADE,
    name        TEXT    NOT NULL DEFAULT '',
    points      TEXT    NOT NULL,                    -- the polygon, JSON [[x, y], …] in plan pixels, 3 to 64 corners
    created_at  BIGINT  NOT NULL
);
CREATE INDEX indoor_areas_floor ON indoor_areas (floor_id);
CREATE INDEX indoor_areas_customer ON indoor_areas (customer_id);

-- +goose Down
DROP TABLE indoor_areas;
