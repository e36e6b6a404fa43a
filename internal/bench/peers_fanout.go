package bench

// Fan-out and memory against Centrifugo (issue 21): N WebSocket clients on one channel per customer, each idle but
// for one request every 10 s, then events published to all N. The same client harness drives both servers (one
// coder/websocket connection and one reading goroutine per client, one goroutine pacing the requests); only the
// frames differ:
//
//   - tenfour: a terminal's socket (`session.login` with its password), which puts it in its customer's audience;
//     the request is `ping` → `pong`; the event is `key.changed`, which a dispatcher's key rotation
//     (`POST /ds/key/add … current:true`) sends to every online terminal of the customer.
//   - Centrifugo: its JSON protocol over WebSocket: `connect` with an HS256 connection token, `subscribe` to
//     `customer:1` (namespace `customer`, client-side subscribe allowed); the request is an `rpc` with no RPC proxy
//     configured (answered with an error reply, the cheapest request–reply its protocol has); the event is a
//     publication through its HTTP API (`POST /api/publish`). The client answers its application-level pings.

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"tenfour/internal/platform/wsclient"
)

// FanoutOptions describe one fan-out run.
type FanoutOptions struct {
	Bin     string        // the server binary (tenfour or centrifugo)
	Dir     string        // work directory (emptied)
	Clients int           // N (10,000)
	Every   time.Duration // each client's request interval (10 s)
	Window  time.Duration // the idle measurement window (CPU; ≥ Every so that every client sends once)
	Events  int           // events published to all N, one after the other
	Log     io.Writer
	// OnPhase: "window" (the idle window), "events" (the first publish) and "done" (the last event read).
	OnPhase PhaseHook
}

// FanoutResult is what one server measured.
type FanoutResult struct {
	Server              string
	Clients, Connected  int
	ConnectTime         time.Duration // all N connected, authenticated and subscribed
	RSSBase, RSS        int64         // server RSS before the clients, and after the window
	CPU                 float64       // server cores over the window
	Window              time.Duration
	Requests, Replies   int64           // the clients' requests in the window and the replies they read
	Deliveries          []time.Duration // publish sent → event read, every event at every client
	Missed              int             // deliveries that did not arrive within 10 s
	PublishCall         []time.Duration // the publishing HTTP call's own round trip
	EventCPU            []time.Duration // server CPU from publish sent until every client read the event, less the idle rate
	HarnessCPU          []time.Duration // the same for the clients' own process (this one: their reads and parsing)
	EventMax            []time.Duration // each event's last delivery (the run's p99 is the slowest events')
	ClientsClosedEarly  int64           // connections the server closed during the run
	ConnectErr, Details string
}

// PerConn is the server memory each connection adds (RSS delta / connections).
func (r FanoutResult) PerConn() float64 {
	if r.Connected == 0 {
		return 0
	}
	return float64(r.RSS-r.RSSBase) / float64(r.Connected)
}

// fanProto is what differs between the two servers.
type fanProto interface {
	name() string
	// start starts the server and returns it once it serves.
	start(ctx context.Context, o FanoutOptions) (*serverProc, error)
	// dial opens client i's socket, authenticates it and subscribes it; its first frames are read here.
	dial(ctx context.Context, i int) (*websocket.Conn, error)
	// request is client i's periodic request number n.
	request(n int64) []byte
	// frame handles one frame read by a client: an event index (or -1), whether it is a reply to a request,
	// and an answer to write back (Centrifugo's pong).
	frame(msg []byte) (event int, reply bool, answer []byte)
	// publish sends event k to every client.
	publish(ctx context.Context, k int) error
}

type fanClient struct {
	ws *websocket.Conn
}

// RunFanoutTenfour measures tenfour's socket hub (the real binary, terminals of one customer).
func RunFanoutTenfour(ctx context.Context, o FanoutOptions) (FanoutResult, error) {
	return runFanout(ctx, o, &tenfourFan{})
}

// RunFanoutCentrifugo measures Centrifugo (namespace `customer`, channel `customer:1`).
func RunFanoutCentrifugo(ctx context.Context, o FanoutOptions) (FanoutResult, error) {
	return runFanout(ctx, o, &centrifugoFan{})
}

