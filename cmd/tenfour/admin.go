package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sort"

	"tenfour/internal/app"
	"tenfour/internal/config"
)

// adminCommands maps `tenfour admin <name>` to its implementation; each parses its own flags.
var adminCommands = map[string]struct {
	help string
	run  func(ctx context.Context, args []string) error
}{
	"backup": {"backup --data DIR --out FILE: consistent copy of a live SQLite database", adminBackup},
}

func admin(args []string) error {
	if len(args) == 0 || args[0] == "help" {
		names := make([]string, 0, len(adminCommands))
		for n := range adminCommands {
			names = append(names, n)
		}
		sort.Strings(names)
		fmt.Println("tenfour admin commands (each also takes --data DIR or --db URL):")
		for _, n := range names {
			fmt.Println("  " + adminCommands[n].help)
		}
		return nil
	}
	c, ok := adminCommands[args[0]]
	if !ok {
		return fmt.Errorf("unknown admin command %q (tenfour admin help)", args[0])
	}
	return c.run(context.Background(), args[1:])
}

// storeFlags adds --data and --db to an admin command's flag set.
func storeFlags(fs *flag.FlagSet) *config.Config {
	var c config.Config
	fs.StringVar(&c.DataDir, "data", envOr("TENFOUR_DATA", "./data"), "data directory")
	fs.StringVar(&c.DB, "db", os.Getenv("TENFOUR_DB"), "database URL (postgres://…); empty = SQLite in --data")
	return &c
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func adminBackup(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	cfg := storeFlags(fs)
	out := fs.String("out", "", "file to write the copy to (must not exist)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("--out is required")
	}
	if _, err := os.Stat(*out); err == nil {
		return fmt.Errorf("%s exists", *out)
	}
	if cfg.UsesPostgres() {
		return fmt.Errorf("backup copies the embedded SQLite database; use pg_dump for PostgreSQL")
	}
	if _, err := os.Stat(cfg.SQLitePath()); err != nil {
		return fmt.Errorf("no database at %s", cfg.SQLitePath())
	}
	store, err := app.Open(ctx, *cfg)
	if err != nil {
		return err
	}
	defer store.Close()
	if err := store.Backup(ctx, *out); err != nil {
		return err
	}
	fmt.Println("backup written to", *out)
	return nil
}
