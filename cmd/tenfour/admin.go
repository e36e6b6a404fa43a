package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"tenfour/internal/app"
	"tenfour/internal/auth"
	"tenfour/internal/config"
	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
	"tenfour/internal/tenant"
)

// adminCommands maps `tenfour admin <name>` to its implementation; each parses its own flags.
var adminCommands = map[string]struct {
	help string
	run  func(ctx context.Context, args []string) error
}{
	"backup":          {"backup --data DIR --out FILE: consistent copy of a live SQLite database", adminBackup},
	"create-customer": {"create-customer --name NAME: add a customer (the spec's client)", adminCreateCustomer},
	"create-dispatcher": {"create-dispatcher --customer NAME --uid 8DIGITS --name NAME --password PW [--admin] [--email ADDR] [--group NAME]: add a console account",
		adminCreateDispatcher},
	"create-terminal": {"create-terminal --customer NAME --uid 8DIGITS --name NAME --type TYPE --password PW [--group NAME]: add a terminal account",
		adminCreateTerminal},
	"reset-password": {"reset-password --uid 8DIGITS --password PW: set a password (lifts a lockout, ends sessions)", adminResetPassword},
	"link-oauth":     {"link-oauth --uid 8DIGITS --platform NAME --oauth ID: let an external identity sign in as the account", adminLinkOAuth},
	// What shapes a console (admin_branding.go): per-host branding and client config, host ownership, feature
	// switches, account type.
	"branding": {"branding --host HOST [--sys-name … --logo-url … --theme-color … --tab-color … --login-frame-color … --copyright …] [--delete]: show or change a host's branding",
		adminBranding},
	"client-config": {"client-config --host HOST [--title … --date-format … --speed-unit … --version 0|1 --auto-login-keys a,b …]: show or change a host's client configuration",
		adminClientConfig},
	"oauth-provider": {"oauth-provider --host HOST --platform NAME [--name … --authorize-url … --token-url … --userinfo-url … --client-id … --client-secret … --scope … --id-field sub] [--delete]: a host's OAuth sign-in provider (authorization-code flow)",
		adminOAuthProvider},
	"ds-config":     {"ds-config --customer NAME [--set key=0,key=1] [--unset key,…]: show or change a customer's data-source feature switches", adminDSConfig},
	"account-type":  {`account-type --uid 8DIGITS --type 1|-2: set an account's feature access code (spec §6)`, adminAccountType},
	"host-assign":   {"host-assign --host HOST --customer NAME: the host is the customer's (its custom theme, /theme)", adminHostAssign},
	"host-unassign": {"host-unassign --host HOST: the host belongs to no customer", adminHostUnassign},
	"sip-trunk": {"sip-trunk add --customer NAME --name NAME --registrar HOST[:PORT] --user USER --password PW --account 8DIGITS [--outbound-proxy HOST[:PORT]] [--number NUMBER=group:GID|dispatcher:ID …] | list --customer NAME | remove --customer NAME --name NAME: a customer's SIP trunks to a PBX or provider (docs/sip.md)",
		adminSIPTrunk},
	"sip-talk": {"sip-talk --customer NAME --uid 8DIGITS [--talk auto|keys|voice]: show or set how a SIP account asks for the floor (docs/sip.md)",
		adminSIPTalk},
	"video-limits": {"video-limits --customer NAME [--max-calls N] [--max-monitors N] [--max-duration 1h] [--credit-minutes N|-1] [--record on|off]: a customer's video limits and whether its calls and monitorings are recorded",
		adminVideoLimits},
}