func runFanout(ctx context.Context, o FanoutOptions, p fanProto) (FanoutResult, error) {
	res := FanoutResult{Server: p.name(), Clients: o.Clients, Window: o.Window}
	if err := os.RemoveAll(o.Dir); err != nil {
		return res, err
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return res, err
	}
	srv, err := p.start(ctx, o)
	if err != nil {
		return res, err
	}
	defer stop(srv.proc)
	if err := sleepCtx(ctx, 2*time.Second); err != nil {
		return res, err
	}
	res.RSSBase = srv.rss()

	// Arrival times: arrivals[k][i] in Unix nanoseconds, written by client i's reader only.
	arrivals := make([][]atomic.Int64, o.Events)
	for k := range arrivals {
		arrivals[k] = make([]atomic.Int64, o.Clients)
	}
	var replies, closedEarly atomic.Int64
	var measuring atomic.Bool
	clients := make([]*fanClient, o.Clients)
	cctx, cancelClients := context.WithCancel(context.Background())
	var readers sync.WaitGroup
	defer func() {
		cancelClients()
		for _, c := range clients {
			if c != nil {
				_ = c.ws.CloseNow()
			}
		}
		readers.Wait()
	}()

	// Connect, 8 at a time (tenfour's sign-in throttle checks at most 10 passwords of one address at once).
	t0 := time.Now()
	var next atomic.Int64
	var firstErr error
	var errMu sync.Mutex
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= o.Clients || ctx.Err() != nil {
					return
				}
				dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
				ws, err := p.dial(dctx, i)
				cancel()
				if err != nil {
					errMu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("client %d: %w", i, err)
					}
					errMu.Unlock()
					continue
				}
				ws.SetReadLimit(1 << 20)
				c := &fanClient{ws: ws}
				clients[i] = c
				readers.Add(1)
				go func() {
					defer readers.Done()
					for {
						_, msg, err := ws.Read(cctx)
						if err != nil {
							if cctx.Err() == nil {
								closedEarly.Add(1)
							}
							return
						}
						now := time.Now().UnixNano()
						k, reply, answer := p.frame(msg)
						if k >= 0 && k < len(arrivals) {
							arrivals[k][i].CompareAndSwap(0, now)
						}
						if reply && measuring.Load() {
							replies.Add(1)
						}
						if answer != nil {
							wctx, cancel := context.WithTimeout(cctx, 5*time.Second)
							_ = ws.Write(wctx, websocket.MessageText, answer)
							cancel()
						}
					}
				}()
			}
		}()
	}
	wg.Wait()
	res.ConnectTime = time.Since(t0)
	for _, c := range clients {
		if c != nil {
			res.Connected++
		}
	}
	if firstErr != nil {
		res.ConnectErr = firstErr.Error()
	}
	if res.Connected == 0 {
		return res, fmt.Errorf("%s: no client connected: %v", p.name(), firstErr)
	}
	if err := srv.alive(); err != nil {
		return res, err
	}

	// The requests: one per client every Every, spread evenly (N/Every a second), from one goroutine.
	var sent atomic.Int64
	go func() {
		start := time.Now()
		var n int64
		for round := 0; cctx.Err() == nil; round++ {
			for i, c := range clients {
				due := start.Add(time.Duration(round)*o.Every + time.Duration(i)*o.Every/time.Duration(len(clients)))
				if d := time.Until(due); d > 0 {
					select {
					case <-time.After(d):
					case <-cctx.Done():
						return
					}
				}
				if c == nil {
					continue
				}
				n++
				wctx, cancel := context.WithTimeout(cctx, 5*time.Second)
				if c.ws.Write(wctx, websocket.MessageText, p.request(n)) == nil && measuring.Load() {
					sent.Add(1)
				}
				cancel()
			}
		}
	}()

	// Steady state: settle, then the window.
	if err := sleepCtx(ctx, 3*time.Second); err != nil {
		return res, err
	}
	measuring.Store(true)
	o.OnPhase.at("window", srv.pid())
	if res.CPU, err = srv.coresOver(ctx, o.Window); err != nil {
		return res, err
	}
	res.RSS = srv.rss()
	measuring.Store(false)
	res.Requests, res.Replies = sent.Load(), replies.Load()

	// The events, one after the other.
	o.OnPhase.at("events", srv.pid())
	defer o.OnPhase.at("done", srv.pid())
	for k := range o.Events {
		cpu0, own0 := srv.cpu(), OwnCPU()
		t := time.Now()
		if err := p.publish(ctx, k); err != nil {
			return res, fmt.Errorf("%s: publish: %w", p.name(), err)
		}
		res.PublishCall = append(res.PublishCall, time.Since(t))
		deadline := time.Now().Add(10 * time.Second)
		for {
			got := 0
			for i := range clients {
				if clients[i] != nil && arrivals[k][i].Load() != 0 {
					got++
				}
			}
			if got >= res.Connected || time.Now().After(deadline) {
				break
			}
			if err := sleepCtx(ctx, 20*time.Millisecond); err != nil {
				return res, err
			}
		}
		// Less what the idle clients' requests cost over the same time (the window's rate).
		res.EventCPU = append(res.EventCPU, max(0, srv.cpu()-cpu0-time.Duration(res.CPU*float64(time.Since(t)))))
		res.HarnessCPU = append(res.HarnessCPU, OwnCPU()-own0)
		var last time.Duration
		for i := range clients {
			if clients[i] == nil {
				continue
			}
			if at := arrivals[k][i].Load(); at != 0 {
				d := time.Duration(at - t.UnixNano())
				res.Deliveries = append(res.Deliveries, d)
				last = max(last, d)
			} else {
				res.Missed++
			}
		}
		res.EventMax = append(res.EventMax, last)
		if err := sleepCtx(ctx, 500*time.Millisecond); err != nil {
			return res, err
		}
	}
	res.ClientsClosedEarly = closedEarly.Load()
	return res, srv.alive()
}

