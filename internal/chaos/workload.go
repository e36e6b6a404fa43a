package chaos

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"time"

	"tenfour/internal/patrol"
	"tenfour/internal/platform/failover"
	"tenfour/internal/platform/wsclient"
	"tenfour/internal/sim"
	"tenfour/internal/termclient"
)

const (
	password   = "123456"
	dispatcher = "40000000"
	firstTerm  = 40000001
	opTimeout  = 6 * time.Second // above the server's 4.5 s acknowledgement wait
)

// WorkloadOptions size the workload: small, the machine is shared.
type WorkloadOptions struct {
	Seed      uint64
	Terminals int // spread over the nodes, half in each of two groups
	Interval  time.Duration
}

// Workload is the lab's clients: terminals spread over the nodes (each talks, listens, raises alarms, punches
// patrol points and reports positions), a console on every node (each sends messages, tones and job tickets, and
// watches), all writing to one history.
type Workload struct {
	lab  *Lab
	opts WorkloadOptions
	hist *History

	mu       sync.Mutex
	rng      *rand.Rand
	terms    []*terminal
	consoles []*console
	token    string
	tone     string // the tone id tone.send plays
	customer int64  // the workload's customer (Provision)
	phase    int64  // Run's count: the phase the ops sent now belong to (their stamps carry it)
}

// Provision creates the workload's customer, terminals (phone apps, which talk) and dispatcher in the lab's
// store, as `tenfour sim --provision` does, a tone in the library, and the terminals' patrol (provisionPatrol).
func Provision(ctx context.Context, lab *Lab, terminals int) error {
	d, err := lab.Store(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	p, err := sim.Provision(ctx, d, sim.ProvisionOptions{Customer: "Chaos", First: firstTerm, Count: terminals,
		Password: password, GroupSize: (terminals + 1) / 2, Dispatcher: dispatcher, PhoneApps: terminals})
	if err != nil {
		return err
	}
	// One tone in the library for tone.send: its sound and icon are file rows only, since the terminals
	// acknowledge tone.play without fetching the sound.
	now := time.Now().UnixMilli()
	for _, f := range [][3]string{{"c4a05000000000000000000000000001", "audio", "audio/wav"}, {"c4a05000000000000000000000000002", "image", "image/png"}} {
		if _, err := d.Exec(ctx, `INSERT INTO files (id, customer_id, kind, mime, name, size, sha256, uploaded_by, created_at)
			VALUES (?, ?, ?, ?, ?, 1, '', ?, ?)`, f[0], p.CustomerID, f[1], f[2], "chaos", dispatcher, now); err != nil {
			return err
		}
	}
	if _, err = d.Exec(ctx, `INSERT INTO tones (customer_id, name, file_id, icon_id, sort, create_by, created_at, updated_at)
		VALUES (?, ?, ?, ?, 0, ?, ?, ?)`, p.CustomerID, toneName, "c4a05000000000000000000000000001", "c4a05000000000000000000000000002",
		dispatcher, now, now); err != nil {
		return err
	}
	return provisionPatrol(ctx, d, p.CustomerID, terminals)
}

// toneName is the workload's tone in the library (Provision).
const toneName = "Chaos"

// NewWorkload logs the clients in: terminal i on node i mod n with media, a console on every node.
func NewWorkload(ctx context.Context, lab *Lab, o WorkloadOptions) (*Workload, error) {
	w := &Workload{lab: lab, opts: o, rng: rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15))}
	tok, err := wsclient.SignIn(ctx, http.DefaultClient, lab.Nodes[0].URL, dispatcher, password)
	if err != nil {
		return nil, fmt.Errorf("dispatcher sign-in: %w", err)
	}
	w.token = tok
	d, err := lab.Store(ctx)
	if err != nil {
		return nil, err
	}
	err = d.QueryRow(ctx, `SELECT CAST(id AS TEXT), customer_id FROM tones WHERE name = ?`, toneName).Scan(&w.tone, &w.customer)
	d.Close()
	if err != nil {
		return nil, fmt.Errorf("the workload's tone: %w", err)
	}
	for _, n := range lab.Nodes { // within 15 s of the sign-in: the token's first socket login
		c := &console{w: w, home: n, name: "console@" + n.ID, online: map[string]bool{}}
		if err := c.connect(ctx, n.URL, 0); err != nil {
			w.Close()
			return nil, fmt.Errorf("%s: %w", c.name, err)
		}
		w.consoles = append(w.consoles, c)
	}
	for i := range o.Terminals {
		t := &terminal{w: w, id: strconv.Itoa(firstTerm + i)}
		if err := t.login(ctx, lab.Nodes[i%len(lab.Nodes)], ""); err != nil {
			w.Close()
			return nil, fmt.Errorf("terminal %s: %w", t.id, err)
		}
		w.terms = append(w.terms, t)
	}
	return w, nil
}