func admin(args []string) error {
	if len(args) == 0 || args[0] == "help" {
		names := slices.Sorted(maps.Keys(adminCommands))
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

// storeRun is what an admin command does with the store open, its flags parsed.
type storeRun func(ctx context.Context, store *db.DB) error

// storeCommand is an admin command over the store: declare adds the command's flags (besides --data and --db)
// and returns its run, which is called once the flags are parsed, the required ones given and the migrated store
// open; the store is closed after.
func storeCommand(name string, required []string, declare func(fs *flag.FlagSet) storeRun) func(ctx context.Context, args []string) error {
	return func(ctx context.Context, args []string) error {
		fs := flag.NewFlagSet(name, flag.ContinueOnError)
		cfg := storeFlags(fs)
		run := declare(fs)
		if err := fs.Parse(args); err != nil {
			return err
		}
		if fs.NArg() > 0 {
			return fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
		}
		for _, n := range required {
			if f := fs.Lookup(n); f == nil || strings.TrimSpace(f.Value.String()) == "" {
				return fmt.Errorf("--%s is required", n)
			}
		}
		store, err := app.Open(ctx, *cfg)
		if err != nil {
			return err
		}
		defer store.Close()
		return run(ctx, store)
	}
}

// customerID finds a customer by name; an unknown name is an error that says so.
func customerID(ctx context.Context, store *db.DB, name string) (int64, error) {
	id, err := tenant.ByName(ctx, store, name)
	if errors.Is(err, db.ErrNotFound) {
		return 0, fmt.Errorf("no customer named %q", name)
	}
	return id, err
}

// customerRun is a customer command's run: the store, and the customer --customer names, as its id and name.
type customerRun func(ctx context.Context, store *db.DB, id int64, name string) error

// customerCommand is a storeCommand over one customer: it declares --customer (required, after the command's
// own required flags) and finds the customer before run, so each command does not look the name up itself.
func customerCommand(name string, required []string, declare func(fs *flag.FlagSet) customerRun) func(ctx context.Context, args []string) error {
	return storeCommand(name, append(required, "customer"), func(fs *flag.FlagSet) storeRun {
		customer := fs.String("customer", "", "customer name")
		run := declare(fs)
		return func(ctx context.Context, store *db.DB) error {
			id, err := customerID(ctx, store, *customer)
			if err != nil {
				return err
			}
			return run(ctx, store, id, *customer)
		}
	})
}

var adminCreateCustomer = storeCommand("create-customer", []string{"name"}, func(fs *flag.FlagSet) storeRun {
	name := fs.String("name", "", "customer name (unique)")
	return func(ctx context.Context, store *db.DB) error {
		id, err := tenant.Create(ctx, store, *name)
		if err != nil {
			return err
		}
		fmt.Printf("customer %q created (id %d)\n", *name, id)
		return nil
	}
})

// accountFlags are the flags create-dispatcher and create-terminal share.
type accountFlags struct {
	customer, uid, name, password, group string
}

func addAccountFlags(fs *flag.FlagSet) *accountFlags {
	var f accountFlags
	fs.StringVar(&f.customer, "customer", "", "customer name")
	fs.StringVar(&f.uid, "uid", "", "account number (8 digits)")
	fs.StringVar(&f.name, "name", "", "display name")
	fs.StringVar(&f.password, "password", "", "password: 6 digits, or 8-64 characters with upper, lower, digit and one of "+auth.PasswordSpecials)
	fs.StringVar(&f.group, "group", "Default", "default group (a root fixed group, created when missing); empty for none")
	return &f
}

func createAccount(ctx context.Context, store *db.DB, f *accountFlags, a auth.NewAccount) error {
	cid, err := tenant.ByName(ctx, store, f.customer)
	if errors.Is(err, db.ErrNotFound) {
		return fmt.Errorf("no customer named %q (tenfour admin create-customer --name …)", f.customer)
	}
	if err != nil {
		return err
	}
	a.CustomerID, a.ID, a.Name, a.Password, a.Group = cid, f.uid, f.name, f.password, f.group
	if err := auth.CreateAccount(ctx, store, a); err != nil {
		return err
	}
	fmt.Printf("account %s (%s, type %s) created for customer %q\n", a.ID, a.Name, a.Type, f.customer)
	return nil
}

var adminCreateDispatcher = storeCommand("create-dispatcher", []string{"customer", "uid", "name", "password"}, func(fs *flag.FlagSet) storeRun {
	f := addAccountFlags(fs)
	isAdmin := fs.Bool("admin", false, "administrator of the customer (unlocks accounts, changes others' passwords)")
	email := fs.String("email", "", "bound e-mail address (password recovery)")
	return func(ctx context.Context, store *db.DB) error {
		return createAccount(ctx, store, f, auth.NewAccount{Type: auth.DispatcherType, Admin: *isAdmin, Email: *email})
	}
})

var adminCreateTerminal = storeCommand("create-terminal", []string{"customer", "uid", "name", "type", "password"}, func(fs *flag.FlagSet) storeRun {
	f := addAccountFlags(fs)
	typ := fs.String("type", "", "terminal type: "+strings.Join(auth.AccountTypes[1:], ", "))
	sip := fs.Bool("sip", false, "a SIP account: a desk phone, softphone or gateway that registers over SIP with this id and password (docs/sip.md)")
	return func(ctx context.Context, store *db.DB) error {
		if *typ == auth.DispatcherType {
			return errors.New("type 20 is a dispatcher: use create-dispatcher")
		}
		a := auth.NewAccount{Type: *typ}
		if *sip {
			a.Kind = directory.KindSIP
		}
		return createAccount(ctx, store, f, a)
	}
})

var adminResetPassword = storeCommand("reset-password", []string{"uid", "password"}, func(fs *flag.FlagSet) storeRun {
	uid := fs.String("uid", "", "account number")
	pw := fs.String("password", "", "new password: 6 digits, or 8-64 characters with upper, lower, digit and one of "+auth.PasswordSpecials)
	return func(ctx context.Context, store *db.DB) error {
		if err := auth.ResetPassword(ctx, store, *uid, *pw); err != nil {
			return err
		}
		fmt.Printf("password of %s reset; its sessions ended\n", *uid)
		return nil
	}
})

var adminLinkOAuth = storeCommand("link-oauth", []string{"uid", "platform", "oauth"}, func(fs *flag.FlagSet) storeRun {
	uid := fs.String("uid", "", "account number")
	platform := fs.String("platform", "", "identity provider name, as the console sends it")
	oauth := fs.String("oauth", "", "the external identity (kept hashed: it signs in like a password)")
	return func(ctx context.Context, store *db.DB) error {
		if err := auth.LinkOAuth(ctx, store, *uid, *platform, *oauth); err != nil {
			return err
		}
		fmt.Printf("%s identity linked to %s\n", *platform, *uid)
		return nil
	}
})