// --- tenfour ----------------------------------------------------------------------------------------------------

type tenfourFan struct {
	base, token string
	keys        map[string]int // secret key → event index
	mu          sync.Mutex
}

const (
	fanFirst      = 40000001
	fanDispatcher = "40000000"
	fanPassword   = "123456"
)

func (t *tenfourFan) name() string { return "tenfour" }

func (t *tenfourFan) start(ctx context.Context, o FanoutOptions) (*serverProc, error) {
	data := filepath.Join(o.Dir, "data")
	if err := os.MkdirAll(data, 0o755); err != nil {
		return nil, err
	}
	// The fleet as the scale run provisions it (one customer; cheap password hashes so N logins fit the budget).
	if err := provision(ctx, data, fanFirst, o.Clients, 0, fanDispatcher, fanPassword, true); err != nil {
		return nil, fmt.Errorf("provision: %w", err)
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	t.base = "http://127.0.0.1:" + strconv.Itoa(port)
	srv, err := startReady(ctx, o.Log, "tenfour", o.Bin, t.base+"/metrics", "serve", "--data", data,
		"--addr", "127.0.0.1:"+strconv.Itoa(port), "--media-udp-port", "0", "--media-interfaces", "lo", "--log-level", "warn",
		"--metrics-token", metricsToken, "--conns-per-ip", "0", "--signin-burst-per-address", strconv.Itoa(o.Clients+100),
		"--signin-interval-per-address", "1ms")
	if err != nil {
		return nil, err
	}
	if t.token, err = wsclient.SignIn(ctx, httpc, t.base, fanDispatcher, fanPassword); err != nil {
		stop(srv.proc)
		return nil, err
	}
	t.keys = map[string]int{}
	return srv, nil
}

// dial logs terminal i in; a 101 (system busy: the sign-in throttle's password checks in flight per address) is
// retried after a pause, as the protocol asks of a terminal.
func (t *tenfourFan) dial(ctx context.Context, i int) (*websocket.Conn, error) {
	for attempt := 1; ; attempt++ {
		ws, err := t.login(ctx, i)
		if err == nil || !errors.Is(err, errBusy) || attempt == 50 {
			return ws, err
		}
		if err := sleepCtx(ctx, time.Duration(attempt)*20*time.Millisecond); err != nil {
			return nil, err
		}
	}
}

var errBusy = errors.New("101 system busy")

func (t *tenfourFan) login(ctx context.Context, i int) (*websocket.Conn, error) {
	ws, _, err := websocket.Dial(ctx, wsclient.URL(t.base), nil)
	if err != nil {
		return nil, err
	}
	login, _ := json.Marshal(map[string]any{"id": 1, "type": "session.login",
		"data": map[string]string{"client": "terminal", "uid": strconv.Itoa(fanFirst + i), "auth": fanPassword}})
	if err := ws.Write(ctx, websocket.MessageText, login); err != nil {
		_ = ws.CloseNow()
		return nil, err
	}
	for {
		_, msg, err := ws.Read(ctx)
		if err != nil {
			_ = ws.CloseNow()
			return nil, err
		}
		var f struct {
			Re   int64  `json:"re"`
			Code string `json:"code"`
			Msg  string `json:"msg"`
		}
		if json.Unmarshal(msg, &f) == nil && f.Re == 1 {
			if f.Code == "101" {
				_ = ws.CloseNow()
				return nil, errBusy
			}
			if f.Code != "0" && f.Code != "" {
				_ = ws.CloseNow()
				return nil, fmt.Errorf("login: code %s %s", f.Code, f.Msg)
			}
			return ws, nil
		}
	}
}

func (t *tenfourFan) request(n int64) []byte {
	return []byte(`{"id":` + strconv.FormatInt(n+1, 10) + `,"type":"ping"}`)
}

func (t *tenfourFan) frame(msg []byte) (int, bool, []byte) {
	switch {
	case bytes.Contains(msg, []byte(`"type":"pong"`)):
		return -1, true, nil
	case bytes.Contains(msg, []byte(`"type":"key.changed"`)):
		var f struct {
			Data struct {
				SecretKey string `json:"secretKey"`
			} `json:"data"`
		}
		if json.Unmarshal(msg, &f) != nil {
			return -1, false, nil
		}
		t.mu.Lock()
		k, ok := t.keys[f.Data.SecretKey]
		t.mu.Unlock()
		if !ok {
			return -1, false, nil
		}
		return k, false, nil
	}
	return -1, false, nil
}

// publish rotates the customer's current key: the new key goes to every online terminal as `key.changed` (it is
// stored first, as every key change is).
func (t *tenfourFan) publish(ctx context.Context, k int) error {
	key := randomKey()
	t.mu.Lock()
	t.keys[key] = k
	t.mu.Unlock()
	body, _ := json.Marshal(map[string]any{"name": "bench " + strconv.Itoa(k), "secretKey": key, "current": true})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.base+"/ds/key/add", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("token", t.token)
	return postOK(req, func(b []byte) error {
		var env struct {
			Code string `json:"code"`
			Msg  string `json:"msg"`
		}
		if err := json.Unmarshal(b, &env); err != nil {
			return err
		}
		if env.Code != "0" {
			return fmt.Errorf("code %s: %s", env.Code, env.Msg)
		}
		return nil
	})
}

func randomKey() string {
	const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

func postOK(req *http.Request, check func([]byte) error) error {
	res, err := httpc.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("HTTP %d: %s", res.StatusCode, strings.TrimSpace(string(b)))
	}
	return check(b)
}

// --- Centrifugo -------------------------------------------------------------------------------------------------

type centrifugoFan struct {
	base string
}

const (
	centrifugoSecret  = "bench-hmac-secret-for-connection-tokens"
	centrifugoAPIKey  = "bench-api-key"
	centrifugoChannel = "customer:1"
)

func (c *centrifugoFan) name() string { return "Centrifugo " + CentrifugoVersion }

// CentrifugoConfig is the configuration the bench runs Centrifugo with: loopback, no TLS, HMAC token auth, one
// namespace whose channels clients may subscribe to, the HTTP API behind a key, usage statistics off; everything
// else at its defaults (docs/performance.md shows it).
func CentrifugoConfig(port int) map[string]any {
	return map[string]any{
		"http_server": map[string]any{"address": "127.0.0.1", "port": port},
		"log":         map[string]any{"level": "warn"},
		"client": map[string]any{
			"token":           map[string]any{"hmac_secret_key": centrifugoSecret},
			"allowed_origins": []string{"http://127.0.0.1"},
		},
		"channel": map[string]any{"namespaces": []map[string]any{
			{"name": "customer", "allow_subscribe_for_client": true},
		}},
		"http_api":    map[string]any{"key": centrifugoAPIKey},
		"usage_stats": map[string]any{"disabled": true},
	}
}

func (c *centrifugoFan) start(ctx context.Context, o FanoutOptions) (*serverProc, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	cfg, _ := json.MarshalIndent(CentrifugoConfig(port), "", "  ")
	path := filepath.Join(o.Dir, "centrifugo.json")
	if err := os.WriteFile(path, cfg, 0o600); err != nil {
		return nil, err
	}
	c.base = "http://127.0.0.1:" + strconv.Itoa(port)
	return startReady(ctx, o.Log, "centrifugo", o.Bin, c.base+"/health", "-c", path)
}

func (c *centrifugoFan) dial(ctx context.Context, i int) (*websocket.Conn, error) {
	tok, err := hs256(centrifugoSecret, map[string]any{"sub": strconv.Itoa(fanFirst + i),
		"exp": time.Now().Add(24 * time.Hour).Unix()})
	if err != nil {
		return nil, err
	}
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(c.base, "http")+"/connection/websocket", nil)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*websocket.Conn, error) { _ = ws.CloseNow(); return nil, err }
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"id":1,"connect":{"token":"`+tok+`"}}`)); err != nil {
		return fail(err)
	}
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"id":2,"subscribe":{"channel":"`+centrifugoChannel+`"}}`)); err != nil {
		return fail(err)
	}
	seen := 0
	for seen < 2 {
		_, msg, err := ws.Read(ctx)
		if err != nil {
			return fail(err)
		}
		// Several replies may share one frame, one JSON object a line.
		for _, line := range bytes.Split(msg, []byte("\n")) {
			var r struct {
				ID    int64            `json:"id"`
				Error *json.RawMessage `json:"error"`
			}
			if len(bytes.TrimSpace(line)) == 0 || json.Unmarshal(line, &r) != nil || r.ID == 0 {
				continue
			}
			if r.Error != nil {
				return fail(fmt.Errorf("reply %d: %s", r.ID, *r.Error))
			}
			seen++
		}
	}
	return ws, nil
}

