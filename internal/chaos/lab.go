// Package chaos is the cluster under faults (issue 35, docs/reliability.md, docs/adr/0038-chaos-lab.md): a lab of
// three `tenfour serve` nodes, NATS and PostgreSQL, each in its own network namespace on one bridge; a seeded
// workload of real terminal and console clients that writes every request, acknowledgement and delivery to a
// history; faults (kills, pauses, partitions by blackhole routes, restarts); and a checker that holds the history
// against the store.
package chaos

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"syscall"
	"time"

	"tenfour/internal/app"
	"tenfour/internal/bench"
	"tenfour/internal/config"
	"tenfour/internal/platform/db"
)

// Options configure a lab.
type Options struct {
	Dir         string        // data, logs and the history; kept after the run
	Bin         string        // the tenfour binary
	Net         Net           // default DefaultNet
	Nodes       int           // default 3
	NodeTimeout time.Duration // the nodes' --node-timeout (default 2 s)
	// Lossy is the node whose links to NATS and PostgreSQL run through the lab's userspace proxy (Lab.Links),
	// clean until a fault impairs them (default "n3").
	Lossy string
}

// DefaultNet is the lab's network unless told otherwise (nothing on the development machines uses it).
const DefaultNet Net = "10.231.77."

const (
	httpPort  = 8080
	natsPort  = 4222
	pgPort    = 5432
	pgUser    = "tenfour"
	pgOSUser  = "postgres" // PostgreSQL refuses to run as root
	startWait = 60 * time.Second
)

// Node is one `tenfour serve` of the lab.
type Node struct {
	ID string // its --node-id
	Host
	URL  string
	Proc *Proc
}

// Lab is the running cluster.
type Lab struct {
	opts  Options
	NATS  Host
	PG    Host
	Nodes []*Node
	DSN   string // PostgreSQL as the harness reaches it (from the root namespace)

	// Links are the lossy node's links to NATS and to PostgreSQL: the delay proxy of `make bench`
	// (internal/bench/proxy.go) on the bridge's root address, which a fault impairs (no netem here).
	Links []*bench.DelayProxy

	nats, pg *Proc
	pgDir    string // PostgreSQL's data: a directory of its own, which its user can reach wherever Dir is
}

// Start builds the network, starts PostgreSQL (a fresh cluster of its own, so its restarts touch no other
// user of the machine), NATS and the nodes, and waits until every node is healthy. Close undoes it all; a
// failed Start cleans up after itself.
func Start(ctx context.Context, o Options) (lab *Lab, err error) {
	if o.Net == "" {
		o.Net = DefaultNet
	}
	if o.Nodes == 0 {
		o.Nodes = 3
	}
	if o.NodeTimeout == 0 {
		o.NodeTimeout = 2 * time.Second
	}
	if o.Lossy == "" {
		o.Lossy = "n3"
	}
	if err := Usable(ctx); err != nil {
		return nil, err
	}
	if taken, err := netInUse(o.Net); err != nil || taken != "" {
		return nil, errors.Join(err, fmt.Errorf("the lab's network %s0/24 is in use here: %s", o.Net, taken))
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return nil, err
	}
	l := &Lab{opts: o, NATS: Host{Prefix + "nats", o.Net.Addr(10)}, PG: Host{Prefix + "pg", o.Net.Addr(11)}}
	for i := 1; i <= o.Nodes; i++ {
		id := "n" + strconv.Itoa(i)
		h := Host{Prefix + id, o.Net.Addr(20 + i)}
		l.Nodes = append(l.Nodes, &Node{ID: id, Host: h, URL: fmt.Sprintf("http://%s:%d", h.IP, httpPort)})
	}
	l.DSN = fmt.Sprintf("postgres://%s@%s:%d/postgres?sslmode=disable", pgUser, l.PG.IP, pgPort)
	defer func() {
		if err != nil {
			l.Close()
			lab = nil
		}
	}()
	CleanNet(ctx) // a crashed run's leftovers
	if err := netUp(ctx, o.Net); err != nil {
		return l, err
	}
	for _, h := range l.Hosts() {
		if err := addHost(ctx, h); err != nil {
			return l, err
		}
	}
	if err := l.startPG(ctx); err != nil {
		return l, err
	}
	natsDir := filepath.Join(o.Dir, "nats")
	l.nats = newProc("nats", l.NATS, filepath.Join(o.Dir, "nats.log"), "nats-server", "-js", "-a", l.NATS.IP,
		"-p", strconv.Itoa(natsPort), "-sd", natsDir)
	if err := l.nats.Start(); err != nil {
		return l, err
	}
	if err := waitTCP(ctx, net.JoinHostPort(l.NATS.IP, strconv.Itoa(natsPort)), startWait); err != nil {
		return l, fmt.Errorf("nats: %w", err)
	}
	natsAddr, pgAddr := net.JoinHostPort(l.NATS.IP, strconv.Itoa(natsPort)), net.JoinHostPort(l.PG.IP, strconv.Itoa(pgPort))
	for _, n := range l.Nodes {
		dsn, natsURL := l.DSN, "nats://"+natsAddr
		if n.ID == o.Lossy {
			nl, err := bench.NewDelayProxyOn(net.JoinHostPort(o.Net.HostAddr(), "0"), natsAddr, 0)
			if err != nil {
				return l, err
			}
			l.Links = append(l.Links, nl)
			pl, err := bench.NewDelayProxyOn(net.JoinHostPort(o.Net.HostAddr(), "0"), pgAddr, 0)
			if err != nil {
				return l, err
			}
			l.Links = append(l.Links, pl)
			dsn, natsURL = fmt.Sprintf("postgres://%s@%s/postgres?sslmode=disable", pgUser, pl.Addr()), "nats://"+nl.Addr()
		}
		n.Proc = newProc(n.ID, n.Host, filepath.Join(o.Dir, n.ID+".log"), o.Bin, "serve",
			"--addr", fmt.Sprintf("%s:%d", n.IP, httpPort), "--public-url", n.URL,
			"--data", l.DataDir(n), "--db", dsn,
			"--nats", natsURL, "--node-id", n.ID,
			"--node-timeout", o.NodeTimeout.String(), "--log-level", "info", "--media-interfaces", "eth0",
			// every client of the harness connects from the bridge's one address
			"--conns-per-ip", "0", "--signin-burst-per-address", "100000")
	}
	// The first node migrates the empty store; the others start once it is healthy, as an operator would.
	for i, n := range l.Nodes {
		if err := n.Proc.Start(); err != nil {
			return l, err
		}
		if i == 0 {
			if err := l.WaitHealthy(ctx, n, startWait); err != nil {
				return l, err
			}
		}
	}
	for _, n := range l.Nodes {
		if err := l.WaitHealthy(ctx, n, startWait); err != nil {
			return l, err
		}
	}
	return l, nil
}

