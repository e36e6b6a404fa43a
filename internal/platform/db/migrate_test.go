package db

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// The SHA-256 of each migration as it was kept per engine (migrations/sqlite and migrations/postgres) before the
// two sets became one. A database of either engine that ran those files must see exactly the same SQL now.
var historic = map[Dialect]map[string]string{
	SQLite: {
		"00001_core.sql":               "c8bdbf30a237bc7bd4c9f0163751feea63ac673fd610803dd11fd0cda1882462",
		"00002_accounts_ptt_group.sql": "e3e05da9a74f13079fcdb1a3fd8a04f3b0d8689861e353eda00633e4abff0fb6",
		"00003_events_at.sql":          "a1704a418bf96c5b98704162794e6ef75ed323aa77f65f2ac598269131bc823e",
		"00010_auth.sql":               "7b27690222e2c87f746814c8ad5d4b0d54241361355e82cb9f44f6c67119496f",
		"00011_terminal_resume.sql":    "9857fde25c6a25801c857d36cf4be1b577b99bbfb6b7645aac3622e00adac1c1",
		"00020_directory.sql":          "db81e33a2b51a850112221ebd0d0f356f60a071e3d41828fd85b03b73dbdd3b0",
		"00030_messages.sql":           "4714a6023f5e7a89cb36cf7494caeb8bf0c4e7cdf3fa2699f99c4aeb489f7d16",
		"00031_terminal_params.sql":    "2e199e56d41b4d6f0434ee41763fb32fc099fe88dc6d494bb3aeb6aaa1272a12",
		"00040_voice.sql":              "1930943d2178764258aae9f32eb6ac67e98c70204b58eac97ed4245106090097",
		"00060_geo.sql":                "7ad2f8430545a1ba2c7876e510c7f0a07f6b3361dbd9104089baed0848c161d8",
		"00070_messaging.sql":          "051c4827ec6904307dcd02322637233bb96198cc630ef7414f9ae20cd887cd39",
		"00071_files.sql":              "172632b90bd02cbb1f804bc9ee1db6d23b9dbf2fc92e1e83d137033dd9c27c3e",
		"00072_tones.sql":              "34264376c99a735871dbec91af78d472d127ea9b23528ce3b2fb23224068a4ce",
		"00073_medialib.sql":           "91b1912044f406f34911f62143b5812cb4886ed592f06acaabadcdd3266c646c",
		"00080_sos.sql":                "21ce11f82702ef7bd7c71003631073d64cc6a68da9ba71c13981b7d97e67857f",
		"00081_lonework.sql":           "b0473f701054d47e6b0c8073b203ff8d4fe6531970166ccbb155464a4309cb0a",
	},
	Postgres: {
		"00001_core.sql":               "3678f991d2ffa9176f5e082ef487681a0dd4cd7bf678283fc30b63fd89427159",
		"00002_accounts_ptt_group.sql": "e3e05da9a74f13079fcdb1a3fd8a04f3b0d8689861e353eda00633e4abff0fb6",
		"00003_events_at.sql":          "a1704a418bf96c5b98704162794e6ef75ed323aa77f65f2ac598269131bc823e",
		"00010_auth.sql":               "7b27690222e2c87f746814c8ad5d4b0d54241361355e82cb9f44f6c67119496f",
		"00011_terminal_resume.sql":    "9857fde25c6a25801c857d36cf4be1b577b99bbfb6b7645aac3622e00adac1c1",
		"00020_directory.sql":          "db81e33a2b51a850112221ebd0d0f356f60a071e3d41828fd85b03b73dbdd3b0",
		"00030_messages.sql":           "37ad3b44566067860868870ee9cac963271d28f19123244278e42b2f277bcbe8",
		"00031_terminal_params.sql":    "2e199e56d41b4d6f0434ee41763fb32fc099fe88dc6d494bb3aeb6aaa1272a12",
		"00040_voice.sql":              "688aac28876434e8d3bee4d12a689580ae61d5d8933081361406d3bcbedb70a4",
		"00060_geo.sql":                "f9263812d948c9ec950099b9e79c7a3f1275d2a7b7106032099915172cc59a22",
		"00070_messaging.sql":          "051c4827ec6904307dcd02322637233bb96198cc630ef7414f9ae20cd887cd39",
		"00071_files.sql":              "172632b90bd02cbb1f804bc9ee1db6d23b9dbf2fc92e1e83d137033dd9c27c3e",
		"00072_tones.sql":              "4865d3d7ee0fed9b67cfb3eac374200cb687d86e4b3c61e94491f8d41e2bbdab",
		"00073_medialib.sql":           "8bbbea6fc0cdda4af06b2be6b17ec7b903ddd0b298d814f442a4c64b0822337e",
		"00080_sos.sql":                "32090a1bc91e378b6cadbab28f7235696f33375d5bb41edd10d8b8d12300b6fd",
		"00081_lonework.sql":           "f73dd7f3cf642c10fe83184a2d76628774c3cd21d6c23ccd99fed3b234a8afd5",
	},
}