// Consoles are the names the consoles' deliveries carry.
func (w *Workload) Consoles() []string {
	var out []string
	for _, c := range w.consoles {
		out = append(out, c.name)
	}
	return out
}

// Close logs every client out.
func (w *Workload) Close() {
	for _, t := range w.terms {
		t.conn.close()
	}
	for _, c := range w.consoles {
		c.conn.close()
	}
}

func (w *Workload) intn(n int) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.rng.IntN(n)
}

// Run drives the workload into h until ctx ends: each terminal and console acts every Interval (jittered),
// the terminals fail over when their connection ends.
func (w *Workload) Run(ctx context.Context, h *History) {
	w.mu.Lock()
	w.hist = h
	w.phase++
	w.mu.Unlock()
	var wg sync.WaitGroup
	for _, t := range w.terms {
		wg.Go(func() { t.run(ctx) })
	}
	for _, c := range w.consoles {
		wg.Go(func() { c.run(ctx) })
	}
	wg.Wait()
}

func (w *Workload) record(e Entry) {
	w.mu.Lock()
	h := w.hist
	w.mu.Unlock()
	if h != nil {
		h.Add(e)
	}
}

// Phase is the number of the phase running (or last run): 1 for the first.
func (w *Workload) Phase() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.phase
}

func (w *Workload) nextOp() int64 {
	w.mu.Lock()
	h := w.hist
	w.mu.Unlock()
	if h == nil {
		return 0
	}
	return h.NextOp()
}

// pause waits the workload's interval, jittered ±50 %, or until ctx ends.
func (w *Workload) pause(ctx context.Context) bool {
	d := w.opts.Interval/2 + time.Duration(w.intn(int(w.opts.Interval)+1))
	select {
	case <-ctx.Done():
		return false
	case <-time.After(d):
		return true
	}
}

// Online is the truth the presence views must converge to: the terminals logged in right now.
func (w *Workload) Online() map[string]bool {
	out := map[string]bool{}
	for _, t := range w.terms {
		if t.conn.get() != nil {
			out[t.id] = true
		}
	}
	return out
}

// terminal is one phone app: its client, re-created at each fail-over.
type terminal struct {
	w    *Workload
	id   string
	conn current[*termclient.Client]

	mu      sync.Mutex
	gid     string              // its talk group
	on      string              // the node it is logged in on
	round   []patrol.OrderPoint // the points of its open patrol order (patrol.go)
	punched int                 // punches sent: the next point is round[punched % len]
	heard   map[int64]bool      // the ops whose bursts it heard in phase heardIn (audio.go)
	heardIn int64
}

// login logs the terminal in on node n (with the resume token of its previous login when it has one) and
// connects its media.
func (t *terminal) login(ctx context.Context, n *Node, resume string) error {
	o := termclient.Options{URL: n.URL, UID: t.id, Password: password, Resume: resume,
		Media: termclient.MediaOptions{OnPacket: t.hear},
		OnRequest: func(typ string, data json.RawMessage) (string, any) {
			var m struct {
				ID    json.Number `json:"id"`
				JobID json.Number `json:"jobId"`
			}
			_ = json.Unmarshal(data, &m)
			switch typ {
			case "sms.deliver":
				t.w.record(Entry{Type: TypeDelivery, Kind: KindSMS, Actor: t.id, ID: m.ID.String(), Acked: time.Now()})
			case "job.deliver":
				t.w.record(Entry{Type: TypeDelivery, Kind: KindJob, Actor: t.id, ID: m.JobID.String(), Acked: time.Now()})
			case "tone.play":
				t.w.record(Entry{Type: TypeDelivery, Kind: KindTone, Actor: t.id, Acked: time.Now()})
			}
			return "0", struct{}{}
		}}
	lctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	c, err := termclient.Dial(lctx, o)
	var ce *termclient.CodeError
	if err != nil && resume != "" && errors.As(err, &ce) { // a refused resume token: the password once
		o.Resume = ""
		c, err = termclient.Dial(lctx, o)
	}
	if err != nil {
		return err
	}
	if err := c.Connect(lctx); err != nil {
		c.Close()
		return fmt.Errorf("media: %w", err)
	}
	var groups struct {
		PttGroup json.Number `json:"pttGroup"`
	}
	if err := c.Call(lctx, "group.list", nil, &groups); err != nil {
		c.Close()
		return err
	}
	t.mu.Lock()
	t.gid, t.on = groups.PttGroup.String(), n.ID
	t.mu.Unlock()
	t.conn.set(c)
	return nil
}