// Store opens the lab's PostgreSQL from the harness (migrated; the caller closes it).
func (l *Lab) Store(ctx context.Context) (*db.DB, error) {
	return app.Open(ctx, config.Config{DB: l.DSN})
}

// Hosts are the lab's namespaces: NATS, PostgreSQL, then the nodes.
func (l *Lab) Hosts() []Host {
	hs := []Host{l.NATS, l.PG}
	for _, n := range l.Nodes {
		hs = append(hs, n.Host)
	}
	return hs
}

// Node is the node of id.
func (l *Lab) Node(id string) *Node {
	if i := slices.IndexFunc(l.Nodes, func(n *Node) bool { return n.ID == id }); i >= 0 {
		return l.Nodes[i]
	}
	return nil
}

// Lossy is the node whose links run through Links.
func (l *Lab) Lossy() string { return l.opts.Lossy }

// Impair sets the lossy node's links' one-way delay and loss (Impair(0, 0, …): clean again).
func (l *Lab) Impair(delay time.Duration, loss float64, seed uint64) {
	for i, p := range l.Links {
		p.Impair(delay, loss, seed+uint64(i))
	}
}

// Dir is where the lab keeps its data and logs.
func (l *Lab) Dir() string { return l.opts.Dir }

// DataDir is node n's --data: its recordings and uploads.
func (l *Lab) DataDir(n *Node) string { return filepath.Join(l.opts.Dir, n.ID) }

// NodeTimeout is the nodes' --node-timeout.
func (l *Lab) NodeTimeout() time.Duration { return l.opts.NodeTimeout }

