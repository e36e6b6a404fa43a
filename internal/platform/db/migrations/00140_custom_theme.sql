-- Custom themes per host (spec §3 "Skin/theme", §6 custom theme, §7 customTheme/findTheme/deleteTheme/
-- getClientHostList). Owner: internal/branding. The host branding record gains the skin fields it lacked, and the
-- operator assigns host names to customers: a customer themes only its own hosts (docs/adr/0021).

-- +goose Up
ALTER TABLE host_branding ADD COLUMN tab_color TEXT NOT NULL DEFAULT '';
ALTER TABLE host_branding ADD COLUMN sub_theme_color TEXT NOT NULL DEFAULT '';
ALTER TABLE host_branding ADD COLUMN weight_theme_color TEXT NOT NULL DEFAULT '';
ALTER TABLE host_branding ADD COLUMN calling_color TEXT NOT NULL DEFAULT '';
ALTER TABLE host_branding ADD COLUMN copyright TEXT NOT NULL DEFAULT '';

CREATE TABLE customer_hosts (
    hostname    TEXT    PRIMARY KEY,               -- normalised (branding.NormalizeHost)
    customer_id BIGINT  NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    created_at  BIGINT  NOT NULL
);
CREATE INDEX customer_hosts_customer ON customer_hosts (customer_id);

-- +goose Down
DROP TABLE customer_hosts;
ALTER TABLE host_branding DROP COLUMN copyright;
ALTER TABLE host_branding DROP COLUMN calling_color;
ALTER TABLE host_branding DROP COLUMN weight_theme_color;
ALTER TABLE host_branding DROP COLUMN sub_theme_color;
ALTER TABLE host_branding DROP COLUMN tab_color;