func (t *terminal) run(ctx context.Context) {
	drive(ctx, t.w, &t.conn, t.failover, func(ctx context.Context, c *termclient.Client) {
		switch r := t.w.intn(10); {
		case r < 3:
			t.gps(ctx, c)
		case r < 4:
			t.punch(ctx, c)
		case r < 8:
			t.press(ctx, c)
		default:
			t.sos(ctx, c)
		}
	})
}

// failover logs in again on the next node, and the next, after the clients' jittered backoff
// (internal/platform/failover, as termclient.Failover and the console do); the history gets how long the
// terminal was away.
func (t *terminal) failover(ctx context.Context, old *termclient.Client) {
	lost := time.Now()
	t.conn.set(nil)
	t.mu.Lock()
	from := t.on
	t.on = ""
	t.mu.Unlock()
	old.Close()
	e := Entry{Type: TypeFailover, Actor: t.id, Node: from, Sent: lost}
	at := indexOf(t.w.lab.Nodes, t.w.lab.Node(from))
	for failures := 1; ctx.Err() == nil; failures++ {
		select {
		case <-ctx.Done():
			continue
		case <-time.After(failover.Backoff(failures, float64(t.w.intn(1000))/1000)):
		}
		n := t.w.lab.Nodes[(at+failures)%len(t.w.lab.Nodes)]
		err := t.login(ctx, n, old.Resume)
		if err == nil {
			e.OK, e.Took, e.Acked = true, time.Since(lost), time.Now()
			break
		}
		slog.Debug("chaos: terminal login", "msId", t.id, "node", n.ID, "err", err)
	}
	if !e.OK {
		e.Took = time.Since(lost)
	}
	t.w.record(e)
}

// entry is a new op of the terminal, not sent yet.
func (t *terminal) entry(kind Kind) Entry {
	return Entry{Type: TypeOp, Op: t.w.nextOp(), Kind: kind, Node: t.on, Actor: t.id, Group: t.gid}
}

// op sends e's request and fills e with its reply.
func (t *terminal) op(ctx context.Context, c *termclient.Client, e Entry, typ string, data, out any) (Entry, error) {
	e.Sent = time.Now()
	cctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	err := c.Call(cctx, typ, data, out)
	e.Code = "0"
	if err != nil {
		var ce *termclient.CodeError
		if !errors.As(err, &ce) {
			e.Code = ""
			return e, err // no reply: not acknowledged
		}
		e.Code = ce.Code
	}
	e.Acked = time.Now()
	return e, err
}

func (t *terminal) gps(ctx context.Context, c *termclient.Client) {
	fix := map[string]any{"lat": 41.0 + float64(t.w.intn(1000))/1e4, "lng": 28.9, "time": time.Now().UnixMilli()}
	e, _ := t.op(ctx, c, t.entry(KindGPS), "gps.report", fix, nil)
	t.w.record(e)
}

// sos raises an alarm and cancels it a second later, so that the next one is a new alarm.
func (t *terminal) sos(ctx context.Context, c *termclient.Client) {
	var r struct {
		ID        json.Number `json:"id"`
		Duplicate bool        `json:"duplicate"`
	}
	e, err := t.op(ctx, c, t.entry(KindSOS), "sos.raise", map[string]any{}, &r)
	e.ID, e.Dup = r.ID.String(), r.Duplicate
	t.w.record(e)
	if err != nil || e.ID == "" {
		return
	}
	select {
	case <-ctx.Done():
	case <-time.After(time.Second):
	}
	cctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	defer cancel()
	_ = c.Call(cctx, "sos.cancel", map[string]any{"id": e.ID}, nil)
}

