package sim

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"tenfour/internal/config"
	"tenfour/internal/demo"
	"tenfour/internal/platform/ticker"
)

// RunDemo runs the in-process fleet of `serve --demo` until ctx ends: the first cfg.DemoFleet of FleetAccounts
// (61; DemoSpare is left to people) connect to this server through hc, the client of its in-process listener
// (real sockets, real WebRTC on loopback), so the console is alive from the first start; cfg.DemoFleetQuiet
// makes it passive (Options.Passive). The server sees the fleet as httpx.InProcessAddr, never as 127.0.0.1: it
// spends none of the loopback address's sign-in budget, which a dispatcher on the same machine needs
// (docs/adr/0008). resume issues each terminal's first resume token (auth.Service.IssueResume). It is an App
// background loop.
func RunDemo(ctx context.Context, cfg config.Config, hc *http.Client, resume func(ctx context.Context, uid string) (string, error)) {
	accounts := FleetAccounts()
	n := min(cfg.DemoFleet, len(accounts))
	if !cfg.Demo || n <= 0 {
		return
	}
	// The fleet's terminals log in with resume tokens from the server itself instead of 61 password hashes.
	accounts = accounts[:n]
	for i := range accounts {
		if tok, err := resume(ctx, accounts[i].ID); err == nil {
			accounts[i].Resume = tok
		}
	}
	self := demoURL(cfg)
	sos := cfg.DemoFleetSOS
	if sos <= 0 {
		sos = -1 // never
	}
	var walkers []string
	if !cfg.DemoFleetQuiet {
		// Two people's phone accounts walk the demo building, so /indoor shows terminals moving.
		w, err := IndoorWalkers(strings.Join(DemoWalkers, ","), accounts)
		if err == nil {
			for i := len(accounts); i < len(w.Accounts); i++ {
				if tok, err := resume(ctx, w.Accounts[i].ID); err == nil {
					w.Accounts[i].Resume = tok
				}
			}
			accounts, walkers = w.Accounts, w.IDs
		}
	}
	f, err := New(Options{URL: self, HTTPClient: hc, Accounts: accounts, Seed: 1, Loopback: IsLocal(self),
		Ramp: 3 * time.Second, MaxMedia: 24, Log: slog.Default(), Rates: Rates{SOSEvery: sos}, Passive: cfg.DemoFleetQuiet,
		Indoor: walkers, BusCards: demo.BusCards()})
	if err != nil {
		slog.Error("demo fleet", "err", err)
		return
	}
	slog.Info("demo fleet starting", "terminals", n, "url", self)
	go func() {
		ticker.Every(ctx, 5*time.Minute, func() { slog.Debug("demo fleet", "stats", f.Stats().String()) })
	}()
	_ = f.Run(ctx)
}

// Demo terminals left to people (the phone app at /app) and to browser tests: a fleet terminal on the same
// account would fight a person for it, each login replacing the other.
const firstPeopleAccount, lastPeopleAccount = "10000150", "10000176"

// FleetAccounts are the demo accounts the in-process fleet (and `sim --demo`) runs: every demo terminal but the
// people's — 61, of every terminal type, in both demo customers.
func FleetAccounts() []Account { return demoFilter(false) }

// DemoSpare are the demo accounts left to people (phone apps 10000150…10000157 and 10000161…10000176, dispatcher
// positions 10000158…10000160); a test may still run them in a fleet of its own.
func DemoSpare() []Account { return demoFilter(true) }

func demoFilter(people bool) []Account {
	var out []Account
	for _, a := range DemoAccounts() {
		if (a.ID >= firstPeopleAccount && a.ID <= lastPeopleAccount) == people {
			out = append(out, a)
		}
	}
	return out
}

// demoURL is the base URL the in-process fleet and speakers use: this server's listen address, an unspecified
// host meaning loopback. Their client goes through the in-process listener whatever it names, over plain HTTP
// (httpx.InProcessListener.Client), so the port may be 0 (a test server); the host decides whether WebRTC stays
// on loopback (IsLocal).
func demoURL(cfg config.Config) string {
	host, port, err := net.SplitHostPort(cfg.Addr)
	if err != nil {
		host, port = "", "0"
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
		if ip != nil && ip.To4() == nil {
			host = "::1"
		}
	}
	return "http://" + net.JoinHostPort(host, port)
}

// IsLocal tells whether a server URL names this machine's loopback (then WebRTC can stay on it).
func IsLocal(u string) bool {
	p, err := url.Parse(u)
	if err != nil {
		return false
	}
	ip := net.ParseIP(p.Hostname())
	return p.Hostname() == "localhost" || ip != nil && ip.IsLoopback()
}