// Every migration an existing database already ran renders, on its engine, byte for byte to the file it ran.
func TestMigrationsRenderAsTheyRan(t *testing.T) {
	for dialect, sums := range historic {
		rendered, err := renderMigrations(migrations, "migrations", dialect)
		if err != nil {
			t.Fatalf("%s: %v", dialect, err)
		}
		for name, want := range sums {
			data, err := fs.ReadFile(rendered, name)
			if err != nil {
				t.Errorf("%s: %v", dialect, err)
				continue
			}
			if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != want {
				t.Errorf("%s %s renders to SQL the engine has not run before:\n%s", dialect, name, data)
			}
		}
	}
}

// Every dialect fills in the same placeholders, and every embedded migration renders on every dialect.
func TestEveryDialectFillsEveryPlaceholder(t *testing.T) {
	want := slices.Sorted(maps.Keys(placeholders[SQLite]))
	for _, dialect := range []Dialect{SQLite, Postgres} {
		if got := slices.Sorted(maps.Keys(placeholders[dialect])); !slices.Equal(got, want) {
			t.Errorf("%s fills %v, want %v", dialect, got, want)
		}
		rendered, err := renderMigrations(migrations, "migrations", dialect)
		if err != nil {
			t.Fatalf("%s: %v", dialect, err)
		}
		names, _ := fs.Glob(rendered, "*.sql")
		if len(names) < len(historic[dialect]) {
			t.Errorf("%s: %d migrations rendered, want at least %d", dialect, len(names), len(historic[dialect]))
		}
	}
	if _, err := renderMigrations(migrations, "migrations", Dialect("oracle")); err == nil {
		t.Error("an unknown dialect rendered")
	}
}

// A placeholder the migrator does not know, or a misspelt one, stops the migration and names the file.
func TestRenderRefusesUnknownPlaceholders(t *testing.T) {
	values := placeholders[Postgres]
	if got, err := render("id {{identity}},\n){{without_rowid}};", values); err != nil ||
		got != "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,\n);" {
		t.Errorf("render = %q, %v", got, err)
	}
	for _, bad := range []string{
		"id {{serial}},",
		"id {{identity}}, x {{}}",
		"id {{ identity }},",
		"id {{identity},",
		"id identity}},",
	} {
		if got, err := render(bad, values); err == nil {
			t.Errorf("render(%q) = %q, want an error", bad, got)
		}
	}
	src := fstest.MapFS{
		"m/00001_ok.sql":  {Data: []byte("CREATE TABLE a (id {{identity}});")},
		"m/00002_bad.sql": {Data: []byte("CREATE TABLE b (id {{identiy}});")},
	}
	_, err := renderMigrations(src, "m", SQLite)
	if err == nil || !strings.Contains(err.Error(), "00002_bad.sql") || !strings.Contains(err.Error(), "{{identiy}}") {
		t.Errorf("renderMigrations = %v, want an error naming 00002_bad.sql and {{identiy}}", err)
	}
}