// press takes the floor of the terminal's group, talks 0.3–1.5 s (audio.go; less when the floor is revoked),
// and releases it. A press without an answer (or queued) is released too: the PTT button is let go all the same.
func (t *terminal) press(ctx context.Context, c *termclient.Client) {
	dropStale(c, "floor.revoked") // a revocation that crossed an earlier hold's release is not this press's
	var r termclient.FloorReply
	e, err := t.op(ctx, c, t.entry(KindPTT), "floor.request", map[string]any{"gid": t.gid, "queue": false}, &r)
	e.ID = r.CallID
	if err == nil && r.Status != "granted" {
		e.Code = r.Status // queued is not a grant
	}
	if e.Code != "0" {
		if e.Code == "" || e.Code == "queued" {
			rctx, cancel := context.WithTimeout(context.Background(), opTimeout)
			_ = c.ReleaseFloor(rctx, r.CallID) // no answer: "" releases the terminal's floor in every call
			cancel()
		}
		t.w.record(e)
		return
	}
	hold := 300*time.Millisecond + time.Duration(t.w.intn(1200))*time.Millisecond
	hctx, cancel := context.WithTimeout(ctx, hold)
	talked := make(chan struct{})
	go func() {
		defer close(talked)
		_ = c.Send(hctx, burstAudio(t.w.Phase(), e.Op, hold), frameTime)
	}()
	rev, rerr := c.WaitEvent(hctx, "floor.revoked", nil)
	e.Released = time.Now() // revoked: seen now
	cancel()
	<-talked
	if rerr == nil {
		var d struct {
			Code string `json:"code"`
		}
		_ = rev.Decode(&d)
		e.Revoked = cmp.Or(d.Code, "?")
	} else {
		e.Released = time.Now() // released: sent now, once the audio stopped
		rctx, cancel := context.WithTimeout(context.Background(), opTimeout)
		_ = c.ReleaseFloor(rctx, r.CallID)
		cancel()
	}
	t.w.record(e)
}

// dropStale takes the client's events of type typ received so far, unread.
func dropStale(c *termclient.Client, typ string) {
	now, cancel := context.WithCancel(context.Background())
	cancel() // WaitEvent takes what it holds, then sees the ended context
	for {
		if _, err := c.WaitEvent(now, typ, nil); err != nil {
			return
		}
	}
}

// console is a dispatcher's console socket, homed on one node; it moves to another when its node is lost,
// syncs the durable events it missed, and records every message status and alarm it sees.
type console struct {
	w    *Workload
	home *Node
	name string

	conn current[*wsclient.Conn]

	mu      sync.Mutex
	lastSeq int64
	online  map[string]bool // its presence view: events since its login, over the store's list at login
	at      string          // the node it is on
}

// connect logs the console in at url and, after a drop, replays what it missed since mark (the last seq it had
// seen when the connection dropped): a connection becomes the console's only once its login, replay and presence
// read all worked. A failed one is closed, and the next attempt replays from the same mark: the failed
// connection's live events move lastSeq but not the mark (moved, it would skip what was missed before them).
func (c *console) connect(ctx context.Context, url string, mark int64) (err error) {
	conn, err := wsclient.Dial(ctx, wsclient.URL(url), wsclient.Options{Handle: func(_ *wsclient.Conn, f wsclient.Frame) {
		if f.Re == 0 && f.ID == 0 {
			c.event(f)
		}
	}})
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			conn.CloseNow()
			slog.Warn("chaos: console connection failed", "console", c.name, "node", url, "err", err)
		}
	}()
	lctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var reply struct {
		LastSeq int64 `json:"lastSeq"`
	}
	if err := conn.Call(lctx, "session.login", map[string]any{"token": c.w.token, "client": "console"}, &reply); err != nil {
		return err
	}
	c.mu.Lock()
	first := c.at == "" // its first login: from the customer's newest event on
	if first {
		c.lastSeq = reply.LastSeq
	}
	c.mu.Unlock()
	for after := mark; !first; { // what it missed while away (docs/console-socket.md "Session")
		var s struct {
			Last int64 `json:"last"`
			More bool  `json:"more"`
		}
		if err := conn.Call(lctx, "sync", map[string]any{"after": after}, &s); err != nil {
			return err
		}
		if !s.More {
			break
		}
		after = s.Last
	}
	if err := c.refreshPresence(lctx, url); err != nil {
		return err
	}
	c.mu.Lock()
	c.at = url
	c.mu.Unlock()
	c.conn.set(conn)
	return nil
}

