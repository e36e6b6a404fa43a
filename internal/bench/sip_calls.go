package bench

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"time"

	"tenfour/internal/app"
	"tenfour/internal/auth"
	"tenfour/internal/config"
	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
	"tenfour/internal/sim"
	"tenfour/internal/tenant"
)

// SIPCallsOptions configure RunSIPCalls.
type SIPCallsOptions struct {
	Bin     string        // the tenfour binary
	Dir     string        // the server's working directory (emptied first)
	Log     io.Writer     // the server's output (nil: discarded)
	Pairs   int           // groups, each with two SIP phones in a call: one talking, one hearing (default 50: 100 calls)
	Window  time.Duration // measured (default 10 s)
	Profile string        // a file for the server's CPU profile over the window ("": none)
}

// SIPCallsResult is what RunSIPCalls measured.
type SIPCallsResult struct {
	Calls  int
	Cores  float64 // the server process's CPU over the window, in cores
	Missed int     // 20 ms frames the hearing phones missed (a phone counts from 95 % of the window's frames)
	RSS    int64   // the server's resident set at the end of the window
}

// CallsPerCore is the concurrent bridged calls one core carries at this rate.
func (r SIPCallsResult) CallsPerCore() float64 { return float64(r.Calls) / r.Cores }

const sipCallsFirst = 46000001

// RunSIPCalls measures concurrent bridged calls: a tenfour server in its own process (SQLite, SIP on loopback),
// Pairs groups with two SIP accounts each; in each group one phone holds the floor and talks a tone (its G.711
// transcoded to Opus for the group) and the other hears it (the group's Opus transcoded to G.711). The phones
// (the simulator's, internal/sim) run in this process; the server's CPU is read from /proc over the window.
func RunSIPCalls(ctx context.Context, o SIPCallsOptions) (SIPCallsResult, error) {
	if o.Pairs <= 0 {
		o.Pairs = 50
	}
	if o.Window <= 0 {
		o.Window = 10 * time.Second
	}
	sipPort, err := freePort()
	if err != nil {
		return SIPCallsResult{}, err
	}
	groups := make([]string, o.Pairs)
	srv, base, err := startTenfour(ctx, o.Log, o.Bin, o.Dir, 4*o.Pairs, func(data string) error {
		return provisionSIPPairs(ctx, data, groups)
	}, "--sip-addr", "127.0.0.1:"+strconv.Itoa(sipPort), "--sip-tls-addr", "off", "--metrics-token", metricsToken)
	if err != nil {
		return SIPCallsResult{}, err
	}
	defer stop(srv.proc)
	server := "127.0.0.1:" + strconv.Itoa(sipPort)

	var phones []*sim.SIPPhone
	defer func() {
		for _, p := range phones {
			p.Close()
		}
	}()
	for i, gid := range groups {
		for j := range 2 {
			p, err := sim.RegisterSIPPhone(ctx, sim.SIPPhoneOptions{ID: strconv.Itoa(sipCallsFirst + 2*i + j),
				Password: sipCallsPassword, Server: server})
			if err != nil {
				return SIPCallsResult{}, err
			}
			phones = append(phones, p)
			if err := p.Call(ctx, gid); err != nil {
				return SIPCallsResult{}, fmt.Errorf("phone %d into group %s: %w", 2*i+j, gid, err)
			}
		}
		phones[len(phones)-2].Press('*') // the talker asks for the floor
	}
	if err := sleepCtx(ctx, 2*time.Second); err != nil { // the grants
		return SIPCallsResult{}, err
	}
	for i := 0; i < len(phones); i += 2 {
		phones[i].Talk(sim.ToneFrames(440, o.Window+3*time.Second))
	}
	if err := sleepCtx(ctx, time.Second); err != nil {
		return SIPCallsResult{}, err
	}
	heard0 := make([]int, len(phones))
	for i, p := range phones {
		heard0[i] = p.Heard()
	}
	profiled := make(chan error, 1)
	if o.Profile != "" {
		go func() {
			profiled <- SaveProfile(base, "profile?seconds="+strconv.Itoa(int(o.Window/time.Second)), o.Profile)
		}()
	} else {
		profiled <- nil
	}
	cores, err := srv.coresOver(ctx, o.Window)
	if err != nil {
		return SIPCallsResult{}, err
	}
	res := SIPCallsResult{Calls: len(phones), Cores: cores, RSS: srv.rss()}
	want := int(o.Window / (20 * time.Millisecond))
	for i := 1; i < len(phones); i += 2 {
		if got := phones[i].Heard() - heard0[i]; got < want*95/100 {
			res.Missed += want - got
		}
	}
	if err := <-profiled; err != nil {
		return res, fmt.Errorf("the server's CPU profile: %w", err)
	}
	return res, srv.alive()
}

const sipCallsPassword = "135790"

// provisionSIPPairs creates a customer with len(groups) groups of two SIP accounts (sipCallsFirst…) in the data
// directory's database, and writes the groups' ids into groups.
func provisionSIPPairs(ctx context.Context, dataDir string, groups []string) error {
	d, err := app.Open(ctx, config.Config{DataDir: dataDir})
	if err != nil {
		return err
	}
	defer d.Close()
	var customer int64
	if err := d.InTx(ctx, func(tx *db.Tx) error {
		customer, err = tenant.Add(ctx, tx, tenant.New{Name: "Bench SIP"})
		return err
	}); err != nil {
		return err
	}
	for i := range groups {
		g, err := directory.NewStore(d).AddGroup(ctx, customer, directory.NewGroup{Name: fmt.Sprintf("SIP pair %d", i+1)})
		if err != nil {
			return err
		}
		groups[i] = strconv.FormatInt(int64(g.GID), 10)
		for j := range 2 {
			id := strconv.Itoa(sipCallsFirst + 2*i + j)
			err := auth.CreateAccount(ctx, d, auth.NewAccount{CustomerID: customer, ID: id, Name: "Desk phone " + id,
				Type: "0", Password: sipCallsPassword, GroupID: int64(g.GID), Kind: directory.KindSIP})
			if err != nil {
				return fmt.Errorf("SIP account %s: %w", id, err)
			}
		}
	}
	return nil
}
