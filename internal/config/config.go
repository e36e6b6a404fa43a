// Package config holds the server configuration, read from flags and TENFOUR_* environment variables.
package config

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Config is passed explicitly to everything that needs it; there is no package-level instance.
type Config struct {
	Addr          string // HOST:PORT to listen on
	DataDir       string // SQLite database, recordings, uploads
	DB            string // "" = embedded SQLite in DataDir; postgres://… for PostgreSQL
	Demo          bool   // seed the demo customers and run a simulated fleet in-process
	TLSCert       string
	TLSKey        string
	TLSSelfSigned bool
	// AllowedOrigins are extra browser origins allowed on the socket (the serving host is always allowed).
	AllowedOrigins []string
	PublicURL      string // how clients reach this server, for mediaServer/mediaFileUrl; derived from Addr if empty

	SMTP SMTP

	ShutdownTimeout time.Duration
	LogLevel        string
	LogJSON         bool
}

// SMTP is the outgoing mail server for verification codes.
type SMTP struct {
	Host     string
	Port     int
	User     string
	Password string
	From     string
	// TLS is "starttls" (default when a user is set), "tls" or "none".
	TLS string
}

// SQLitePath is where the embedded database lives.
func (c Config) SQLitePath() string { return filepath.Join(c.DataDir, "tenfour.db") }

// UsesPostgres tells whether the configured database is PostgreSQL.
func (c Config) UsesPostgres() bool {
	return strings.HasPrefix(c.DB, "postgres://") || strings.HasPrefix(c.DB, "postgresql://")
}

// ParseServe reads `tenfour serve` flags; every flag has a TENFOUR_<NAME> environment variable
// (dashes become underscores), and a flag given on the command line wins over the environment.
func ParseServe(args []string) (Config, error) {
	var c Config
	var origins string
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.StringVar(&c.Addr, "addr", "127.0.0.1:8080", "HOST:PORT to listen on")
	fs.StringVar(&c.DataDir, "data", "./data", "data directory (SQLite database, media files)")
	fs.StringVar(&c.DB, "db", "", "database URL (postgres://…); empty = embedded SQLite in the data directory")
	fs.BoolVar(&c.Demo, "demo", false, "seed demo customers on an empty database and run a simulated fleet")
	fs.StringVar(&c.TLSCert, "tls-cert", "", "TLS certificate file (PEM)")
	fs.StringVar(&c.TLSKey, "tls-key", "", "TLS private key file (PEM)")
	fs.BoolVar(&c.TLSSelfSigned, "tls-self-signed", false, "serve HTTPS with a generated self-signed certificate (LAN use)")
	fs.StringVar(&origins, "allowed-origins", "", "comma-separated extra browser origins allowed on the socket")
	fs.StringVar(&c.PublicURL, "public-url", "", "URL clients use to reach this server (default: derived from --addr)")
	fs.StringVar(&c.SMTP.Host, "smtp-host", "", "SMTP server for verification mails")
	fs.IntVar(&c.SMTP.Port, "smtp-port", 587, "SMTP port")
	fs.StringVar(&c.SMTP.User, "smtp-user", "", "SMTP user")
	fs.StringVar(&c.SMTP.Password, "smtp-password", "", "SMTP password")
	fs.StringVar(&c.SMTP.From, "smtp-from", "tenfour@localhost", "From address of verification mails")
	fs.StringVar(&c.SMTP.TLS, "smtp-tls", "", "starttls, tls or none (default starttls when --smtp-user is set, else none)")
	fs.DurationVar(&c.ShutdownTimeout, "shutdown-timeout", 10*time.Second, "graceful shutdown limit")
	fs.StringVar(&c.LogLevel, "log-level", "info", "debug, info, warn or error")
	fs.BoolVar(&c.LogJSON, "log-json", false, "log as JSON lines")
	if err := applyEnv(fs); err != nil {
		return c, err
	}
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	for _, o := range strings.Split(origins, ",") {
		if o = strings.TrimSpace(o); o != "" {
			c.AllowedOrigins = append(c.AllowedOrigins, o)
		}
	}
	if (c.TLSCert == "") != (c.TLSKey == "") {
		return c, fmt.Errorf("--tls-cert and --tls-key go together")
	}
	if c.DB != "" && !c.UsesPostgres() {
		return c, fmt.Errorf("--db must be a postgres:// URL (leave it empty for embedded SQLite)")
	}
	return c, nil
}

// applyEnv sets flag defaults from TENFOUR_* variables so explicit flags still override them.
func applyEnv(fs *flag.FlagSet) error {
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		name := "TENFOUR_" + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		if v, ok := os.LookupEnv(name); ok && err == nil {
			if e := f.Value.Set(v); e != nil {
				err = fmt.Errorf("%s: %w", name, e)
			}
		}
	})
	return err
}