// startPG makes a fresh PostgreSQL cluster under Dir (trusting the lab's network) the first time, and starts it.
func (l *Lab) startPG(ctx context.Context) error {
	bin, err := pgBin()
	if err != nil {
		return err
	}
	if l.pg == nil {
		u, err := user.Lookup(pgOSUser)
		if err != nil {
			return fmt.Errorf("postgres user: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if l.pgDir, err = os.MkdirTemp("", Prefix+"pg-"); err != nil {
			return err
		}
		dir := l.pgDir
		if err := os.Chown(dir, uid, gid); err != nil {
			return err
		}
		initdb := exec.CommandContext(ctx, "setpriv", "--reuid", u.Uid, "--regid", u.Gid, "--clear-groups",
			filepath.Join(bin, "initdb"), "-D", dir, "-U", pgUser, "--auth=trust", "--no-sync")
		if out, err := initdb.CombinedOutput(); err != nil {
			return fmt.Errorf("initdb: %v: %s", err, out)
		}
		hba := fmt.Sprintf("host all all %s0/24 trust\n", l.opts.Net)
		if err := appendFile(filepath.Join(dir, "pg_hba.conf"), hba); err != nil {
			return err
		}
		l.pg = newProc("postgres", l.PG, filepath.Join(l.opts.Dir, "pg.log"), "setpriv", "--reuid", u.Uid,
			"--regid", u.Gid, "--clear-groups", filepath.Join(bin, "postgres"), "-D", dir, "-k", dir,
			"-c", "listen_addresses="+l.PG.IP, "-p", strconv.Itoa(pgPort), "-c", "fsync=off",
			"-c", "max_connections=200")
	}
	if err := l.pg.Start(); err != nil {
		return err
	}
	return waitTCP(ctx, net.JoinHostPort(l.PG.IP, strconv.Itoa(pgPort)), startWait)
}

// pgBin is the newest installed PostgreSQL's bin directory (Debian's layout, as scripts/test-deps.sh).
func pgBin() (string, error) {
	vs, _ := filepath.Glob("/usr/lib/postgresql/*/bin/postgres")
	if len(vs) == 0 {
		return "", errors.New("no PostgreSQL under /usr/lib/postgresql (scripts/test-deps.sh installs it)")
	}
	sort.Slice(vs, func(i, j int) bool {
		vi, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(vs[i]))))
		vj, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(vs[j]))))
		return vi < vj
	})
	return filepath.Dir(vs[len(vs)-1]), nil
}

func appendFile(name, s string) error {
	f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(s)
	return errors.Join(err, f.Close())
}

// RestartPG stops PostgreSQL (fast shutdown: every session is cut) and starts it again.
func (l *Lab) RestartPG(ctx context.Context) error {
	sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := l.pg.Stop(sctx, syscall.SIGINT); err != nil {
		return err
	}
	return l.startPG(ctx)
}

// RestartNATS stops NATS (SIGTERM; its JetStream store stays) and starts it again.
func (l *Lab) RestartNATS(ctx context.Context) error {
	sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := l.nats.Stop(sctx, syscall.SIGTERM); err != nil {
		return err
	}
	if err := l.nats.Start(); err != nil {
		return err
	}
	return waitTCP(ctx, net.JoinHostPort(l.NATS.IP, strconv.Itoa(natsPort)), startWait)
}

// Healthy reports whether the node answers /healthz with 200 (it is serving and reaches PostgreSQL).
func (l *Lab) Healthy(ctx context.Context, n *Node) bool {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, n.URL+"/healthz", nil)
	if err != nil {
		return false
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	res.Body.Close()
	return res.StatusCode == http.StatusOK
}

// WaitHealthy polls the node's health until it is healthy, its process exits, or within passes.
func (l *Lab) WaitHealthy(ctx context.Context, n *Node, within time.Duration) error {
	deadline := time.Now().Add(within)
	for !l.Healthy(ctx, n) {
		if !n.Proc.Running() {
			return fmt.Errorf("node %s exited (log: %s)", n.ID, n.Proc.log)
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("node %s not healthy within %v (log: %s)", n.ID, within, n.Proc.log)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil
}

// Close kills every process and removes the network; Dir stays for the logs.
func (l *Lab) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, n := range l.Nodes {
		if n.Proc != nil {
			_ = n.Proc.Stop(ctx, syscall.SIGKILL)
		}
	}
	for _, p := range []*Proc{l.nats, l.pg} {
		if p != nil {
			_ = p.Stop(ctx, syscall.SIGKILL)
		}
	}
	for _, p := range l.Links {
		_ = p.Close()
	}
	if l.pgDir != "" {
		_ = os.RemoveAll(l.pgDir)
	}
	CleanNet(ctx)
}

// waitTCP waits until addr accepts a connection.
func waitTCP(ctx context.Context, addr string, within time.Duration) error {
	deadline := time.Now().Add(within)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			return c.Close()
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("%s not listening within %v: %w", addr, within, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// netInUse names an interface of the root namespace with an address in n (not the lab's own bridge), "" when none.
func netInUse(n Net) (string, error) {
	ifs, err := net.Interfaces()
	if err != nil {
		return "", err
	}
	_, lab, _ := net.ParseCIDR(string(n) + "0/24")
	for _, i := range ifs {
		if i.Name == bridge {
			continue // a crashed run's: CleanNet removes it
		}
		addrs, _ := i.Addrs()
		for _, a := range addrs {
			if ipn, ok := a.(*net.IPNet); ok && lab.Contains(ipn.IP) {
				return i.Name, nil
			}
		}
	}
	return "", nil
}