// refreshPresence takes the store's online list through the node, as the console's screen does at login.
func (c *console) refreshPresence(ctx context.Context, url string) error {
	on, err := onlineList(ctx, url, c.w.token)
	if err == nil {
		c.mu.Lock()
		c.online = on
		c.mu.Unlock()
	}
	return err
}

// onlineList is GET /ds/nms/getTerminalByClient?online=1 on a node.
func onlineList(ctx context.Context, url, token string) (map[string]bool, error) {
	var r struct {
		List []struct {
			CID string `json:"cid"`
		} `json:"list"`
	}
	code, err := rest(ctx, http.MethodGet, url+"/ds/nms/getTerminalByClient?online=1&pageSize=1000", token, nil, &r)
	if err != nil {
		return nil, err
	}
	if code != "0" {
		return nil, fmt.Errorf("getTerminalByClient: code %s", code)
	}
	out := map[string]bool{}
	for _, t := range r.List {
		out[t.CID] = true
	}
	return out, nil
}

// rest is one request to a node's REST API with the dispatcher's token (body: JSON, nil for none): the reply's
// code, and its result decoded into out when the code is "0".
func rest(ctx context.Context, method, url, token string, body, out any) (string, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return "", err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return "", err
	}
	req.Header.Set("token", token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	var env struct {
		Code   string          `json:"code"`
		Result json.RawMessage `json:"result"`
	}
	if err := json.NewDecoder(res.Body).Decode(&env); err != nil {
		return "", err
	}
	if env.Code == "0" && out != nil {
		err = json.Unmarshal(env.Result, out)
	}
	return env.Code, err
}

// event records a durable event of the workload's kinds, and follows presence.
func (c *console) event(f wsclient.Frame) {
	c.mu.Lock()
	if f.Seq > c.lastSeq {
		c.lastSeq = f.Seq
	}
	c.mu.Unlock()
	var d struct {
		ID     json.Number `json:"id"`
		JobID  json.Number `json:"jobId"`
		MsID   string      `json:"msId"`
		Online string      `json:"online"`
		Log    struct {
			ID json.Number `json:"id"`
		} `json:"log"` // patrol.punch
	}
	_ = f.Decode(&d)
	switch f.Type {
	case "sms.status":
		c.w.record(Entry{Type: TypeDelivery, Kind: KindSMS, Actor: c.name, ID: d.ID.String(), Seq: f.Seq, Acked: time.Now()})
	case "sos.alarm":
		c.w.record(Entry{Type: TypeDelivery, Kind: KindSOS, Actor: c.name, ID: d.ID.String(), Seq: f.Seq, Acked: time.Now()})
	case "job.changed":
		c.w.record(Entry{Type: TypeDelivery, Kind: KindJob, Actor: c.name, ID: d.JobID.String(), Seq: f.Seq, Acked: time.Now()})
	case patrol.EventPunch: // live only (no seq): a console re-reads the punch list after a reconnect
		c.w.record(Entry{Type: TypeDelivery, Kind: KindPunch, Actor: c.name, ID: d.Log.ID.String(), Seq: f.Seq, Acked: time.Now()})
	case "presence":
		c.mu.Lock()
		c.online[d.MsID] = d.Online == "1"
		c.mu.Unlock()
	}
}

// view is the console's presence view: the terminals it shows online.
func (c *console) view() map[string]bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]bool{}
	for id, on := range c.online {
		if on {
			out[id] = true
		}
	}
	return out
}

func (c *console) run(ctx context.Context) {
	drive(ctx, c.w, &c.conn, func(ctx context.Context, _ *wsclient.Conn) { c.reconnect(ctx) }, func(ctx context.Context, conn *wsclient.Conn) {
		switch r := c.w.intn(10); {
		case r < 5:
			c.sms(ctx, conn, false)
		case r < 7:
			c.sms(ctx, conn, true)
		case r < 8:
			c.tone(ctx, conn)
		default:
			c.job(ctx)
		}
	})
}