func (c *centrifugoFan) request(n int64) []byte {
	return []byte(`{"id":` + strconv.FormatInt(n+2, 10) + `,"rpc":{"method":"bench.ping","data":{}}}`)
}

func (c *centrifugoFan) frame(msg []byte) (int, bool, []byte) {
	event, reply := -1, false
	var answer []byte
	for _, line := range bytes.Split(msg, []byte("\n")) {
		line = bytes.TrimSpace(line)
		switch {
		case len(line) == 0:
		case bytes.Equal(line, []byte("{}")): // the server's ping: answer with a pong
			answer = []byte("{}")
		case bytes.HasPrefix(line, []byte(`{"push"`)):
			var p struct {
				Push struct {
					Pub struct {
						Data struct {
							K *int `json:"k"`
						} `json:"data"`
					} `json:"pub"`
				} `json:"push"`
			}
			if json.Unmarshal(line, &p) == nil && p.Push.Pub.Data.K != nil {
				event = *p.Push.Pub.Data.K
			}
		case bytes.HasPrefix(line, []byte(`{"id"`)):
			reply = true
		}
	}
	return event, reply, answer
}

func (c *centrifugoFan) publish(ctx context.Context, k int) error {
	body, _ := json.Marshal(map[string]any{"channel": centrifugoChannel, "data": map[string]int{"k": k}})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/api/publish", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-API-Key", centrifugoAPIKey)
	return postOK(req, func(b []byte) error {
		var r struct {
			Error *json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(b, &r); err != nil {
			return err
		}
		if r.Error != nil {
			return errors.New(string(*r.Error))
		}
		return nil
	})
}