// reconnect tries its own node, then the others, once a second, as the console's socket does.
func (c *console) reconnect(ctx context.Context) {
	c.mu.Lock()
	mark := c.lastSeq
	c.mu.Unlock()
	for i := 0; ctx.Err() == nil; i++ {
		n := c.w.lab.Nodes[(indexOf(c.w.lab.Nodes, c.home)+i)%len(c.w.lab.Nodes)]
		if err := c.connect(ctx, n.URL, mark); err == nil {
			return
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

func indexOf(ns []*Node, n *Node) int {
	for i, m := range ns {
		if m == n {
			return i
		}
	}
	return 0
}

// sms sends a message to a random terminal, or to its group: "0" means the terminal acknowledged it (to a group:
// it is stored and was offered to every connected member).
func (c *console) sms(ctx context.Context, conn *wsclient.Conn, toGroup bool) {
	t := c.w.terms[c.w.intn(len(c.w.terms))]
	e := Entry{Type: TypeOp, Op: c.w.nextOp(), Kind: KindSMS, Node: c.nodeID(), Actor: c.name, Sent: time.Now()}
	req := map[string]any{"msId": t.id, "content": fmt.Sprintf("chaos op %d", e.Op)}
	if toGroup {
		t.mu.Lock()
		e.Group = t.gid
		t.mu.Unlock()
		delete(req, "msId")
		req["gid"] = e.Group
	} else {
		e.Target = t.id
	}
	cctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	var r struct {
		ID json.Number `json:"id"`
	}
	err := conn.Call(cctx, "sms.send", req, &r)
	e.ID, e.Code = r.ID.String(), "0"
	if err != nil {
		e.Code = wsclient.Code(err)
		if e.Code == "?" {
			e.Code = ""
			c.w.record(e)
			return
		}
	}
	e.Acked = time.Now()
	c.w.record(e)
}

// tone plays the library's tone on a random terminal: "0" means the terminal played it (acknowledged tone.play).
func (c *console) tone(ctx context.Context, conn *wsclient.Conn) {
	t := c.w.terms[c.w.intn(len(c.w.terms))]
	e := Entry{Type: TypeOp, Op: c.w.nextOp(), Kind: KindTone, Node: c.nodeID(), Actor: c.name, Target: t.id, Sent: time.Now()}
	cctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	err := conn.Call(cctx, "tone.send", map[string]any{"toneId": c.w.tone, "msIds": []string{t.id}}, nil)
	e.Code = "0"
	if err != nil {
		if e.Code = wsclient.Code(err); e.Code == "?" {
			e.Code = "" // no reply
			c.w.record(e)
			return
		}
	}
	e.Acked = time.Now()
	c.w.record(e)
}

// job sends a job ticket to a random terminal through the console's node (POST /ds/job/add); "0" means the job
// is stored (its delivery to the terminal follows, job.deliver).
func (c *console) job(ctx context.Context) {
	t := c.w.terms[c.w.intn(len(c.w.terms))]
	c.mu.Lock()
	url := c.at
	c.mu.Unlock()
	e := Entry{Type: TypeOp, Op: c.w.nextOp(), Kind: KindJob, Node: c.nodeID(), Actor: c.name, Target: t.id, Sent: time.Now()}
	cctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	var r struct {
		JobID json.Number `json:"jobId"`
	}
	code, err := rest(cctx, http.MethodPost, url+"/ds/job/add", c.w.token, map[string]any{"job": fmt.Sprintf("chaos op %d", e.Op), "msIds": []string{t.id}}, &r)
	if err == nil {
		e.Code, e.ID, e.Acked = code, r.JobID.String(), time.Now()
	}
	c.w.record(e)
}

func (c *console) nodeID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, n := range c.w.lab.Nodes {
		if n.URL == c.at {
			return n.ID
		}
	}
	return "?"
}

// conn is what current holds: a terminal's client or a console's socket.
type conn interface {
	comparable
	Close() error
	Done() <-chan struct{}
}

// current is a client's connection of the moment: replaced at each fail-over, the zero value while it is away.
type current[C conn] struct {
	mu sync.Mutex
	c  C
}

func (k *current[C]) get() C {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.c
}

func (k *current[C]) set(c C) {
	k.mu.Lock()
	k.c = c
	k.mu.Unlock()
}

func (k *current[C]) close() {
	var away C
	if c := k.get(); c != away {
		_ = c.Close()
	}
}

// drive is a client's life in the workload: at every pause it acts on its connection, or first brings the
// connection back when it has ended (back: a terminal's fail-over, a console's reconnect). It stops when ctx
// ends or when a connection never came back.
func drive[C conn](ctx context.Context, w *Workload, k *current[C], back, act func(context.Context, C)) {
	var away C
	for w.pause(ctx) {
		c := k.get()
		switch {
		case c == away:
			return
		case isDone(c.Done()):
			back(ctx, c)
		default:
			act(ctx, c)
		}
	}
}
